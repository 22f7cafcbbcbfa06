"""The fast .efg path (rmviz.formats.efg_records) reads exactly what the token reader reads.

For valid files (written by rmviz, by OpenSpiel's exporter, Gambit's reference games) the
fast path must be the one used, and build the same game: same information sets, labels,
moves, names, and the same compiled arrays as the token reader's tree compiled the old way.
For hostile files (the fuzzer's mutations) both paths must agree: the same game, or the same
one-line refusal (the fast path hands every file it does not read to the token reader).
"""

from __future__ import annotations

import glob

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rmviz.errors import Cancelled, ReadError
from rmviz.formats import efg, efg_records, read_efg, write_efg
from rmviz.games.trees import kuhn_poker, leduc_poker, normal_form_tree
from rmviz.solvers.tree.compiled_tree import compile_tree
from tests.formats.strategies import game_trees, matrix_games, mutations
from tests.games.test_flat_tree import same_nodes
from tests.solvers.tree.builders import binary_tree, hidden_chain
from tests.solvers.tree.compare import assert_same_compiled
from tests.solvers.tree.reference_compile import reference_compile_tree

FILES = sorted(glob.glob("tests/data/**/*.efg", recursive=True))


def token_read(text: str, name: str = "x.efg"):
    """read_efg with the fast path switched off: the token reader alone."""
    saved = efg.read_records
    efg.read_records = lambda *args, **kwargs: None
    try:
        return read_efg(text, name)
    finally:
        efg.read_records = saved


def outcome(reader, text: str):
    try:
        return reader(text, "x.efg"), None
    except ReadError as error:
        return None, str(error)


def assert_same_game(fast, slow) -> None:
    assert fast.infosets == slow.infosets
    assert fast.infoset_moves == slow.infoset_moves
    assert (fast.player_names, fast.title, fast.description) == (
        slow.player_names,
        slow.title,
        slow.description,
    )
    assert_same_compiled(compile_tree(fast), reference_compile_tree(slow))
    assert same_nodes(fast.root, slow.root)  # node names, labels, payoffs, probabilities


def uses_fast_path(text: str) -> bool:
    seen = []
    saved = efg.read_records

    def spy(*args, **kwargs):
        result = saved(*args, **kwargs)
        seen.append(result is not None)
        return result

    efg.read_records = spy
    try:
        read_efg(text)
    finally:
        efg.read_records = saved
    return seen == [True]


@pytest.mark.parametrize("path", FILES)
def test_reference_files_take_the_fast_path_and_build_the_same_game(path):
    text = open(path, encoding="utf-8").read()
    assert uses_fast_path(text)
    assert_same_game(read_efg(text), token_read(text))


@pytest.mark.parametrize(
    "game",
    [
        kuhn_poker(),
        pytest.param(leduc_poker(), marks=pytest.mark.slow),  # ~2 s: the old path compiles it too
        hidden_chain(40),
        binary_tree(6),
        binary_tree(5, perfect=True),
    ],
)
def test_written_trees_take_the_fast_path_and_build_the_same_game(game):
    text = write_efg(game)
    assert uses_fast_path(text)
    fast = read_efg(text)
    assert fast._root is None  # no node objects until something asks for them
    assert_same_game(fast, token_read(text))


def test_gambit_spellings_read_fast_the_same():
    """Commas, rationals, outcomes above the leaves, unnamed sets, escapes, no spaces."""
    text = r"""EFG 2 R "t" { "A" "B" } "c"
c "" 1 "" { "x" 1/3, "y" 0.6666666666666666 } 1 "o" { 1, -1 }
p"n\"q"1 1"s"{"a""b"}0
t "" 2 "" { 1/2 -0 }
t "" 3 "" { , 2 , -2, }
p "" 1 2 "" { "a" "a" } 0
p "" 2 1 "" { "u" } 4 "w" { 1e2 -1e-2 }
t "end" 2
t "" 0
"""
    assert uses_fast_path(text)
    assert_same_game(read_efg(text), token_read(text))


@pytest.mark.parametrize(
    "text",
    [
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\np "" 1 1 "" { "b" } 0\nt "" 0\n',  # moves differ
        'EFG 2 R "t" { "A" } ""\np "" 2 1 "" { "a" } 0\nt "" 0\n',  # no player 2
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 1 "" { 1/0 }\n',  # zero denominator
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 1 "" { 1e999 }\n',  # out of range
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 1 "" { inf }\n',  # not a number
        'EFG 2 R "t" { "A" } ""\nc "" 1 "" { "a" 1/2 } 0\nt "" 0\n',  # probabilities sum to 1/2
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 0\nt "" 0\n',  # a node too many
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" "b" } 0\nt "" 0\n',  # a node missing
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 7\n',  # outcome never defined
        'EFG 2 R "t" { "A" } ""\nc "" 1 "" { "a" 1 } 0\nt "" 0\n',  # no decision
    ],
)
def test_refusals_are_the_token_readers(text):
    fast, message = outcome(read_efg, text)
    assert fast is None and message == outcome(token_read, text)[1]


def fuzz(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@fuzz(15)
@given(data=st.data())
def test_mutated_files_read_the_same_both_ways(data):
    both_ways(data)


@pytest.mark.slow
@fuzz(600)
@given(data=st.data())
def test_mutated_files_read_the_same_both_ways_long(data):
    both_ways(data)


def both_ways(data: st.DataObject) -> None:
    tree = data.draw(st.one_of(game_trees(), matrix_games().map(normal_form_tree)))
    text = data.draw(mutations(write_efg(tree)))
    fast, fast_error = outcome(read_efg, text)
    slow, slow_error = outcome(token_read, text)
    assert fast_error == slow_error
    if slow is not None:
        assert_same_game(fast, slow)


def test_progress_is_reported_and_can_stop_the_reading(monkeypatch):
    monkeypatch.setattr(efg_records, "PROGRESS_EVERY", 100)
    text = write_efg(leduc_poker())
    counts: list[int] = []
    read_efg(text, progress=lambda n: counts.append(n) or True)
    assert counts and counts == sorted(counts) and counts[0] == 100
    with pytest.raises(Cancelled):
        read_efg(text, progress=lambda n: n < 1000)


def test_a_tree_past_the_memory_limit_is_refused(monkeypatch):
    """Not read token by token either (that would need more): a one-line refusal."""
    monkeypatch.setattr(efg_records, "memory_limit", lambda: 100 * efg_records.BYTES_PER_HISTORY)
    monkeypatch.setattr(efg, "_TreeReader", None)
    with pytest.raises(
        ReadError, match=r"^big\.efg: the tree needs more memory .* stopped after [\d,]+ histories"
    ):
        read_efg(write_efg(binary_tree(9)), "big.efg")


def test_records_of_other_spellings_among_batches_read_the_same(monkeypatch):
    """A record the batches do not read (a chance node, other spacing) is read alone and
    makes the next region small; regions then grow again."""
    monkeypatch.setattr(efg_records, "MIN_REGION", 64)
    lines = write_efg(binary_tree(7)).splitlines()
    for k in range(5, len(lines), 7):  # every 7th record spelled otherwise (two spaces)
        lines[k] = lines[k].replace('"" ', '""  ', 1)
    text = "\n".join(lines) + "\n"
    assert uses_fast_path(text)
    assert_same_game(read_efg(text), token_read(text))


def with_records_inside_labels(levels: int = 6) -> str:
    """A binary tree's file where some decisions above the leaves are chance nodes whose
    name and set name, read from inside, spell a record of the batches' spelling: a split
    of the text finds ``p " 1 " 2 3 4`` there (player 2, set 3, outcome 4)."""
    lines = write_efg(binary_tree(levels)).splitlines()
    changed = 0
    for k in range(8, len(lines) - 1, 9):
        if (
            lines[k].lstrip().startswith("p ")
            and "{" not in lines[k]
            and lines[k + 1].lstrip().startswith("t ")
        ):
            indent = lines[k][: len(lines[k]) - len(lines[k].lstrip())]
            lines[k] = indent + 'c "p " 9 " 2 3 4 x" { "a" 1/2 "b" 1/2 } 0'
            changed += 1
    assert changed >= 3
    return "\n".join(lines) + "\n"


def test_labels_that_hold_records_read_the_same():
    """The text before such a record is not whole records: the region stops there and the
    chance node is read from the full text."""
    text = with_records_inside_labels()
    assert uses_fast_path(text)
    assert_same_game(read_efg(text), token_read(text))
