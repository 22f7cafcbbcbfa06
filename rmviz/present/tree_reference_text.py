"""The text of a game tree's exact references (``rmviz equilibria TREE``): the sequence-form
LP's value of a two-player zero-sum tree (:mod:`rmviz.solvers.tree.sequence_lp`) and its
equilibrium, one line per information set; the welfare-maximising EFCE and EFCCE
(:mod:`rmviz.solvers.tree.correlated_lp`), one line per reduced profile of the device's
support. Probabilities are short fractions where they are ones
(:func:`~rmviz.present.number_text.fraction`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rmviz.numbers import format_number
from rmviz.present.number_text import fraction

if TYPE_CHECKING:
    from rmviz.games.extensive_form import ExtensiveFormGame
    from rmviz.solvers.tree.compiled_tree import CompiledTree
    from rmviz.solvers.tree.correlated_lp import TreeCorrelatedOptimum
    from rmviz.solvers.tree.sequence_lp import TreeZeroSumSolution


def infoset_strategies(
    game: ExtensiveFormGame, tree: CompiledTree, solution: TreeZeroSumSolution
) -> list[dict[str, Any]]:
    """The equilibrium per information set: its player, label and moves with their
    probabilities (the text's lines; ``--json`` gives
    :func:`~rmviz.solvers.tree.compiled_tree.strategy_table`, as ``rmviz solve --json`` does)."""
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
    """The value (in fractions when the solution checks exactly) and the equilibrium's
    behaviour strategies, moves of probability 0 left out."""
    exact = solution.exact_value
    shown = (
        [str(exact), str(-exact)] if exact is not None else [format_number(v, ".6g") for v in solution.values]
    )
    values = ", ".join(f"{name} {v}" for name, v in zip(game.player_names, shown, strict=True))
    how = "exact: an equilibrium in fractions" if exact is not None else "floats from HiGHS"
    lines = [
        f"Zero-sum game tree: value {values}  (sequence-form LP, {how}; "
        f"NashConv of the equilibrium {format_number(solution.nash_conv, '.2g')}; {solution.seconds:.2f} s)"
    ]
    for row in infoset_strategies(game, tree, solution):
        played = [(m, fraction(p)) for m, p in zip(row["moves"], row["probabilities"], strict=True)]
        mixed = ", ".join(f"{move} {p}" for move, p in played if p != "0")
        lines.append(f"  {row['player']} at {row['infoset']}: {mixed}")
    return "\n".join(lines)


def correlated_report(optimum: TreeCorrelatedOptimum) -> dict[str, Any]:
    """The best device as data (``--json``): welfare, payoffs, the reduced strategies and the
    joint distribution over them (row-major: player 1's strategy slowest)."""
    return {
        "welfare": optimum.welfare,
        "payoffs": list(optimum.payoffs),
        "strategies": [list(names) for names in optimum.strategies],
        "joint": [float(p) for p in optimum.joint.ravel()],
        "seconds": optimum.seconds,
    }


def format_tree_correlated(game: ExtensiveFormGame, optimum: TreeCorrelatedOptimum) -> str:
    """The best device's welfare and payoffs, then its support: one reduced profile a line."""
    payoffs = ", ".join(
        f"{name} {format_number(v, '.6g')}"
        for name, v in zip(game.player_names, optimum.payoffs, strict=True)
    )
    lines = [
        f"Best {optimum.kind} (max welfare, LP over reduced profiles): welfare "
        f"{format_number(optimum.welfare, '.6g')}, payoffs {payoffs}  ({optimum.seconds:.2f} s)"
    ]
    rows, columns = optimum.strategies
    for (s1, s2), p in np.ndenumerate(optimum.joint):
        if fraction(float(p)) != "0":
            lines.append(f"  {fraction(float(p)):>8}  ({rows[s1]}; {columns[s2]})")
    return "\n".join(lines)
