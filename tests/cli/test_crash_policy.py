"""One top-level policy for what reaches the command line (issue 33): rmviz's errors, memory
and the machine's failures are one line and exit 2; an interrupt 130; any other exception
(a bug) one line naming a log file with the traceback, exit 70."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rmviz import cli, crash


def test_a_bug_is_one_line_and_a_log_with_the_traceback(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(crash, "log_folder", lambda: tmp_path / "logs")
    monkeypatch.setattr(cli, "cmd_games", lambda out: 1 / 0)
    assert cli.main(["games"]) == crash.EXIT_BUG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        "rmviz: internal error (ZeroDivisionError: division by zero)"
    )
    (log,) = (tmp_path / "logs").iterdir()
    assert str(log) in err
    text = log.read_text()
    assert text.startswith("rmviz games") and "Traceback" in text and "ZeroDivisionError" in text


def test_running_out_of_memory_is_one_line(monkeypatch, capsys):
    def exhausted(out):
        raise MemoryError

    monkeypatch.setattr(cli, "cmd_games", exhausted)
    assert cli.main(["games"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rmviz: out of memory")
    if crash.available_memory() is not None:
        assert "GiB available" in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_under_standard_output_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rmviz.cli", "solve", "rps", "-n", "10"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 2
    assert done.stderr == "rmviz: cannot write the output (No space left on device)\n"


def test_a_closed_standard_output_is_one_line():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys; os.close(1); from rmviz.cli import main; sys.exit(main(['games']))",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("rmviz:")


@pytest.mark.parametrize(
    ("word", "option"),
    [
        ("--seed=--", "--seed"),
        ("--iterations=--", "--iterations/-n"),
        ("-n=--", "--iterations/-n"),
        ("-n--", "--iterations/-n"),
        ("--fix=--", "--fix"),
        ("-a=--", "--algorithm/-a"),
    ],
)
def test_an_option_given_the_end_of_options_marker_is_refused(word, option, capsys):
    """In every spelling: long or short, with ``=`` or attached (the short forms once ended in
    a TypeError, exit 70)."""
    with pytest.raises(SystemExit) as done:
        cli.main(["solve", "rps", word])
    assert done.value.code == 2
    assert f"argument {option}: expected one argument, not '--'" in capsys.readouterr().err


def test_library_warnings_do_not_surround_the_one_line():
    """NumPy's and matplotlib's warnings are for programmers: the command line prints its one
    line alone (``python -W default -m rmviz ...`` shows them). In a process of its own: pytest
    records warnings itself."""
    script = """
import sys, warnings
import numpy as np
from rmviz import cli
from rmviz.errors import RmvizError
def noisy(out):
    np.float64(1e308) * 10  # RuntimeWarning: overflow
    warnings.warn("a library's deprecation", UserWarning, stacklevel=1)
    raise RmvizError("the one line")
cli.cmd_games = noisy
sys.exit(cli.main(["games"]))
"""
    quiet = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert (quiet.returncode, quiet.stderr) == (2, "rmviz: the one line\n")
    shown = subprocess.run(
        [sys.executable, "-W", "default", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert "overflow" in shown.stderr and shown.stderr.endswith("rmviz: the one line\n")
