"""``game_kind(spec)`` (what sweeps check their grid with, before any task runs) names the
family of the game ``load_game(spec)`` builds, without building it, and refuses what
``load_game`` refuses, with the same one line."""

from __future__ import annotations

import pytest

from rmviz.errors import RmvizError
from rmviz.formats import game_kind, load_game
from rmviz.games.catalog import CATALOG
from rmviz.solvers.registry import family_of


@pytest.mark.parametrize(
    "spec",
    [
        *CATALOG,
        "random:zero-sum:3x4:seed=2",
        "random:cooperative:2x2x2",
        "reduced:kuhn",
        "tests/data/reference-games/rps.nfg",
        "tests/data/reference-games/kuhn_poker.efg",
    ],
)
def test_the_kind_is_the_family_of_the_game_loaded(spec):
    assert game_kind(spec) == family_of(load_game(spec)).name


def test_a_json_file_is_read_for_its_kind(tmp_path):
    from rmviz.formats import write_game_file

    for name in ("rps", "kuhn"):
        path = tmp_path / f"{name}.json"
        write_game_file(load_game(name), path)
        assert game_kind(str(path)) == family_of(load_game(name)).name


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("nosuch", "is not a catalog game"),
        ("random:weird:2x2", "unknown random game kind 'weird'"),
        ("random:zero-sum:2", "1 players"),
        ("random:zero-sum:2x2:seed=x", "cannot read random game"),
        ("reduced:rps", "the reduced strategic form is of a game tree"),
        ("missing.efg", r"missing\.efg: no such file"),
        ("missing.nfg", r"missing\.nfg: no such file"),
        ("game.txt", "unknown file type"),
    ],
)
def test_refusals_match_load_game(spec, reason):
    for function in (game_kind, load_game):
        with pytest.raises(RmvizError, match=reason) as error:
            function(spec)
        assert "\n" not in str(error.value)


def test_a_huge_random_game_is_not_drawn():
    assert game_kind("random:general-sum:10x10x10x10x10x10x10:seed=3") == "matrix"  # 560 MB if built
