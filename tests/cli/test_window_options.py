"""Plain ``rmviz [GAME] [window options]``: a bad option is one line on stderr and exit status
2, before any solving or window (like the subcommands), and loses nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rmviz.cli import main
from rmviz.solvers.registry import MATRIX, TREE
from rmviz.ui.app import WINDOW_OPTIONS
from rmviz.ui.options import DEFAULT_AFTER, MAX_AFTER, MAX_STEPS, family_problem, parse_window_args


def one_line_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert err.startswith("rmviz: ") and err.count("\n") == 1, err
    assert "Traceback" not in err + out and "usage:" not in err
    return err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rps", "--after", "nan", "--screenshot", "{tmp}/a.png"], "nan is not a finite number"),
        (["rps", "--after", "inf", "--screenshot", "{tmp}/a.png"], "inf is not a finite number"),
        (["rps", "--after", "3000000", "--screenshot", "{tmp}/a.png"], "seconds must be from 0 to 3600"),
        (["rps", "--after", "-1", "--screenshot", "{tmp}/a.png"], "seconds must be from 0 to 3600"),
        (["rps", "--after", "soon", "--screenshot", "{tmp}/a.png"], "'soon' is not a number"),
        (["rps", "--after", "1"], "--after counts the seconds before --screenshot FILE or --export"),
        (["rps", "--screenshot", "{tmp}/no-such-folder/a.png", "--after", "0"], "no folder"),
        (["rps", "--screenshot", "{tmp}/a.gif"], "the window is saved as .png"),
        (["rps", "--screenshot", "{tmp}"], "the window is saved as .png"),
        (["rps", "--screenshot", "{tmp}/folder.png"], "it is a folder"),
        (["kuhn", "--steps", "-3"], "recorded iterations must be from 0 to 100"),
        (["kuhn", "--steps", "101"], "recorded iterations must be from 0 to 100"),
        (["kuhn", "--steps", "two"], "'two' is not a whole number"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["rps", "--size", "abc"], "'abc' is not a size like 1280x720"),
        (["rps", "--after"], "expected one argument"),
    ],
)
def test_bad_window_options_are_one_line_and_exit_2(capsys, tmp_path, argv, message):
    (tmp_path / "folder.png").mkdir()
    err = one_line_exit_2(capsys, [arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    assert message in err and err.rstrip().endswith("(see rmviz --help)")


def test_good_window_options_parse(tmp_path):
    args = parse_window_args(["kuhn", "--screenshot", str(tmp_path / "k.PNG"), "--steps", "3", "--run"])
    assert (args.after, args.steps, args.run) == (DEFAULT_AFTER, 3, True)
    args = parse_window_args(["rps", "--screenshot", str(tmp_path / "a.png"), "--after", f"{MAX_AFTER:g}"])
    assert args.after == MAX_AFTER and args.steps is None
    assert parse_window_args(["kuhn", "--steps", str(MAX_STEPS)]).steps == MAX_STEPS


def test_seconds_of_solving_asked_for_run_a_game_tree(tmp_path):
    """``rmviz leduc --after 5 --screenshot F`` showed iteration 0: a game tree opens paused,
    and --after only waited. Asked for, seconds of solving run it (as --run does), unless
    --steps shows recorded iterations; the default wait does not."""
    shot = ["--screenshot", str(tmp_path / "a.png")]
    assert parse_window_args(["leduc", *shot, "--after", "5"]).solving
    assert not parse_window_args(["leduc", *shot]).solving
    assert not parse_window_args(["kuhn", *shot, "--after", "5", "--steps", "3"]).solving


def test_options_of_another_family_are_refused_by_name():
    matrix = parse_window_args(["rps", "--steps", "5", "--infoset", "1"])
    assert family_problem(matrix, MATRIX, WINDOW_OPTIONS) == (
        "--steps, --infoset are for game trees only; rps is one of the matrix games"
    )
    assert family_problem(parse_window_args(["rps", "--run"]), MATRIX, WINDOW_OPTIONS) == (
        "--run is for game trees only; rps is one of the matrix games"
    )
    assert family_problem(parse_window_args(["kuhn", "--steps", "5", "--run"]), TREE, WINDOW_OPTIONS) is None
    assert (
        family_problem(parse_window_args(["rps", "--compare", "--presentation"]), MATRIX, WINDOW_OPTIONS)
        is None
    )
    field = parse_window_args(["kuhn", "--field", "--field-step", "0.5"])
    assert field.field_step == 0.5
    assert family_problem(field, TREE, WINDOW_OPTIONS) == (
        "--field, --field-step are for matrix games only; kuhn is one of the game trees"
    )
    assert family_problem(parse_window_args(["rps", "--field"]), MATRIX, WINDOW_OPTIONS) is None


@pytest.mark.parametrize("options", [["--steps", "5"], ["--run"], ["--infoset", "1"]])
def test_the_app_refuses_tree_options_on_a_matrix_game_before_any_window(options):
    result = subprocess.run(
        [sys.executable, "-m", "rmviz.cli", "rps", *options],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 2
    assert result.stderr == (
        f"rmviz: {options[0]} is for game trees only; rps is one of the matrix games (see rmviz --help)\n"
    )
