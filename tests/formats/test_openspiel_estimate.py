"""Refusing OpenSpiel games far above the history limit on the probes' estimate, once the exact
count has run :data:`~rmviz.formats.openspiel.COUNT_SECONDS` of CPU time without deciding
(issue 33: colored_trails took half a minute to refuse). The CPU clock is replaced here, so
nothing waits for time to pass and nothing depends on this machine's speed."""

from __future__ import annotations

import re

import pytest

from rmviz.errors import RmvizError
from rmviz.formats import openspiel
from rmviz.formats.openspiel import check_size, load_pyspiel_game, openspiel_game

pytest.importorskip("pyspiel")

LEDUC = 9_457  # Leduc poker's histories


@pytest.fixture
def impatient(monkeypatch):
    """A stopped CPU clock and no count budget: the estimate judges at the count's first look
    at the clock, and its probes never run out of time (all REFUSAL_PROBES of them)."""
    monkeypatch.setattr(openspiel, "_clock", lambda: 0.0)
    monkeypatch.setattr(openspiel, "COUNT_SECONDS", 0.0)


def estimate_in(message: str) -> int:
    found = re.fullmatch(
        r"'[^']+' has about ([\d,]+) histories by an estimate from 1,000 random probes, "
        r"more than the ([\d,]+) allowed: too large to build as a tree here",
        message,
    )
    assert found, message
    return int(found[1].replace(",", ""))


def test_a_game_far_above_the_limit_is_refused_on_the_estimate(impatient):
    with pytest.raises(RmvizError) as error:
        openspiel_game("openspiel:leduc_poker", max_nodes=1_000)
    assert 0.7 * LEDUC < estimate_in(str(error.value)) < 1.3 * LEDUC


def test_colored_trails_is_refused_at_once(impatient):
    """The issue's example: its exact count took 25 s of CPU to pass 10^6 histories."""
    with pytest.raises(RmvizError) as error:
        openspiel_game("openspiel:colored_trails")
    assert 1_000_000 < estimate_in(str(error.value)) < 3_000_000


@pytest.mark.parametrize(
    ("spec", "histories"),
    [
        ("kuhn_poker", 58),
        ("kuhn_poker(players=3)", 617),
        ("leduc_poker", LEDUC),
        ("liars_dice(dice_sides=5)", 51_181),
        ("goofspiel(num_cards=4,imp_info=True,points_order=descending)", 1_077),
    ],
)
def test_no_game_within_the_limit_is_refused_on_an_estimate(impatient, spec, histories):
    """At the limit and one above it the game loads; one below it, it is refused (by the count,
    or by the estimate where every probe gives the exact size: goofspiel's moves are as many at
    every history of a depth). Liar's dice's estimate is the heaviest-tailed: a few wide paths."""
    for limit in (histories, histories + 1):
        assert sum(1 for _ in openspiel_game(spec, max_nodes=limit).nodes()) == histories
    with pytest.raises(RmvizError, match=f"more than (the )?{histories - 1:,} "):
        openspiel_game(spec, max_nodes=histories - 1)


def test_the_estimate_is_asked_once_when_the_budget_is_spent(monkeypatch):
    ticks = iter(range(10**9))
    monkeypatch.setattr(openspiel, "_clock", lambda: next(ticks) / 10)  # a tenth of a second a look
    asked = []
    game = load_pyspiel_game("leduc_poker")
    assert (
        check_size(game, "leduc_poker", 10**6, seconds=1.0, slow=lambda: asked.append(next(ticks))) == LEDUC
    )
    assert len(asked) == 1 and asked[0] >= 11  # after ten looks at the clock, and only once
    asked.clear()
    assert check_size(game, "leduc_poker", 10**6, seconds=1e9, slow=lambda: asked.append(0)) == LEDUC
    assert asked == []


def test_an_estimate_near_the_limit_lets_the_count_decide(impatient):
    """Probes that put the game above the limit, but not by SIGMAS standard errors, refuse
    nothing: the count goes on and gives the exact answer."""
    game = load_pyspiel_game("leduc_poker")
    openspiel.refuse_if_estimated(game, "leduc_poker", LEDUC - 1)  # the count's to refuse
    with pytest.raises(RmvizError, match="more than 9,456 histories"):
        check_size(
            game,
            "leduc_poker",
            LEDUC - 1,
            seconds=0.0,
            slow=lambda: openspiel.refuse_if_estimated(game, "leduc_poker", LEDUC - 1),
        )


def chain_efg(depth: int) -> str:
    """A game ``depth`` choices deep, each between going on (first) and stopping: the walk keeps
    a state at every depth, each holding its history, about depth^2 / 2 moves in all."""
    lines = ['EFG 2 R "chain" { "P1" "P2" }', '""']
    lines += [f'p "" {i % 2 + 1} {i // 2 + 1} "" {{ "on" "stop" }} 0' for i in range(depth)]
    lines += [f't "" {i + 1} "" {{ {1 if i == 0 else 0}, {-1 if i == 0 else 0} }}' for i in range(depth + 1)]
    return "\n".join(lines) + "\n"


def test_a_game_too_deep_to_walk_is_refused_before_its_states_fill_memory(tmp_path, monkeypatch):
    path = tmp_path / "chain.efg"
    path.write_text(chain_efg(100))
    spec = f"openspiel:efg_game(filename={path})"
    assert sum(1 for _ in openspiel_game(spec).nodes()) == 201  # kept: depths 0 + 1 + ... + 99 = 4,950 moves
    monkeypatch.setattr(openspiel, "MAX_HELD", 4_950)
    assert sum(1 for _ in openspiel_game(spec).nodes()) == 201
    monkeypatch.setattr(openspiel, "MAX_HELD", 4_949)
    with pytest.raises(RmvizError, match=r"too deep to walk here: .* more than 4,949 moves$"):
        openspiel_game(spec)
