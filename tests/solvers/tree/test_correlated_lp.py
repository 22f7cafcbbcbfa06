"""The welfare-maximising EFCE and EFCCE of small two-player trees
(rmviz.solvers.tree.correlated_lp), checked by a referee that enumerates every trigger and
every pure continuation of the deviator (the definitions of von Stengel & Forges 2008 and
Farina, Bianchi & Sandholm 2020), on the paper's signalling game and Kuhn poker."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games.catalog import catalog_game
from rmviz.games.extensive_form import CHANCE, TERMINAL, ExtensiveFormGame
from rmviz.games.reduced import reduced_form_with_strategies
from rmviz.solvers.tree.correlated_lp import MAX_PROFILES, best_correlated_tree


def _terminals(game: ExtensiveFormGame):
    """(chance probability, payoffs, each player's (set, move) list on the way) per terminal."""
    out = []
    stack = [(game.root, Fraction(1), ((), ()))]
    while stack:
        node, p, moves = stack.pop()
        if node.kind == TERMINAL:
            out.append((p, node.payoffs, moves))
            continue
        for k, (move, child) in enumerate(zip(node.moves, node.children, strict=True)):
            if node.kind == CHANCE:
                stack.append((child, p * Fraction(node.probabilities[k]).limit_denominator(10**6), moves))
            else:
                own = tuple(
                    (*m, (node.infoset, move)) if i == node.player else m for i, m in enumerate(moves)
                )
                stack.append((child, p, own))
    return out


def _payoff(terminals, plans, player):
    return sum(
        p * Fraction(u[player])
        for p, u, moves in terminals
        if all(plans[i].get(label) == move for i in range(2) for label, move in moves[i])
    )


def _gap(game: ExtensiveFormGame, joint, kind: str) -> Fraction | float:
    """The largest gain of a trigger deviation of ``kind`` against ``joint`` (over reduced
    profiles), by enumerating every trigger and every continuation (reduced strategies that
    reach the trigger's set, restricted to its subtree)."""
    _, strategies = reduced_form_with_strategies(game)
    terminals = _terminals(game)
    below: dict[tuple[int, str], set[str]] = {}  # each own set's subtree of own sets
    for _, _, moves in terminals:
        for i in range(2):
            labels = [label for label, _ in moves[i]]
            for k, label in enumerate(labels):
                below.setdefault((i, label), set()).update(labels[k:])
    best = 0
    for (i, label), subtree in below.items():
        continuations = {
            tuple(sorted((k, v) for k, v in s.items() if k in subtree)) for s in strategies[i] if label in s
        }
        recommended = sorted({s[label] for s in strategies[i] if label in s}) if kind == "EFCE" else [None]
        for a in recommended:
            for continuation in continuations:
                gain = 0
                for s1, s2 in np.ndindex(*joint.shape):
                    weight = joint[s1, s2]
                    own = strategies[i][(s1, s2)[i]]
                    if not weight or label not in own or (a is not None and own[label] != a):
                        continue
                    profile = [strategies[0][s1], strategies[1][s2]]
                    deviated = list(profile)
                    deviated[i] = {**{k: v for k, v in own.items() if k not in subtree}, **dict(continuation)}
                    gain += weight * (_payoff(terminals, deviated, i) - _payoff(terminals, profile, i))
                best = max(best, gain)
    return best


def _paper_device(game):
    """von Stengel & Forges' EFCE: G's and B's signals uniform and independent; player 2
    accepts G's signal and refuses the other."""
    form, _ = reduced_form_with_strategies(game)
    joint = np.full(form.payoffs[0].shape, Fraction(0), dtype=object)
    rows, columns = form.action_names
    for good in "XY":
        for bad in "XY":
            accept = "X:l Y:r" if good == "X" else "X:r Y:l"
            joint[rows.index(f"G:{good} B:{bad}"), columns.index(accept)] = Fraction(1, 4)
    return form, joint


def test_the_papers_device_is_an_efce_and_pays_35_and_65():
    game = catalog_game("signaling")
    form, joint = _paper_device(game)
    assert [sum(joint[s] * Fraction(int(form.payoffs[i][s])) for s in np.ndindex(4, 4)) for i in (0, 1)] == [
        Fraction(7, 2),
        Fraction(13, 2),
    ]
    assert _gap(game, joint, "EFCE") == 0 and _gap(game, joint, "EFCCE") == 0
    # separating, player 2 accepting X: the bad type sends X instead and gains 1/2 x 6 = 3
    separating = np.full(joint.shape, Fraction(0), dtype=object)
    separating[form.action_names[0].index("G:X B:Y"), form.action_names[1].index("X:l Y:r")] = Fraction(1)
    assert _gap(game, separating, "EFCE") == 3 and _gap(game, separating, "EFCCE") == 3


@pytest.mark.parametrize("kind", ["EFCE", "EFCCE"])
def test_the_signalling_games_best_device_has_the_papers_welfare(kind):
    """Welfare 10 (the paper's EFCE, 3.5 + 6.5; the most any outcome gives: G always accepted),
    where every Nash equilibrium and the best normal-form CE give 6 (tests/games/test_signaling.py)."""
    game = catalog_game("signaling")
    best = best_correlated_tree(game, kind)
    assert best.objective == pytest.approx(10.0, abs=1e-9)
    assert best.welfare == pytest.approx(10.0, abs=1e-9)
    assert best.joint.sum() == pytest.approx(1.0) and (best.joint >= 0).all()
    assert float(_gap(game, best.joint, kind)) <= 1e-9  # the referee: no trigger gains
    assert float(_gap(game, best.joint, "EFCCE")) <= 1e-9  # EFCE <= EFCCE: an EFCE is an EFCCE


@pytest.mark.parametrize("kind", ["EFCE", "EFCCE"])
def test_in_kuhn_poker_every_device_pays_the_value(kind):
    """In a two-player zero-sum game a coarse correlated equilibrium pays the value, so the
    best one for each player pays it exactly: -1/18 for player 1."""
    game = catalog_game("kuhn")
    for weights, value in (((1.0, 0.0), -1 / 18), ((0.0, 1.0), 1 / 18)):
        best = best_correlated_tree(game, kind, weights)
        assert best.objective == pytest.approx(value, abs=1e-9)
        assert best.payoffs[0] == pytest.approx(-1 / 18, abs=1e-9)


def test_the_teaching_trees_device_passes_the_referee():
    game = catalog_game("teaching-tree")
    best = best_correlated_tree(game, "EFCE", (1.0, 0.0))
    assert best.objective == pytest.approx(0.25, abs=1e-9)  # the value, by hand
    assert float(_gap(game, best.joint, "EFCE")) <= 1e-9


def test_what_it_refuses():
    with pytest.raises(ConfigError, match="two-player trees; Kuhn Poker \\(OpenSpiel\\) has 3 players"):
        from rmviz.formats import load_game

        best_correlated_tree(load_game("openspiel:kuhn_poker(players=3)"))
    with pytest.raises(ConfigError, match="kind must be one of EFCE, EFCCE"):
        best_correlated_tree(catalog_game("kuhn"), "CE")
    assert MAX_PROFILES >= 27 * 64  # Kuhn poker's reduced profiles
