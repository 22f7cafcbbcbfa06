"""The exact value and an equilibrium of a two-player zero-sum game tree: the sequence-form LP.

Koller, Megiddo & von Stengel (1996) and von Stengel (1996): a realization plan x of player 1
is a vector over their sequences (the empty one and each move at an information set) with
``E x = e`` (``x(empty) = 1``; ``sum_a x(I a) = x(parent(I))``), ``x >= 0``; y and
``F y = f`` likewise for player 2. With ``A[s, t] = sum_z P_c(z) u_1(z)`` over the terminals z
whose players' last moves are s and t, player 1's payoff is ``x^T A y``, and by LP duality
of the inner minimisation the game's value is ``max f^T q`` over ``E x = e``, ``x >= 0``,
``F^T q <= A^T x`` (player 2's LP is the mirror image). Both are solved with SciPy's HiGHS
on sparse matrices: the LP has a row per sequence and a nonzero per terminal, so Leduc
(936 information sets) takes 0.14 s of CPU. The plans' behaviour strategies
``sigma(I, a) = x(I a) / x(parent(I))`` (uniform where a plan never reaches I) form a Nash
equilibrium; :attr:`TreeZeroSumSolution.nash_conv` is its NashConv by the tree solver's own
exact best responses. SciPy is imported on first use.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from rmviz.errors import ConfigError, RmvizError
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.solvers.rational import RATIONAL_DENOMINATORS, exact_array, rational, simplest_near
from rmviz.solvers.scale import largest_payoff, reported_values
from rmviz.solvers.tree.compiled_tree import CompiledTree, TreePasses, compile_tree

MAX_LP_TERMINALS = 300_000
"""The LP is refused above this many terminal histories (its nonzeros): both LPs of a binary
tree of 262,144 terminals take 2.2 s of CPU, of 524,288 terminals 6.5 s, growing about 3x
per doubling (tests/benchmarks/sequence_lp.py; docs/performance.md, "The sequence-form LP")."""
WINDOW_MAX_TERMINALS = 65_536
"""The tree window and its exported figures draw the reference up to this many terminals
(0.26 s of CPU; Leduc's 5,520: 0.14 s); above it only ``rmviz equilibria`` computes it."""


EXACT_MAX_TERMINALS = 1_000
"""Trees up to this many terminals have their LP solution checked in fractions (Kuhn: 30)."""


@dataclass(frozen=True)
class TreeZeroSumSolution:
    """The sequence-form LP's solution of a two-player zero-sum tree.

    ``value``: player 1's value (player 2's is ``-value``); ``strategy``: the equilibrium's
    behaviour strategy per slot (both players, as a solver's strategies); ``nash_conv``: its
    NashConv by exact best responses (0 up to the LP's tolerance); ``seconds``: both LPs.
    ``exact_value``: on request, for trees of up to :data:`EXACT_MAX_TERMINALS` terminals,
    the value as a Fraction when fractions near the strategy form an equilibrium exactly
    (player 1's best response to player 2's strategy gains what player 2's concedes to
    player 1's best, with the game's numbers read as fractions:
    :func:`~rmviz.solvers.rational.rational`), else None.
    """

    value: float
    strategy: np.ndarray
    nash_conv: float
    seconds: float
    exact_value: Fraction | None = None

    @property
    def values(self) -> tuple[float, float]:
        """Each player's value."""
        return self.value, 0.0 if self.value == 0.0 else -self.value


def refusal(game: ExtensiveFormGame, tree: CompiledTree | None = None) -> str | None:
    """Why the LP does not take ``game`` (one line), or None when it does."""
    tree = compile_tree(game) if tree is None else tree
    if not tree.two_player_zero_sum:
        return (
            f"{game.title} is not a two-player zero-sum game tree "
            f"({tree.n_players} players{'' if tree.n_players != 2 else ', payoffs not summing to 0'}); "
            "the sequence-form LP solves those only"
        )
    terminals = int(np.count_nonzero(tree.kind == 2))
    if terminals > MAX_LP_TERMINALS:
        return (
            f"the sequence-form LP handles trees of up to {MAX_LP_TERMINALS:,} terminal histories; "
            f"{game.title} has {terminals:,}"
        )
    return None


def solve_zero_sum_tree(
    game: ExtensiveFormGame,
    tree: CompiledTree | None = None,
    exact: bool = False,
    near: np.ndarray | None = None,
) -> TreeZeroSumSolution:
    """Player 1's value and an equilibrium of ``game`` by the sequence-form LP (module
    docstring), with ``exact`` its check in fractions; a :class:`ConfigError` for trees
    :func:`refusal` names. With ``near`` (a behaviour strategy per slot: a run's average),
    the equilibrium nearest it (:func:`_nearest_plan`): a game with many equilibria (Kuhn
    poker: a family) is shown the one its run approaches, not the one HiGHS met first."""
    tree = compile_tree(game) if tree is None else tree
    why = refusal(game, tree)
    if why is not None:
        raise ConfigError(why)
    started = time.perf_counter()
    passes = TreePasses(tree)
    payoff, constraints = _sequence_form(tree, passes)
    scale = largest_payoff(payoff.data) or 1.0  # HiGHS treats 1e20 as infinite: solve in [-1, 1]
    payoff.data /= scale  # entry by entry: sparse / scale multiplies by 1 / scale (inf at 5e-324)
    value, x = _maximin(payoff, constraints[0], constraints[1])
    other_value, y = _maximin(-payoff.T, constraints[1], constraints[0])
    if near is not None:
        target = realization_plan(tree, near, passes)
        x = _nearest_plan(payoff, constraints[0], constraints[1], value, _player_plan(tree, target, 0))
        y = _nearest_plan(
            -payoff.T, constraints[1], constraints[0], other_value, _player_plan(tree, target, 1)
        )
    strategy = np.empty(tree.n_slots)
    for player, plan in enumerate((x, y)):
        low, high = tree.player_slots[player]
        strategy[low:high] = plan[1:]  # sequence 0 is the empty one
    strategy = np.maximum(strategy, 0.0)
    if near is None:
        strategy = passes.average_strategy(strategy)  # x(I a) / sum_b x(I b)
    else:  # where the plan never reaches, any behaviour is an equilibrium's: near's own
        total = passes.infoset_sums(strategy)
        strategy = np.where(total > 0, strategy / np.where(total > 0, total, 1.0), near)
    nash_conv, _ = passes.nash_conv(strategy)
    (shown,) = reported_values([value], 1.0, scale)
    verified = None
    if exact and passes.terminals.size <= EXACT_MAX_TERMINALS:
        verified = _verified(tree, passes, strategy)
    return TreeZeroSumSolution(shown, strategy, nash_conv, time.perf_counter() - started, verified)


def _verified(tree: CompiledTree, passes: TreePasses, strategy: np.ndarray) -> Fraction | None:
    """The exact value when fractions near ``strategy`` (the simplest with denominators up to
    each of :data:`~rmviz.solvers.rational.RATIONAL_DENOMINATORS`, normalised per information
    set) form an exact equilibrium: each player's best response to the other's gains the
    same, in fractions. Python loops over nodes: small trees only."""
    chance = [Fraction(1)] * tree.n_nodes
    for h in range(1, tree.n_nodes):  # breadth first: a parent comes before its children
        edge = rational(float(tree.chance_probability[h])) if tree.edge_owner[h] == tree.n_players else 1
        chance[h] = chance[int(tree.parent[h])] * edge
    payoff = exact_array(tree.payoffs[0])
    for denominator in RATIONAL_DENOMINATORS:
        near = simplest_near(strategy, denominator)
        totals = [sum(near[slot] for slot in _slots(tree, j)) for j in range(tree.n_infosets)]
        if any(total == 0 for total in totals):
            continue
        sigma = [near[s] / totals[int(tree.slot_infoset[s])] for s in range(tree.n_slots)]
        best = [
            _exact_best_response(tree, passes, sigma, chance, payoff * sign, p)
            for p, sign in ((0, 1), (1, -1))
        ]
        if best[0] == -best[1]:  # player 1 gains against sigma_2 what sigma_1 guarantees
            return best[0]
    return None


def _slots(tree: CompiledTree, infoset: int) -> range:
    first = int(tree.infoset_first_slot[infoset])
    return range(first, first + int(tree.infoset_size[infoset]))


def _exact_best_response(
    tree: CompiledTree,
    passes: TreePasses,
    sigma: list[Fraction],
    chance: list[Fraction],
    payoff: np.ndarray,
    player: int,
) -> Fraction:
    """``player``'s best-response value against ``sigma`` with ``payoff`` (fractions): the
    sequence-form recursion of :meth:`TreePasses.best_response_values`, exactly."""
    other = [Fraction(1)] * tree.n_nodes  # the other player's reach
    for h in range(1, tree.n_nodes):
        owner, slot = int(tree.edge_owner[h]), int(tree.edge_slot[h])
        other[h] = other[int(tree.parent[h])] * (sigma[slot] if owner == 1 - player else 1)
    q: list[Fraction] = [Fraction(0)] * (tree.n_slots + 1)  # q[0]: the empty sequence
    for k, z in enumerate(passes.terminals):
        q[int(passes.terminal_sequence[player][k]) + 1] += chance[z] * other[z] * payoff[z]
    for j in passes.deepest_first[player]:
        q[int(passes.infoset_parent_sequence[j]) + 1] += max(q[s + 1] for s in _slots(tree, int(j)))
    return q[0]


def drawn_reference(
    game: ExtensiveFormGame, tree: CompiledTree, near: np.ndarray | None = None
) -> TreeZeroSumSolution | None:
    """The solution the tree window and its exported figures draw: the equilibrium nearest
    ``near`` (the run's average strategy; default uniform); None for a tree the LP refuses
    or with more than :data:`WINDOW_MAX_TERMINALS` terminals (and if HiGHS fails)."""
    if refusal(game, tree) is not None or np.count_nonzero(tree.kind == 2) > WINDOW_MAX_TERMINALS:
        return None
    try:
        return solve_zero_sum_tree(game, tree, near=tree.uniform_strategy() if near is None else near)
    except RmvizError:
        return None


def realization_plan(
    tree: CompiledTree, strategy: np.ndarray, passes: TreePasses | None = None
) -> np.ndarray:
    """Each slot's sequence probability under the behaviour ``strategy``: ``x(I a) =
    x(parent(I)) sigma(I, a)``, the empty sequence's 1 (Koller, Megiddo & von Stengel
    1996); information sets by their own depth, shallowest first. ``passes``: the tree's,
    where the caller has them (their parent sequences cost a pass over the tree)."""
    plan = np.ones(tree.n_slots + 1)  # index 0: the empty sequence
    parent = (TreePasses(tree) if passes is None else passes).infoset_parent_sequence + 1
    slot_depth = tree.infoset_own_depth[tree.slot_infoset]
    for depth in np.unique(slot_depth):
        slots = np.flatnonzero(slot_depth == depth)
        plan[slots + 1] = plan[parent[tree.slot_infoset[slots]]] * strategy[slots]
    return plan[1:]


def _player_plan(tree: CompiledTree, plan: np.ndarray, player: int) -> np.ndarray:
    """``player``'s part of a realization plan per slot, the empty sequence first (the LP's
    order of that player's sequences)."""
    low, high = tree.player_slots[player]
    return np.concatenate(([1.0], plan[low:high]))


def _sequence_form(tree: CompiledTree, passes: TreePasses) -> tuple[Any, list[Any]]:
    """The payoff matrix ``A`` (player 1's sequences x player 2's, sparse) and each player's
    constraint matrix ``E`` (a row for the empty sequence, then one per information set)."""
    from scipy import sparse

    terminals = passes.terminals
    chance = passes.reach(tree.chance_probability)[tree.n_players, terminals]
    sizes, rows = [], []
    local = []
    for player in range(2):
        low, high = tree.player_slots[player]
        sizes.append(high - low + 1)
        # sequence index: 0 the empty sequence, 1 + (slot - low) a move
        sequence = passes.terminal_sequence[player]
        local.append(np.where(sequence >= 0, sequence - low + 1, 0))
        infosets = np.flatnonzero(tree.infoset_player == player)
        parent = passes.infoset_parent_sequence[infosets]
        parent_column = np.where(parent >= 0, parent - low + 1, 0)
        slot_rows = np.searchsorted(infosets, tree.slot_infoset[low:high]) + 1
        row = np.concatenate(([0], slot_rows, np.arange(1, infosets.size + 1)))
        column = np.concatenate(([0], np.arange(1, high - low + 1), parent_column))
        data = np.concatenate(([1.0], np.ones(high - low), -np.ones(infosets.size)))
        rows.append(sparse.csr_matrix((data, (row, column)), shape=(infosets.size + 1, high - low + 1)))
    payoff = sparse.csr_matrix(
        (chance * tree.payoffs[0, terminals], (local[0], local[1])), shape=(sizes[0], sizes[1])
    )
    return payoff, rows


VALUE_SLACKS = (0.0, 1e-9)
"""How far below the LP's value (payoffs scaled to [-1, 1]) a plan nearest a target may
guarantee, tried in turn: the value itself (HiGHS's feasibility tolerance absorbs its own
rounding: Kuhn, Leduc and 20 random binary trees all solve, NashConv <= 1e-12), then a
little below it where rounding makes that infeasible."""


def _nearest_plan(payoff: Any, own: Any, other: Any, value: float, target: np.ndarray) -> np.ndarray:
    """The maximin realization plan x of ``x^T payoff y`` nearest ``target`` in L1: minimise
    ``sum t`` over ``t >= |x - target|`` and the constraints of :func:`_maximin` with its
    guarantee held at ``value`` (less each of :data:`VALUE_SLACKS` in turn). The maximin
    plans are a polytope, so this is one LP (a game's equilibria are the product of its
    players' sets)."""
    from scipy import sparse
    from scipy.optimize import linprog

    n_x, n_q = own.shape[1], other.shape[0]
    identity = sparse.identity(n_x, format="csr")
    no_q = sparse.csr_matrix((n_x, n_q))
    guarantee = sparse.csr_matrix(([-1.0], ([0], [n_x])), shape=(1, 2 * n_x + n_q))
    upper = sparse.vstack(
        [
            sparse.hstack([-payoff.T, other.T, sparse.csr_matrix((payoff.shape[1], n_x))]),
            guarantee,
            sparse.hstack([identity, no_q, -identity]),  # x - t <= target
            sparse.hstack([-identity, no_q, -identity]),  # -x - t <= -target
        ]
    ).tocsr()
    equality = sparse.hstack([own, sparse.csr_matrix((own.shape[0], n_q + n_x))]).tocsr()
    right = np.zeros(own.shape[0])
    right[0] = 1.0
    cost = np.concatenate((np.zeros(n_x + n_q), np.ones(n_x)))
    bounds = [(0.0, None)] * n_x + [(None, None)] * n_q + [(0.0, None)] * n_x
    for slack in VALUE_SLACKS:
        bound = np.concatenate((np.zeros(payoff.shape[1]), [slack - value], target, -target))
        result = linprog(cost, upper, bound, equality, right, bounds, method="highs")
        if result.success:
            return result.x[:n_x]
    raise RmvizError(f"the nearest equilibrium's linear programme failed: {result.message}")


def _maximin(payoff: Any, own: Any, other: Any) -> tuple[float, np.ndarray]:
    """``max f^T q`` over ``own x = e``, ``x >= 0``, ``other^T q <= payoff^T x``: the value the
    maximiser of ``x^T payoff y`` guarantees, and its realization plan x."""
    from scipy import sparse
    from scipy.optimize import linprog

    n_x, n_q = own.shape[1], other.shape[0]
    cost = np.zeros(n_x + n_q)
    cost[n_x] = -1.0  # q of the opponent's empty sequence (f = e_0)
    upper = sparse.hstack([-payoff.T, other.T]).tocsr()
    equality = sparse.hstack([own, sparse.csr_matrix((own.shape[0], n_q))]).tocsr()
    right = np.zeros(own.shape[0])
    right[0] = 1.0
    bounds = [(0.0, None)] * n_x + [(None, None)] * n_q
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(upper.shape[0]),
        A_eq=equality,
        b_eq=right,
        bounds=bounds,
        method="highs",
    )
    if not result.success:
        raise RmvizError(f"the sequence-form linear programme failed: {result.message}")
    return float(result.x[n_x]), result.x[:n_x]
