"""An exact referee of the correlation gaps (fractions), by their definitions.

The device is a list of (weight, behaviour profile per slot). Its distribution over reduced
pure profiles is enumerated (each player's reduced strategies, the product probabilities of
each weighted profile, summed). Each gap of player i is the value of i's best response in an
extended game minus the value of following: nature draws a pure profile from the device;
CCE: i commits to a plan before play, seeing nothing; EFCCE: at each information set reached
while following, i decides to follow (and plays the recommendation) or to deviate, before
seeing the recommendation; EFCE: i sees the recommendation at the set, then plays any move,
and a move other than the recommendation ends the recommendations (von Stengel & Forges
2008; Farina, Bianchi & Sandholm 2020; OpenSpiel's corr_dist). The best response is the
sequence-form one of the extended game, whose information sets are enumerated explicitly.
The normal-form CE gap lets i see the whole recommended reduced strategy.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import numpy as np

from rmviz.solvers.tree.compiled_tree import CompiledTree


class Referee:
    def __init__(self, tree: CompiledTree, payoffs: np.ndarray) -> None:
        """``payoffs``: ``(n, N)`` in payoff units (the solver's tree may be scaled)."""
        self.tree = tree
        self.n = tree.n_players
        self.u = [[Fraction(float(x)) for x in row] for row in payoffs]
        self.children = {
            h: list(range(int(tree.child_start[h]), int(tree.child_start[h] + tree.child_count[h])))
            for h in range(tree.n_nodes)
        }
        # each node's path: the (player, slot) moves to it, chance's probability
        self.path: dict[int, list[tuple[int, int]]] = {0: []}
        self.chance: dict[int, Fraction] = {0: Fraction(1)}
        parent_sequence: dict[int, int] = {}
        for h in range(1, tree.n_nodes):
            p = int(tree.parent[h])
            s = int(tree.edge_slot[h])
            self.path[h] = self.path[p] + ([(int(tree.edge_owner[h]), s)] if s >= 0 else [])
            self.chance[h] = self.chance[p] * (
                Fraction(float(tree.chance_probability[h])) if s < 0 else Fraction(1)
            )
        for h in range(tree.n_nodes):
            if tree.kind[h] == 1:
                own = [s for q, s in self.path[h] if q == tree.player[h]]
                parent_sequence[int(tree.node_infoset[h])] = own[-1] if own else -1
        self.terminals = [h for h in range(tree.n_nodes) if tree.kind[h] == 2]
        self.strategies = [self._reduced(i, parent_sequence) for i in range(self.n)]
        # agree[i][k]: the terminals whose path player i's plan k plays along (every own move in it)
        self.agree = [
            [frozenset(z for z in self.terminals if self._agrees(i, plan, z)) for plan in strategies]
            for i, strategies in enumerate(self.strategies)
        ]

    def _slots(self, info: int) -> range:
        first = int(self.tree.infoset_first_slot[info])
        return range(first, first + int(self.tree.infoset_size[info]))

    def _reduced(self, i: int, parent_sequence: dict[int, int]) -> list[frozenset[int]]:
        """Player i's reduced strategies as sets of slots."""
        after: dict[int, list[int]] = defaultdict(list)
        for info, seq in sorted(parent_sequence.items()):
            if self.tree.infoset_player[info] == i:
                after[seq].append(info)

        def below(sets: list[int]) -> list[frozenset[int]]:
            options = [
                [frozenset([s]) | rest for s in self._slots(j) for rest in below(after[s])] for j in sets
            ]
            return [frozenset().union(*combo) for combo in itertools.product(*options)]

        return below(after[-1])

    def _agrees(self, i: int, strategy: frozenset[int], z: int) -> bool:
        return all(s in strategy for q, s in self.path[z] if q == i)

    def distribution(self, device: list[tuple[float, np.ndarray]]) -> dict[tuple[int, ...], Fraction]:
        total = sum(Fraction(w) for w, _ in device)
        mu: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
        for w, sigma in device:
            probs = [Fraction(float(x)) for x in sigma]
            per_player = []
            for strategies in self.strategies:
                row = []
                for plan in strategies:
                    p = Fraction(1)
                    for s in plan:
                        p *= probs[s]
                    row.append(p)
                per_player.append(row)
            for profile in itertools.product(*(range(len(r)) for r in per_player)):
                p = Fraction(w) / total
                for i, k in enumerate(profile):
                    p *= per_player[i][k]
                if p:
                    mu[profile] += p
        return mu

    def gaps(self, device: list[tuple[float, np.ndarray]]) -> dict[str, list[Fraction]]:
        """Per notion (cce, efcce, efce, ce): every player's gap."""
        mu = self.distribution(device)
        out: dict[str, list[Fraction]] = {"cce": [], "efcce": [], "efce": [], "ce": []}
        for i in range(self.n):
            # R[k][z]: the probability that i is recommended plan k and the others and chance reach z
            reach: dict[int, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
            for profile, p in mu.items():
                others = [self.agree[j][k] for j, k in enumerate(profile) if j != i]
                for z in self.terminals:
                    if all(z in agreed for agreed in others):
                        reach[profile[i]][z] += p
            weight = {k: {z: r * self.chance[z] for z, r in row.items()} for k, row in reach.items()}
            # gains[k][z]: r u_i(z), what terminal z adds to a plan of i's that reaches it
            gains = {k: {z: r * self.u[i][z] for z, r in row.items()} for k, row in weight.items()}
            follow = sum(sum(g for z, g in gains[k].items() if z in self.agree[i][k]) for k in gains)
            for notion in ("cce", "efcce", "efce"):
                gain = self._best_response(i, weight, notion) - follow
                out[notion].append(max(gain, Fraction(0)) if notion == "cce" else gain)
            # normal-form CE: told plan k, i plays the best plan against what k's weight reaches
            out["ce"].append(
                sum(
                    max(sum(g for z, g in row.items() if z in agreed) for agreed in self.agree[i])
                    - sum(g for z, g in row.items() if z in self.agree[i][k])
                    for k, row in gains.items()
                )
            )
        return out

    def _best_response(self, i: int, weight: dict[int, dict[int, Fraction]], notion: str) -> Fraction:
        """Sequence-form best response of the extended game of ``notion`` for player i."""
        q: dict[object, Fraction] = defaultdict(Fraction)  # (infoset, action) or None -> sum
        parent: dict[object, object] = {}
        actions: dict[object, set[object]] = defaultdict(set)
        tree = self.tree
        for k, row in weight.items():
            plan = self.strategies[i][k]
            stack: list[tuple[int, object, object]] = [(0, ("F",) if notion != "cce" else ("D",), None)]
            while stack:
                h, state, last = stack.pop()
                if tree.kind[h] == 2:
                    q[last] += row.get(h, Fraction(0)) * self.u[i][h]
                    continue
                if tree.kind[h] != 1 or tree.player[h] != i:
                    stack.extend((c, state, last) for c in self.children[h])
                    continue
                info = int(tree.node_infoset[h])
                slot_child = {int(tree.edge_slot[c]): c for c in self.children[h]}
                rec = next(s for s in self._slots(info) if s in plan) if state[0] == "F" else None
                if state[0] == "D":
                    x: object = ("D", info, state[1:])
                    moves = [(s, s, state) for s in self._slots(info)]
                elif notion == "efce":
                    x = ("F", info, rec)
                    moves = [(s, s, state if s == rec else ("D", info, rec)) for s in self._slots(info)]
                else:  # efcce: follow, or deviate to a move before seeing the recommendation
                    x = ("F", info)
                    moves = [("follow", rec, state)] + [
                        (("dev", s), s, ("D", info)) for s in self._slots(info)
                    ]
                assert parent.setdefault(x, last) == last  # perfect recall of the extended game
                for action, s, after in moves:
                    actions[x].add(action)
                    stack.append((slot_child[s], after, (x, action)))
        children: dict[object, list[object]] = defaultdict(list)
        for x, p in parent.items():
            children[p].append(x)

        def value(x: object) -> Fraction:
            return max(q[(x, a)] + sum(value(y) for y in children[(x, a)]) for a in actions[x])

        return q[None] + sum(value(x) for x in children[None])
