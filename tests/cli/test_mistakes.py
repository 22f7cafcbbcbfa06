"""Every mistake a person can make on the command line: one line on stderr, exit status 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rmviz.cli import main

MISTAKES = {
    "solve rps -n -5": "argument --iterations/-n: -5 must be at least 1",
    "solve rps -n 0": "argument --iterations/-n: 0 must be at least 1",
    "solve rps -n 100000000000000000000000": "is more than 2^53 iterations",
    "solve rps --every 0": "argument --every: 0 must be at least 1",
    "solve rps --device tpu": "argument --device: invalid choice: 'tpu'",
    "solve": "the following arguments are required: game",
    "solve rps --seed -1": "argument --seed: -1 is not a seed from 0 to 2^63-1",
    "solve rps --seed 99999999999999999999999": "is not a seed",
    "solve random:zero-sum:" + "9" * 400 + "x2": "at most 9 digits each",
    "solve random:zero-sum:3x3:seed=-4": "seeds are whole numbers from 0",
    "bench --seconds nan": "argument --seconds: nan is not a finite number",
    "bench --seconds -1": "must be positive",
    "bench --sizes 100,x": "comma-separated sizes of at least 2",
    "solve rps --threads 0": "argument --threads: 0 must be at least 1",
    "solve rps --dtype float16": "argument --dtype: invalid choice: 'float16'",
    "solve rps -a discounted-rm --alpha nan": "alpha must be a finite number",
    "solve rps -a greedy-rm --floor -1": "floor",
    "solve rps -a nosuch": "unknown algorithm 'nosuch'",
    "solve rps --fix 3=0.5,0.5": "players are numbered 1 to 2",
    "solve rps --fix 1=nan,0,0": "must be non-negative numbers",
    "solve rps --fix 1=a,b": "write PLAYER=P1,P2,...",
    "solve rps --trace /nonexistent/dir/t.csv": "cannot write (No such file or directory)",
    "solve rps --trace t.xlsx": "write a .csv or a .json file",
    "solve kuhn -a rm": "'rm' solves matrix games",
    "solve nosuchgame": "'nosuchgame' is not a catalog game",
    "solve /etc/passwd/x.nfg": "cannot read (Not a directory)",
    "convert rps /nonexistent/x.nfg": "cannot write (No such file or directory)",
    "convert rps out.txt": "cannot write '.txt'",
    "convert kuhn out.nfg": "game trees are written as Gambit .efg or rmviz .json",
    "export rps --figure nosuch --out x.png": "argument --figure: invalid choice",
    "export rps --out x.png --size 0x0": "width and height must be 16 to 16000 pixels",
    "solve reduced:rps": "the reduced strategic form is of a game tree",
    "solve random:nosuch:3x3": "unknown random game kind 'nosuch'",
}


@pytest.mark.parametrize("command", MISTAKES, ids=list(MISTAKES))
def test_a_mistake_is_one_line_and_exit_2(command, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        status = main(command.split())
    except SystemExit as exit_:
        status = exit_.code
    error = capsys.readouterr().err
    assert status == 2, error
    assert error.count("\n") == 1 and error.startswith("rmviz"), error
    assert MISTAKES[command] in error


def test_the_installed_command_exits_2_on_an_argparse_error():
    result = subprocess.run(
        [sys.executable, "-m", "rmviz.cli", "solve", "rps", "-n", "-5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "rmviz solve: argument --iterations/-n: -5 must be at least 1 (see rmviz solve --help)"
    ]


LONG_INPUTS = {
    "a 400-digit game": ["solve", "9" * 400],
    "a 300-character float": ["solve", "rps", "--alpha", "x" * 300],
    "a long random seed": ["solve", "random:zero-sum:3x3:seed=" + "a" * 300],
    "a long start": ["solve", "rps", "--start", "1=" + "x" * 300],
}


@pytest.mark.parametrize("argv", LONG_INPUTS.values(), ids=list(LONG_INPUTS))
def test_a_refusal_quotes_a_long_input_briefly(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code
    error = capsys.readouterr().err
    assert status == 2 and error.count("\n") == 1
    assert len(error) < 300 and " characters)" in error, error


def test_a_game_larger_than_half_the_memory_available_is_refused_before_it_is_drawn(monkeypatch, capsys):
    """The fixed 2 GiB budget passed games the machine could not hold (a MemoryError, issue
    33): sizes are compared with the memory available now."""
    monkeypatch.setattr("rmviz.games.normal_form.available_memory", lambda: 2**30)
    assert main(["solve", "random:zero-sum:3x33333333"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "needs 1.5 GiB of payoffs and 1.0 GiB of memory is available" in error
    monkeypatch.setattr("rmviz.games.normal_form.available_memory", lambda: None)  # not said: 2 GiB
    assert main(["solve", "random:zero-sum:3x3", "-n", "5"]) == 0
