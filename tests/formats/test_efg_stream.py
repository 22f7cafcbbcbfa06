""".efg files read as streams (rmviz.formats.efg.read_efg_file) read what the whole text reads.

The file comes a chunk at a time (``chunk_bytes``, here down to one byte): a record, a
quoted multi-line label, a UTF-8 character or the byte-order mark split between two chunks
must give the same game as the text read whole, without the whole-text fallback. Files the
stream cannot read go to the whole-text reader, so every refusal keeps its message and
line; a file too large for that is refused naming the line where streaming stopped.
"""

from __future__ import annotations

import glob

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rmviz.errors import Cancelled, ReadError
from rmviz.formats import efg, efg_records, read_efg, read_game_file, write_efg
from rmviz.formats.efg import read_efg_file
from rmviz.formats.files import read_text_file
from rmviz.games.trees import kuhn_poker, normal_form_tree
from tests.formats.strategies import game_trees, matrix_games, mutations
from tests.formats.test_efg_records import (
    assert_same_game,
    outcome,
    token_read,
    uses_fast_path,
    with_records_inside_labels,
)
from tests.solvers.tree.builders import binary_tree, hidden_chain

FILES = sorted(glob.glob("tests/data/**/*.efg", recursive=True))

# Records as Gambit allows them but rmviz does not write them: names and labels on several
# lines, escaped quotes, letters of several UTF-8 bytes (two, three and four), a chance node,
# an outcome above the leaves, records sharing a line or spread over lines, CRLF line ends.
SPLIT_ANYWHERE = (
    '\ufeffEFG 2 R "Spl\\"it é" { "Ann é" "Bob 日本" } "a comment\non two lines 🎲"\r\n'
    'c "chance\nroot" 1 "" { "é" 1/3 "日本" 2/3 } 0\r\n'
    '  p "Ann\'s\nfirst" 1 1 "I\\"1\n🎲" { "a é" "b\n日本" } 0\r\n'
    '    p "" 2 1 "J" { "x" "y" } 1 "above é" { 1, -1 }\r\n'
    '      t "léaf" 2 "" { 2.5 -2.5 } t "" 3 "🎲\n" { -1 1 }\r\n'
    '    p "" 2 1 0\r\n'
    '      t "" 2\r\n'
    '      t "" 4 "" { 0.125 -0.125 }\r\n'
    '  p "" 1 1 0\r\n'
    '    p\n"" 2 1 0 t "" 5 "" {\n3 -3\n} t "" 3\r\n'
    '    t "" 6 "" { 1e-3 -1e-3 }\r\n'
)


def write(tmp_path, text: str, name: str = "game.efg"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture
def no_fallback(monkeypatch):
    """Streaming must read the file: the whole-text reader would be a failure here."""

    def refuse(*args, **kwargs):
        raise AssertionError("the file was read again whole")

    monkeypatch.setattr(efg, "_read_whole", refuse)


def test_the_split_anywhere_file_is_one_the_fast_path_reads():
    text = SPLIT_ANYWHERE.removeprefix("\ufeff")
    assert uses_fast_path(text)
    assert_same_game(read_efg(text), token_read(text))


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 7, 11, 64, 1 << 22])
def test_records_split_anywhere_read_the_same(tmp_path, no_fallback, chunk):
    """Chunks of one byte split every record, string, letter and line end somewhere."""
    path = write(tmp_path, SPLIT_ANYWHERE)
    expected = read_efg(SPLIT_ANYWHERE.removeprefix("\ufeff"), str(path))
    assert_same_game(read_efg_file(path, chunk_bytes=chunk), expected)


@pytest.mark.parametrize(
    "game",
    [kuhn_poker(), hidden_chain(12), binary_tree(5), binary_tree(4, perfect=True)],
)
@pytest.mark.parametrize("chunk", [1, 4, 13, 1 << 22])
def test_written_trees_read_the_same_in_any_chunks(tmp_path, no_fallback, game, chunk):
    text = write_efg(game)
    assert_same_game(read_efg_file(write(tmp_path, text), chunk_bytes=chunk), read_efg(text))


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("chunk", [97, 4096])
def test_reference_files_read_the_same_in_chunks(no_fallback, path, chunk):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    assert_same_game(read_efg_file(path, chunk_bytes=chunk), read_efg(text))


def test_small_regions_after_other_spellings_read_the_same(tmp_path, no_fallback, monkeypatch):
    """A record the batches do not read (a chance node, other spacing) shrinks the next
    region; regions then grow back. Many such records among many ordinary ones."""
    monkeypatch.setattr(efg_records, "MIN_REGION", 64)
    lines = write_efg(binary_tree(7)).splitlines()
    for k in range(5, len(lines), 7):  # every 7th record spelled otherwise (two spaces)
        if lines[k].lstrip()[:1] in ("p", "t"):
            lines[k] = lines[k].replace('"" ', '""  ', 1)
    text = "\n".join(lines) + "\n"
    for chunk in (50, 1 << 22):
        assert_same_game(read_efg_file(write(tmp_path, text), chunk_bytes=chunk), read_efg(text))


def fuzz(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )


@fuzz(25)
@given(data=st.data())
def test_drawn_trees_read_the_same_in_any_chunks(tmp_path, data):
    tree = data.draw(st.one_of(game_trees(), matrix_games().map(normal_form_tree)))
    text = write_efg(tree)
    chunk = data.draw(st.integers(1, 40))
    whole: list[bool] = []
    saved = efg._read_whole
    efg._read_whole = lambda *args: whole.append(True) or saved(*args)  # type: ignore[assignment]
    try:
        streamed = read_efg_file(write(tmp_path, text), chunk_bytes=chunk)
    finally:
        efg._read_whole = saved
    assert_same_game(streamed, read_efg(text))
    assert not whole


@fuzz(40)
@given(data=st.data())
def test_mutated_files_read_as_streams_as_the_text_reads(tmp_path, data):
    streamed_as_whole(tmp_path, data)


@pytest.mark.slow
@fuzz(400)
@given(data=st.data())
def test_mutated_files_read_as_streams_as_the_text_reads_long(tmp_path, data):
    streamed_as_whole(tmp_path, data)


def streamed_as_whole(tmp_path, data: st.DataObject) -> None:
    """A mutated file read as a stream gives the same game, or the same one-line refusal,
    as its text read whole."""
    tree = data.draw(st.one_of(game_trees(), matrix_games().map(normal_form_tree)))
    text = data.draw(mutations(write_efg(tree)))
    path = write(tmp_path, text)
    chunk = data.draw(st.sampled_from([1, 3, 16, 1 << 22]))
    streamed, streamed_error = outcome(lambda _text, _name: read_efg_file(path, chunk_bytes=chunk), text)
    whole, whole_error = outcome(lambda _text, _name: read_efg(text, str(path)), text)
    assert streamed_error == whole_error
    if whole is not None:
        assert_same_game(streamed, whole)


@pytest.mark.parametrize(
    "text",
    [
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\np "" 1 1 "" { "b" } 0\nt "" 0\n',  # moves differ
        'EFG 2 R "t" { "A" } ""\np "" 2 1 "" { "a" } 0\nt "" 0\n',  # no player 2
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 1 "" { 1/0 }\n',  # zero denominator
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 0\nt "" 0\n',  # a node too many
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" "b" } 0\nt "" 0\n',  # a node missing
        'EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 7\n',  # outcome never defined
        'EFG 3 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\nt "" 0\n',  # version
        'EFG 2 R "t" { } ""\n',  # no players
        'EFG 2 R "t" { "A" } "never closed\n',
        "",
    ],
)
def test_refusals_keep_their_messages_and_lines(tmp_path, text):
    path = write(tmp_path, text, "x.efg")
    expected = outcome(lambda _text, _name: read_efg(text, str(path)), text)
    assert expected[1] is not None
    for chunk in (1, 5, 1 << 22):
        assert (
            outcome(lambda _text, _name, chunk=chunk: read_efg_file(path, chunk_bytes=chunk), text)
            == expected
        )


def test_a_file_that_is_not_utf8_keeps_its_message(tmp_path):
    path = tmp_path / "bad.efg"
    path.write_bytes(write_efg(kuhn_poker()).encode() + b"\xff")
    with pytest.raises(ReadError) as whole:
        read_text_file(path)
    with pytest.raises(ReadError, match="not a text file") as streamed:
        read_efg_file(path, chunk_bytes=7)
    assert str(streamed.value) == str(whole.value)


# -- files too large to read again whole --------------------------------------------------------------
@pytest.fixture
def small_limit(monkeypatch):
    """Files over 200 bytes count as too large to read whole."""
    monkeypatch.setattr(efg, "MAX_FILE_BYTES", 200)


def test_a_large_file_is_read_as_a_stream(tmp_path, small_limit, no_fallback):
    text = write_efg(binary_tree(5))
    assert len(text) > 200
    assert_same_game(read_game_file(write(tmp_path, text)), read_efg(text))


def test_a_large_file_with_a_mistake_names_the_line_where_streaming_stopped(tmp_path, small_limit):
    lines = write_efg(binary_tree(5)).splitlines()
    broken = next(k for k in range(20, len(lines)) if lines[k].lstrip().startswith("t "))
    lines[broken] = lines[broken].replace('t ""', 't "" x', 1)
    path = write(tmp_path, "\n".join(lines) + "\n")
    for chunk in (1, 9, 1 << 22):
        with pytest.raises(ReadError) as caught:
            read_efg_file(path, chunk_bytes=chunk)
        assert caught.value.line == broken + 1
        assert "is read in one pass" in caught.value.reason
    lines = write_efg(binary_tree(5)).splitlines()
    lines[0] = lines[0].replace("EFG 2", "EFG 3")
    with pytest.raises(ReadError, match=r"line 1: a \.efg file over 0 MB is read in one pass"):
        read_efg_file(write(tmp_path, "\n".join(lines) + "\n"))


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_large_file_that_is_not_utf8_names_the_byte(tmp_path, small_limit, bom):
    data = bom + write_efg(binary_tree(5)).encode()
    at = data.index(b'"a"', 300) + 1
    broken = data[:at] + b"\xe9" + data[at + 1 :]  # a Latin-1 letter where "a" was
    path = tmp_path / "latin1.efg"
    path.write_bytes(broken)
    for chunk in (1, 2, 64, 1 << 22):
        with pytest.raises(ReadError, match=rf"not a text file \(invalid continuation byte at byte {at}\)"):
            read_efg_file(path, chunk_bytes=chunk)


# -- memory, progress, long records -------------------------------------------------------------------
def test_a_tree_past_the_memory_limit_is_refused_where_reading_stopped(tmp_path, monkeypatch):
    path = write(tmp_path, write_efg(binary_tree(9)))
    limit = 300 * efg_records.BYTES_PER_HISTORY
    monkeypatch.setattr(efg, "_read_whole", None)  # not read again: that would need more
    with pytest.raises(ReadError, match="needs more memory than rmviz gives a file's tree") as caught:
        read_efg_file(path, chunk_bytes=1000, limit=limit)
    read = int(caught.value.reason.split("reading stopped after ")[1].split()[0])
    assert 250 < read <= 300 and caught.value.line == read + 3  # the last record read
    assert read_efg_file(path, limit=2000 * efg_records.BYTES_PER_HISTORY).n_nodes == 1023


def test_progress_is_reported_and_can_stop_the_stream(tmp_path, monkeypatch):
    monkeypatch.setattr(efg_records, "PROGRESS_EVERY", 100)
    path = write(tmp_path, write_efg(binary_tree(9)))
    counts: list[int] = []
    read_efg_file(path, lambda n: counts.append(n) or True, chunk_bytes=500)
    assert counts == list(range(100, 1024, 100))
    with pytest.raises(Cancelled, match="stopped after 300 histories"):
        read_efg_file(path, lambda n: n < 300, chunk_bytes=500)


def test_a_record_longer_than_the_stream_keeps_is_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(efg, "MAX_PENDING_CHARS", 40)
    text = SPLIT_ANYWHERE.replace('"J"', '"' + "J" * 100 + '"')
    read: list[bool] = []
    saved = efg._read_whole
    monkeypatch.setattr(efg, "_read_whole", lambda *args: read.append(True) or saved(*args))
    assert_same_game(
        read_efg_file(write(tmp_path, text), chunk_bytes=16), read_efg(text.removeprefix("\ufeff"))
    )
    assert read == [True]


@pytest.mark.parametrize("levels", [1, 2, 5, 8])
def test_the_benchmark_writes_binary_trees_as_write_efg_does(tmp_path, levels):
    """tests/benchmarks/tree_loading.py writes the 10^7-history files line by line."""
    from tests.benchmarks.tree_loading import write_binary_efg

    write_binary_efg(levels, str(tmp_path / "b.efg"))
    assert (tmp_path / "b.efg").read_text(encoding="utf-8") == write_efg(binary_tree(levels))


@pytest.mark.parametrize("chunk", [1, 7, 50, 1 << 22])
def test_labels_that_hold_records_read_the_same_in_chunks(tmp_path, no_fallback, chunk):
    text = with_records_inside_labels()
    assert_same_game(read_efg_file(write(tmp_path, text), chunk_bytes=chunk), read_efg(text))
