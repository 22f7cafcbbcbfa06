"""Built-in game trees: Kuhn poker, Leduc hold'em, the CFR lecture's teaching tree, von
Stengel & Forges' signalling game, and any normal-form game written as a tree. Their catalog
ids (``kuhn``, ``leduc``, ``teaching-tree``, ``signaling``) are in
:data:`rmviz.games.catalog.CATALOG`.
"""

from __future__ import annotations

from rmviz.games.extensive_form import ExtensiveFormGame, Node, chance, decision, terminal
from rmviz.games.normal_form import NormalFormGame

KUHN_CARDS = ("J", "Q", "K")  # as lectures write them, lowest first (Gambit and OpenSpiel: 0, 1, 2)


def kuhn_poker() -> ExtensiveFormGame:
    """Kuhn poker (Kuhn 1950): 3 cards, ante 1, one bet of 1; value -1/18 for player 1.

    Information sets are labelled as lectures write them: the card (J, Q, K; Gambit's
    ``kuhn_poker.efg`` and OpenSpiel write 0, 1, 2) followed by the moves so far (``p``
    pass, ``b`` bet), e.g. ``"Qpb"``.
    """

    def showdown(c1: str, c2: str, stake: float) -> Node:
        higher = KUHN_CARDS.index(c1) > KUHN_CARDS.index(c2)
        return terminal(stake, -stake) if higher else terminal(-stake, stake)

    def deal(c1: str, c2: str) -> Node:
        return decision(
            0,
            c1,
            [
                (
                    "p",
                    decision(
                        1,
                        c2 + "p",
                        [
                            ("p", showdown(c1, c2, 1)),
                            (
                                "b",
                                decision(
                                    0,
                                    c1 + "pb",
                                    [("p", terminal(-1, 1)), ("b", showdown(c1, c2, 2))],
                                ),
                            ),
                        ],
                    ),
                ),
                ("b", decision(1, c2 + "b", [("p", terminal(1, -1)), ("b", showdown(c1, c2, 2))])),
            ],
        )

    root = chance(
        [
            (c1, 1 / 3, chance([(c2, 1 / 2, deal(c1, c2)) for c2 in KUHN_CARDS if c2 != c1]))
            for c1 in KUHN_CARDS
        ]
    )
    return ExtensiveFormGame(
        root,
        ("Player 1", "Player 2"),
        "Kuhn poker",
        "3 cards, ante 1, bet 1; value -1/18 for the first player (Kuhn 1950)",
    )


LEDUC_CARDS = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")  # rank = index // 2, as OpenSpiel's


def leduc_poker() -> ExtensiveFormGame:
    """Leduc hold'em (Southey et al. 2005), as OpenSpiel's ``leduc_poker`` default.

    Six cards (J, Q, K in two suits), antes 1; each player gets a private card, a betting
    round, a public card, a second betting round. Moves: ``f`` fold (only facing a bet),
    ``c`` check/call, ``r`` raise by 2 (round 1) or 4 (round 2), at most two raises per
    round; player 1 opens each round. Showdown: a pair with the public card wins, else the
    higher rank; equal ranks split. Information sets: own card, then the public moves,
    e.g. ``"Qh:cr"`` or ``"Qh:rc/Ks:c"``. 9,457 histories, 468 information sets each.
    """

    def rank(card: int) -> int:
        return card // 2

    def showdown(cards: tuple[int, int], public: int, contributions: list[float]) -> Node:
        strength = [(rank(c) == rank(public), rank(c)) for c in cards]
        if strength[0] == strength[1]:
            return terminal(0.0, 0.0)
        winner = 0 if strength[0] > strength[1] else 1
        won = contributions[1 - winner]
        return terminal(won, -won) if winner == 0 else terminal(-won, won)

    def betting(
        cards: tuple[int, int],
        public: int | None,
        history: str,
        round_moves: str,
        contributions: list[float],
        raises: int,
    ) -> Node:
        player = len(round_moves) % 2
        raise_amount = 2.0 if public is None else 4.0
        facing = contributions[1 - player] - contributions[player]
        moves: list[tuple[str, Node]] = []
        label = f"{LEDUC_CARDS[cards[player]]}:{history}{round_moves}"
        if facing > 0:
            lost = contributions[player]
            moves.append(("f", terminal(-lost, lost) if player == 0 else terminal(lost, -lost)))
        called = list(contributions)
        called[player] = contributions[1 - player]
        if round_moves:  # a call (or a second check) closes the round
            moves.append(("c", after_round(cards, public, history + round_moves + "c", called)))
        else:
            moves.append(("c", betting(cards, public, history, round_moves + "c", called, raises)))
        if raises < 2:
            raised = list(called)
            raised[player] = called[player] + raise_amount
            moves.append(("r", betting(cards, public, history, round_moves + "r", raised, raises + 1)))
        return decision(player, label, moves)

    def after_round(
        cards: tuple[int, int], public: int | None, history: str, contributions: list[float]
    ) -> Node:
        if public is not None:
            return showdown(cards, public, contributions)
        remaining = [c for c in range(6) if c not in cards]
        return chance(
            [
                (
                    LEDUC_CARDS[c],
                    1 / len(remaining),
                    betting(cards, c, f"{history}/{LEDUC_CARDS[c]}:", "", contributions, 0),
                )
                for c in remaining
            ]
        )

    root = chance(
        [
            (
                LEDUC_CARDS[a],
                1 / 6,
                chance(
                    [
                        (LEDUC_CARDS[b], 1 / 5, betting((a, b), None, "", "", [1.0, 1.0], 0))
                        for b in range(6)
                        if b != a
                    ]
                ),
            )
            for a in range(6)
        ]
    )
    return ExtensiveFormGame(
        root,
        ("Player 1", "Player 2"),
        "Leduc hold'em",
        "6 cards, antes 1, raises 2 then 4, two raises per round (Southey et al. 2005)",
    )


def teaching_tree() -> ExtensiveFormGame:
    """The shape of the CFR lecture's motivating example (shared/seeds/cfr-lecture.md).

    Nature picks X or Y (1/2 each). Player 1 picks L or R without seeing Nature's move.
    Player 2 sees Nature's move but not player 1's: information sets {[X,L], [X,R]} with
    moves A/B and {[Y,L], [Y,R]} with moves C/D, each spanning two histories. Zero-sum, so
    player 2's best move on the X side depends on what it does on the Y side through
    player 1's choice. The payoffs are rmviz's own (the lecture's figure is not in text).
    """
    x_side = {("L", "A"): 1, ("L", "B"): -1, ("R", "A"): -1, ("R", "B"): 1}
    y_side = {("L", "C"): 2, ("L", "D"): 0, ("R", "C"): 0, ("R", "D"): 1}

    def after(nature: str, side: dict[tuple[str, str], int], moves: tuple[str, str]) -> Node:
        return decision(
            0,
            "1",
            [
                (
                    m1,
                    decision(
                        1,
                        f"2{nature}",
                        [(m2, terminal(side[m1, m2], -side[m1, m2])) for m2 in moves],
                    ),
                )
                for m1 in ("L", "R")
            ],
        )

    root = chance([("X", 0.5, after("X", x_side, ("A", "B"))), ("Y", 0.5, after("Y", y_side, ("C", "D")))])
    return ExtensiveFormGame(
        root,
        ("Player 1", "Player 2"),
        "Teaching tree",
        "Nature X/Y; player 1 L/R unseen; player 2 sees Nature only",
    )


def signaling_game() -> ExtensiveFormGame:
    """The signalling game of von Stengel & Forges (2008), Section 2.3, Figure 1.

    Chance makes player 1 good (G) or bad (B), 1/2 each; player 1 sends signal X or Y;
    player 2 sees the signal only and accepts (l) or refuses (r). Accepting pays (4, 10) with
    G and (6, 0) with B; refusing pays (0, 6). Player 2 accepts only when G has probability
    at least 3/5, which no Nash equilibrium can make happen on the path: every Nash
    equilibrium pays (0, 6), and so does the best correlated equilibrium of the reduced
    strategic form (welfare 6; its best coarse one reaches 10). An extensive-form correlated
    equilibrium pays (3.5, 6.5), welfare 10, the most any outcome gives: G's
    signal is X or Y with probability 1/2 each, B's independently so, and player 2 is told,
    at the signal it sees, to accept G's signal and refuse the other; B, told only its own
    signal, cannot tell which one is accepted (the same game as OpenSpiel's
    ``signaling_vonstengel_forges_2008.efg``).
    """

    def receiver(signal: str, good: bool) -> Node:
        accept = terminal(4, 10) if good else terminal(6, 0)
        return decision(1, signal, [("l", accept), ("r", terminal(0, 6))])

    def sender(kind: str, good: bool) -> Node:
        return decision(0, kind, [(signal, receiver(signal, good)) for signal in ("X", "Y")])

    return ExtensiveFormGame(
        chance([("g", 0.5, sender("G", True)), ("b", 0.5, sender("B", False))]),
        ("Sender", "Receiver"),
        "Signalling game (von Stengel & Forges 2008)",
        "every Nash equilibrium and the best CE pay (0, 6); an EFCE pays (3.5, 6.5)",
    )


def normal_form_tree(game: NormalFormGame) -> ExtensiveFormGame:
    """A normal-form game as a tree: players move in turn, each in one information set that
    spans all histories (nobody sees an earlier move), so the moves are simultaneous."""

    def node(player: int, profile: tuple[int, ...]) -> Node:
        if player == game.n_players:
            return terminal(*(float(u) for u in game.payoff_at(profile)))
        names = game.action_names[player]
        return decision(
            player,
            game.player_names[player],
            [(names[a], node(player + 1, (*profile, a))) for a in range(len(names))],
        )

    return ExtensiveFormGame(node(0, ()), game.player_names, f"{game.title} (as a tree)", game.description)
