"""The progress line of slow loads (rmviz.loading): live on a terminal after a second, one
final line on a file or pipe for loads over a second, nothing for quick loads."""

from __future__ import annotations

import io

import pytest

from rmviz.cli import main
from rmviz.formats import efg_records, write_game_file
from rmviz.games.trees import kuhn_poker, leduc_poker
from rmviz.loading import LoadProgress, load_with_progress
from tests.clock import Clock


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_live_line_after_a_second_then_the_final_count():
    stream, clock = Terminal(), Clock()
    progress = LoadProgress("big.efg", stream, clock)
    progress(1000)
    assert stream.getvalue() == ""  # the first second is quiet
    clock.now = 1.5
    assert progress(65_536) is True
    clock.now = 1.55
    progress(131_072)  # too soon to redraw
    clock.now = 2.0
    progress(196_608)
    progress.done(leduc_poker())
    text = stream.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n") and text.count("\n") == 1
    assert "65,536 histories, 1.5 s" in text and "131,072" not in text
    assert text.rsplit("\r", 1)[1].startswith("loading big.efg: 9,457 histories in 2.0 s")


def test_a_pipe_gets_one_plain_line_for_a_slow_load_and_nothing_for_a_quick_one():
    stream, clock = io.StringIO(), Clock()
    progress = LoadProgress("big.efg", stream, clock)
    clock.now = 3.0
    progress(500_000)
    progress.done(leduc_poker())
    assert stream.getvalue() == "loading big.efg: 9,457 histories in 3.0 s\n"
    quick = io.StringIO()
    LoadProgress("small.efg", quick, Clock()).done(leduc_poker())
    assert quick.getvalue() == ""


def test_a_failed_load_ends_the_live_line():
    stream, clock = Terminal(), Clock()
    progress = LoadProgress("bad.efg", stream, clock)
    clock.now = 2.0
    progress(10)
    progress.failed()
    assert stream.getvalue().endswith("\n")


def test_the_cli_reads_files_through_the_progress_line(tmp_path, monkeypatch, capsys):
    path = tmp_path / "leduc.efg"
    write_game_file(leduc_poker(), path)
    monkeypatch.setattr(efg_records, "PROGRESS_EVERY", 1000)
    monkeypatch.setattr("rmviz.loading.QUIET_SECONDS", 0.0)  # as if the machine were slow
    assert main(["solve", str(path), "-n", "1"]) == 0
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"loading {path}: 9,457 histories in " + err.split(" in ")[-1].strip()
    ]


def test_quick_loads_print_nothing(tmp_path, capsys):
    path = tmp_path / "kuhn.efg"
    write_game_file(kuhn_poker(), path)
    stream = io.StringIO()
    game = load_with_progress(str(path), stream)
    assert game.n_nodes == 58 and stream.getvalue() == ""


def test_errors_still_reach_the_cli_as_one_line(tmp_path, capsys):
    path = tmp_path / "bad.efg"
    path.write_text('EFG 2 R "t" { "A" } ""\np "" 1 1 "" { "a" } 0\n')
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "bad.efg" in err


@pytest.mark.parametrize("spec", ["kuhn", "random:zero-sum:3x3:seed=1"])
def test_games_that_are_not_trees_load_as_before(spec):
    assert load_with_progress(spec, io.StringIO()) is not None
