"""The text of a game tree's exact reference (``rmviz equilibria TREE``): the sequence-form
LP's value of a two-player zero-sum tree (:mod:`rmviz.solvers.tree.sequence_lp`) and its
equilibrium, one line per information set, each move's probability as a short fraction where
it is one (:func:`~rmviz.present.number_text.fraction`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rmviz.numbers import format_number
from rmviz.present.number_text import fraction

if TYPE_CHECKING:
    from rmviz.games.extensive_form import ExtensiveFormGame
    from rmviz.solvers.tree.compiled_tree import CompiledTree
    from rmviz.solvers.tree.sequence_lp import TreeZeroSumSolution


def infoset_strategies(
    game: ExtensiveFormGame, tree: CompiledTree, solution: TreeZeroSumSolution
) -> list[dict[str, Any]]:
    """The equilibrium as data: per information set its player, label and moves with their
    probabilities (``--json``)."""
    rows = []
    for infoset in range(tree.n_infosets):
        first, size = int(tree.infoset_first_slot[infoset]), int(tree.infoset_size[infoset])
        rows.append(
            {
                "player": game.player_names[int(tree.infoset_player[infoset])],
                "infoset": tree.infoset_label[infoset],
                "moves": list(tree.slot_move[first : first + size]),
                "probabilities": [float(p) for p in solution.strategy[first : first + size]],
            }
        )
    return rows


def format_tree_zero_sum(game: ExtensiveFormGame, tree: CompiledTree, solution: TreeZeroSumSolution) -> str:
    """The value and the equilibrium's behaviour strategies, moves of probability 0 left out."""
    values = ", ".join(
        f"{name} {format_number(v, '.6g')}"
        for name, v in zip(game.player_names, solution.values, strict=True)
    )
    lines = [
        f"Zero-sum game tree: value {values}  (sequence-form LP, HiGHS; "
        f"NashConv of the equilibrium {format_number(solution.nash_conv, '.2g')}; {solution.seconds:.2f} s)"
    ]
    for row in infoset_strategies(game, tree, solution):
        played = [(m, fraction(p)) for m, p in zip(row["moves"], row["probabilities"], strict=True)]
        mixed = ", ".join(f"{move} {p}" for move, p in played if p != "0")
        lines.append(f"  {row['player']} at {row['infoset']}: {mixed}")
    return "\n".join(lines)
