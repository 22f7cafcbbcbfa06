"""The welfare-maximising extensive-form correlated (EFCE) or coarse correlated (EFCCE)
equilibrium of a small two-player game tree, by linear programming.

A device is a distribution mu over reduced pure profiles (von Stengel & Forges 2008, Section
2.2: reduced strategies suffice). Player i's deviation is triggered at an information set I,
after being recommended move a there (EFCE; Gordon, Greenwald & Marks 2008 and Farina et al.
2019 call it a trigger (I, a)) or on reaching I before any recommendation there (EFCCE;
Farina, Bianchi & Sandholm 2020); the deviator then plays any pure continuation from I on.
Its best value is a sequence-form best response in I's subtree, so LP duality turns each
trigger into rows over (mu, v): ``v_J >= sum_{z ends in J b} c(z) + sum_{J' below J b} v_J'``
for every own set J at or below I and move b, with ``c(z) = P_c(z) u_i(z) sum_s mu(s)
[s triggers] [s_-i agrees with z]``, and ``v_I <=`` the value of following (the same sum with
``[s_i agrees with z]`` too). The LP maximises the weighted payoffs over those rows and
``sum mu = 1`` (SciPy HiGHS). Exact for trees with chance, where correlation plans are not
(von Stengel & Forges 2008), at the price of the reduced strategic form's size.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from rmviz.errors import ConfigError, RmvizError
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.reduced import reduced_form_with_strategies
from rmviz.solvers.tree.compiled_tree import TreePasses, compile_tree

KINDS = ("EFCE", "EFCCE")
MAX_PROFILES = 2_048
"""Reduced profiles the LP takes: Kuhn poker's 1,728 take 0.03-0.3 s of CPU, a binary tree
of 11 levels (64 x 32 = 2,048) 4-5 s and of 12 levels (4,096) 35-50 s, its rows growing with
the profiles (tests/benchmarks/sequence_lp.py --correlated; docs/performance.md)."""


@dataclass(frozen=True)
class TreeCorrelatedOptimum:
    """The best device of ``kind`` found: its ``objective`` (the weighted payoffs; welfare by
    default), each player's expected ``payoffs``, and ``joint[s1, s2]`` over the reduced
    strategies named ``strategies`` (the reduced strategic form's)."""

    kind: str
    objective: float
    payoffs: tuple[float, float]
    joint: np.ndarray
    strategies: tuple[tuple[str, ...], tuple[str, ...]]
    seconds: float

    @property
    def welfare(self) -> float:
        return self.payoffs[0] + self.payoffs[1]


def best_correlated_tree(
    game: ExtensiveFormGame, kind: str = "EFCE", weights: tuple[float, float] = (1.0, 1.0)
) -> TreeCorrelatedOptimum:
    """The device of ``kind`` maximising ``weights . payoffs`` (module docstring); a
    :class:`ConfigError` for trees of other than two players or above :data:`MAX_PROFILES`."""
    from scipy import sparse
    from scipy.optimize import linprog

    if kind not in KINDS:
        raise ConfigError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if game.n_players != 2:
        raise ConfigError(f"the {kind} LP takes two-player trees; {game.title} has {game.n_players} players")
    started = time.perf_counter()
    form, strategies = reduced_form_with_strategies(game)
    shape = form.payoffs.shape[1:]
    if form.payoffs[0].size > MAX_PROFILES:
        raise ConfigError(
            f"the {kind} LP handles trees of up to {MAX_PROFILES:,} reduced profiles; "
            f"{game.title} has {shape[0]:,} x {shape[1]:,}"
        )
    scale = float(np.abs(form.payoffs).max()) or 1.0  # HiGHS works in [-1, 1]
    mu_rows, v_rows, n_v = _trigger_rows(game, strategies, kind, scale)
    n_mu = form.payoffs[0].size
    matrix = None
    if mu_rows:
        v_part = sparse.coo_matrix(
            ([c for _, _, c in v_rows], ([r for r, _, _ in v_rows], [k for _, k, _ in v_rows])),
            shape=(len(mu_rows), n_v),
        )
        matrix = sparse.hstack([sparse.csr_matrix(np.array(mu_rows)), v_part]).tocsr()
    welfare = (weights[0] * form.payoffs[0] + weights[1] * form.payoffs[1]).ravel() / scale
    cost = np.concatenate([-welfare, np.zeros(n_v)])
    equality = sparse.csr_matrix(np.concatenate([np.ones(n_mu), np.zeros(n_v)])[None, :])
    result = linprog(
        cost,
        A_ub=matrix,
        b_ub=None if matrix is None else np.zeros(matrix.shape[0]),
        A_eq=equality,
        b_eq=[1.0],
        bounds=[(0.0, None)] * n_mu + [(None, None)] * n_v,
        method="highs",
    )
    if not result.success:
        raise RmvizError(f"the {kind} linear programme failed: {result.message}")
    joint = np.maximum(result.x[:n_mu], 0.0)
    joint = (joint / joint.sum()).reshape(shape)
    payoffs = (float((joint * form.payoffs[0]).sum()), float((joint * form.payoffs[1]).sum()))
    names = (form.action_names[0], form.action_names[1])
    return TreeCorrelatedOptimum(
        kind, -float(result.fun) * scale, payoffs, joint, names, time.perf_counter() - started
    )


def _trigger_rows(
    game: ExtensiveFormGame, strategies: list[list[dict[str, str]]], kind: str, scale: float
) -> tuple[list[np.ndarray], list[tuple[int, int, float]], int]:
    """The incentive rows (``<= 0``) of every trigger: each row's coefficients on mu (over
    profiles, row-major), its ``(row, v index, coefficient)`` entries, and the count of v."""
    tree = compile_tree(game)
    passes = TreePasses(tree)
    terminals = passes.terminals
    chance = passes.reach(tree.chance_probability)[tree.n_players, terminals]
    last = passes.terminal_sequence  # (2, Z): each player's last slot before z, -1 if none
    parent_slot = passes.infoset_parent_sequence  # (I,)

    def agreement(i: int) -> np.ndarray:  # agree[s, z]: s makes i's moves on the way to z
        out = np.ones((len(strategies[i]), terminals.size))
        for z, slot in enumerate(last[i]):
            if slot >= 0:
                label, move = tree.infoset_label[tree.slot_infoset[slot]], tree.slot_move[slot]
                out[:, z] = [s.get(label) == move for s in strategies[i]]
        return out

    agree = [agreement(0), agreement(1)]

    def chain(infoset: int) -> list[int]:  # the infoset and its own ancestors
        found = [infoset]
        while parent_slot[found[-1]] >= 0:
            found.append(int(tree.slot_infoset[parent_slot[found[-1]]]))
        return found

    mu_rows: list[np.ndarray] = []
    v_rows: list[tuple[int, int, float]] = []
    n_v = 0
    for i in range(2):
        other = 1 - i
        weight = chance * tree.payoffs[i, terminals] / scale  # P_c(z) u_i(z)
        owned = np.flatnonzero(tree.infoset_player == i)
        ancestors = {int(j): chain(int(j)) for j in owned}
        ending = [int(tree.slot_infoset[s]) if s >= 0 else -1 for s in last[i]]
        for top in (int(j) for j in owned):
            below = [int(j) for j in owned if top in ancestors[int(j)]]  # own sets in I's subtree
            inside = np.array([e >= 0 and top in ancestors[e] for e in ending])
            label = tree.infoset_label[top]
            first, size = int(tree.infoset_first_slot[top]), int(tree.infoset_size[top])
            if kind == "EFCE":
                triggers = [
                    np.array([s.get(label) == tree.slot_move[a] for s in strategies[i]], float)
                    for a in range(first, first + size)
                ]
            else:
                triggers = [np.array([label in s for s in strategies[i]], float)]
            for trigger in triggers:  # each with its own v (its deviator's values)
                v_of = {j: n_v + k for k, j in enumerate(below)}
                n_v += len(below)
                for j in below:  # v_J >= c(J b) + sum v_J' below J b, for each move b
                    for slot in range(
                        int(tree.infoset_first_slot[j]),
                        int(tree.infoset_first_slot[j] + tree.infoset_size[j]),
                    ):
                        ends = last[i] == slot
                        others = agree[other][:, ends] @ weight[ends]  # per s_-i
                        mu_rows.append(_profile_row(i, trigger, others))
                        row = len(mu_rows) - 1
                        v_rows.append((row, v_of[j], -1.0))
                        for child in below:
                            if parent_slot[child] == slot:
                                v_rows.append((row, v_of[child], 1.0))
                # v_I <= following's value: sum_z [s agrees with z] P_c u_i over z below I
                follow = (agree[i][:, inside] * weight[inside]) @ agree[other][:, inside].T  # (S_i, S_-i)
                coefficients = -(trigger[:, None] * follow)
                mu_rows.append((coefficients if i == 0 else coefficients.T).ravel())
                v_rows.append((len(mu_rows) - 1, v_of[top], 1.0))
    return mu_rows, v_rows, n_v


def _profile_row(i: int, trigger: np.ndarray, others: np.ndarray) -> np.ndarray:
    """``trigger[s_i] * others[s_-i]`` over profiles (s_1, s_2), row-major."""
    block = np.outer(trigger, others)
    return (block if i == 0 else block.T).ravel()
