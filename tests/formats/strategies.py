"""Hypothesis strategies: valid games, their files, and hostile mutations of those files.

Used by the fuzzer (tests/formats/test_fuzz.py) and the round-trip properties. The names drawn
for Gambit files are the labels Gambit 16 accepts (printable ASCII, single inner spaces, no
backslash before a quote); JSON files get any text.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from rmviz.games.extensive_form import CHANCE, DECISION, TERMINAL, ExtensiveFormGame, Node
from rmviz.games.normal_form import NormalFormGame

GAMBIT_CHARACTERS = st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="\\")
gambit_labels = st.lists(st.text(GAMBIT_CHARACTERS, min_size=1, max_size=4), min_size=1, max_size=2).map(
    " ".join
)
any_labels = st.text(min_size=1, max_size=6)

# payoffs as a lecture writes them (small integers, halves) and as a random game has them
payoffs = st.one_of(
    st.integers(-20, 20).map(float),
    st.fractions(min_value=-10, max_value=10, max_denominator=8).map(float),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
)


@st.composite
def matrix_games(draw: st.DrawFn, labels: st.SearchStrategy[str] = gambit_labels) -> NormalFormGame:
    n = draw(st.integers(2, 3))
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)))
    values = draw(st.lists(payoffs, min_size=n * int(np.prod(shape)), max_size=n * int(np.prod(shape))))
    players = draw(st.lists(labels, min_size=n, max_size=n, unique=True))
    actions = tuple(tuple(draw(st.lists(labels, min_size=k, max_size=k, unique=True))) for k in shape)
    title = draw(labels)
    return NormalFormGame(np.array(values).reshape((n, *shape)), tuple(players), actions, title)


@st.composite
def game_trees(draw: st.DrawFn, labels: st.SearchStrategy[str] = gambit_labels) -> ExtensiveFormGame:
    """A tree of at most ~30 nodes with chance and perfect-recall information sets (each
    decision node its own set, or sharing one with a sibling subtree's node of the same
    player and own history)."""
    n = draw(st.integers(1, 3))
    players = tuple(draw(st.lists(labels, min_size=n, max_size=n, unique=True)))
    budget = [draw(st.integers(1, 12))]
    counter = [0]

    def build(depth: int) -> Node:
        if depth >= 4 or budget[0] <= 0 or (depth > 0 and draw(st.booleans())):
            return Node(TERMINAL, payoffs=tuple(draw(st.lists(payoffs, min_size=n, max_size=n))))
        budget[0] -= 1
        k = draw(st.integers(1, 3))
        moves = tuple(draw(st.lists(labels, min_size=k, max_size=k, unique=True)))
        children = tuple(build(depth + 1) for _ in range(k))
        if draw(st.integers(0, 3)) == 0:
            weights = [Fraction(draw(st.integers(1, 5))) for _ in range(k)]
            total = sum(weights)
            probabilities = tuple(float(w / total) for w in weights)
            probabilities = (*probabilities[:-1], 1.0 - sum(probabilities[:-1]))
            return Node(CHANCE, moves, children, probabilities=probabilities)
        counter[0] += 1
        return Node(DECISION, moves, children, player=draw(st.integers(0, n - 1)), infoset=f"i{counter[0]}")

    root = build(0)
    if root.kind == TERMINAL or not any(node.kind == DECISION for _, node in root.walk()):
        root = Node(DECISION, ("only",), (root,), player=0, infoset="root")
    return ExtensiveFormGame(root, players, draw(labels))


HOSTILE_WORDS = [
    "1/0",
    "1e400",
    "-1e400",
    "1e999999999",
    "1e-999999999",
    "9" * 5000,
    "1" + "0" * 400,
    "NaN",
    "Infinity",
    "-0",
    "1.7e308",
    "0x10",
    "1_000",
    "١٢",
    '"',
    "\\",
    "{",
    "}",
    ",",
    "[",
    "]",
    "null",
    "true",
    "\x00",
    "\n",
    "99999999999999999999",
    "-1",
    "0",
]


def mutate(text: str, rng: random.Random) -> str:
    """``text`` after one to four edits of the kinds a disk, a network or a person makes:
    truncation, a flipped character, a deleted or duplicated span, a hostile word inserted
    or swapped for a token."""
    for _ in range(rng.randint(1, 4)):
        if not text:
            break
        at = rng.randrange(len(text))
        end = min(len(text), at + rng.randint(1, 40))
        kind = rng.choice(["truncate", "flip", "delete", "duplicate", "insert", "replace"])
        if kind == "truncate":
            text = text[:at]
        elif kind == "flip":
            text = text[:at] + rng.choice('0123456789-+./eE"{}[],:\\ \n\tx\x00é') + text[at + 1 :]
        elif kind == "delete":
            text = text[:at] + text[end:]
        elif kind == "duplicate":
            text = text[:end] + text[at:end] * rng.randint(1, 50) + text[end:]
        else:
            word = rng.choice(HOSTILE_WORDS)
            start = at  # the run of non-space characters at the position: a "token"
            while start > 0 and not text[start - 1].isspace():
                start -= 1
            stop = at
            while stop < len(text) and not text[stop].isspace():
                stop += 1
            text = text[:start] + word + (text[stop:] if kind == "replace" else " " + text[start:])
    return text


@st.composite
def mutations(draw: st.DrawFn, text: str) -> str:
    """:func:`mutate` driven by Hypothesis (so failures shrink and replay)."""
    return mutate(text, draw(st.randoms(use_true_random=False)))
