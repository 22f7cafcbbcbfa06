"""Deep game trees (issue 10, defect 5): building, validating and reducing a 5,000-deep tree give a
result or a one-line :class:`RmvizError`, never a RecursionError."""

from __future__ import annotations

import pytest

from rmviz.errors import GameError
from rmviz.games.extensive_form import ExtensiveFormGame, Node, chance, decision, terminal
from rmviz.games.reduced import reduced_strategic_form

pytestmark = pytest.mark.slow  # deep files take seconds each; .ci/run runs them

DEPTH = 5_000


def centipede(depth: int = DEPTH, players: int = 2, moves: tuple[str, ...] = ("stop", "go")) -> Node:
    """``depth`` decisions in a row, players taking turns; ``stop`` ends the game, ``go`` goes on."""
    node = terminal(*([1.0] * players))
    for d in reversed(range(depth)):
        branches = [(m, node if m == "go" else terminal(*([float(d)] * players))) for m in moves]
        node = decision(d % players, f"d{d}", branches)
    return node


def names(players: int) -> tuple[str, ...]:
    return tuple(f"P{i + 1}" for i in range(players))


def test_a_deep_tree_validates():
    game = ExtensiveFormGame(centipede(), names(2), "centipede")
    assert [len(s) for s in game.infosets] == [DEPTH // 2, DEPTH // 2]
    assert sum(1 for _ in game.nodes()) == 2 * DEPTH + 1
    assert "centipede" in repr(game)
    assert repr(game.root).startswith("Node(")  # no recursion into the children


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (2, r"'P1' has 2,501 reduced strategies in 'centipede' choosing 3,128,750 moves in all"),
        (3, r"has 1668 x 1668 x 1667 strategies \(4,637,967,408 profiles\)"),
    ],
)
def test_reducing_a_deep_tree_is_a_one_line_error(players, message):
    """Player 1 stops at one of its sets or never: 2,501 strategies naming 1 + 2 + ... + 2,500
    + 2,500 moves (2 players); 1668 x 1668 x 1667 strategies (3 players)."""
    game = ExtensiveFormGame(centipede(players=players), names(players), "centipede")
    with pytest.raises(GameError, match=message) as caught:
        reduced_strategic_form(game)
    assert "\n" not in str(caught.value)


def test_reducing_a_deep_tree_of_forced_moves_gives_its_one_profile():
    root = chance([("heads", 0.5, centipede(moves=("go",))), ("tails", 0.5, terminal(3, 3))])
    reduced = reduced_strategic_form(ExtensiveFormGame(root, names(2), "forced"))
    assert reduced.num_actions == (1, 1)
    assert reduced.payoffs[:, 0, 0].tolist() == [2.0, 2.0]
    assert len(reduced.action_names[0][0].split()) == DEPTH // 2


def test_errors_deep_in_a_tree_are_one_short_line():
    node = decision(0, "d1", [("stop", terminal(0)), ("go", terminal(1))])  # d1 again, 5,000 moves on
    for d in reversed(range(DEPTH)):
        node = decision(0, f"d{d}", [("stop", terminal(d)), ("go", node)])
    with pytest.raises(GameError) as caught:
        ExtensiveFormGame(node, ("P1",), "forgetful")
    message = str(caught.value)
    assert message.startswith("'P1' forgets what they knew: information set 'd1' joins history go and ")
    assert "(4976 more)" in message  # the 5,000-move history is abbreviated
    assert "\n" not in message
    assert len(message) < 1_000
    shared = terminal(0)
    node = decision(0, "z", [("a", shared), ("b", shared)])
    for d in reversed(range(DEPTH)):
        node = decision(0, f"d{d}", [("stop", terminal(d)), ("go", node)])
    with pytest.raises(GameError, match="reached along two paths") as caught:
        ExtensiveFormGame(node, ("P1",), "shared")
    assert len(str(caught.value)) < 1_000


def test_chance_probabilities_are_shown_with_every_digit_they_need():
    root = chance([("a", 0.5, terminal(1, -1)), ("b", 0.500000002, terminal(0, 0))])
    with pytest.raises(GameError, match=r"at the root sum to 1\.000000002\d*; they must sum to 1"):
        ExtensiveFormGame(root, names(2))
