"""A referee: CFR and CFR+ in exact rational arithmetic (Fractions), written from the
definitions (Zinkevich et al. 2007; Tammelin 2014), independent of rmviz's solvers.

Alternating updates, as rmviz's ``cfr``/``cfr+`` presets and OpenSpiel's CFRSolver: each
iteration traverses player 0, updates its regrets, strategy sums and strategy, then player 1
against player 0's new strategy, and so on. For small games only (a few thousand histories).
"""

from __future__ import annotations

from fractions import Fraction

from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame, Node


def _fraction(x: float) -> Fraction:
    """A chance probability or payoff as the rational it stands for (0.3333333333333333 -> 1/3)."""
    return Fraction(x).limit_denominator(10**9)


class ExactCFR:
    """``step()`` runs one iteration; ``average()`` and ``current()`` are
    ``{(player, infoset label): {move: Fraction}}``."""

    def __init__(self, game: ExtensiveFormGame, plus: bool = False) -> None:
        self.game, self.plus, self.t = game, plus, 0
        self.moves = dict(game.infoset_moves)
        self.strategy = {key: {m: Fraction(1, len(ms)) for m in ms} for key, ms in self.moves.items()}
        self.regret = {key: dict.fromkeys(ms, Fraction(0)) for key, ms in self.moves.items()}
        self.total = {key: dict.fromkeys(ms, Fraction(0)) for key, ms in self.moves.items()}

    def _walk(self, node: Node, player: int, others: Fraction, own: Fraction, cfv, own_reach) -> Fraction:
        """``v_player(h)``, adding ``pi_-i(h) v(ha)`` to ``cfv`` at the player's infosets."""
        if node.kind == TERMINAL:
            return _fraction(node.payoffs[player])
        if node.kind == CHANCE:
            return sum(
                (
                    _fraction(p) * self._walk(child, player, others * _fraction(p), own, cfv, own_reach)
                    for p, child in zip(node.probabilities, node.children, strict=True)
                ),
                Fraction(0),
            )
        assert node.kind == DECISION
        key = (node.player, node.infoset)
        sigma = self.strategy[key]
        value = Fraction(0)
        for move, child in zip(node.moves, node.children, strict=True):
            if node.player == player:
                child_value = self._walk(child, player, others, own * sigma[move], cfv, own_reach)
                cfv.setdefault(key, dict.fromkeys(node.moves, Fraction(0)))[move] += others * child_value
                own_reach[key] = own
            else:
                child_value = self._walk(child, player, others * sigma[move], own, cfv, own_reach)
            value += sigma[move] * child_value
        return value

    def step(self) -> None:
        self.t += 1
        weight = Fraction(self.t) if self.plus else Fraction(1)  # CFR+: linear averaging
        for player in range(self.game.n_players):
            cfv: dict = {}
            own_reach: dict = {}
            self._walk(self.game.root, player, Fraction(1), Fraction(1), cfv, own_reach)
            for key, values in cfv.items():
                sigma = self.strategy[key]
                value = sum((sigma[m] * values[m] for m in values), Fraction(0))
                for m in values:
                    updated = self.regret[key][m] + values[m] - value
                    self.regret[key][m] = max(updated, Fraction(0)) if self.plus else updated
                    self.total[key][m] += weight * own_reach[key] * sigma[m]
            for key in cfv:
                positive = {m: max(r, Fraction(0)) for m, r in self.regret[key].items()}
                mass = sum(positive.values(), Fraction(0))
                n = len(positive)
                self.strategy[key] = {
                    m: (p / mass if mass > 0 else Fraction(1, n)) for m, p in positive.items()
                }

    def current(self) -> dict:
        return self.strategy

    def average(self) -> dict:
        out = {}
        for key, totals in self.total.items():
            mass = sum(totals.values(), Fraction(0))
            n = len(totals)
            out[key] = {m: (x / mass if mass > 0 else Fraction(1, n)) for m, x in totals.items()}
        return out
