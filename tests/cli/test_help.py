"""``rmviz --help`` tells that plain ``rmviz`` opens the window and lists the window's
options; ``rmviz --version``. Neither needs Qt (issue 13)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rmviz import __version__
from rmviz.cli import main

REPO = Path(__file__).resolve().parents[2]


def test_help_shows_the_window_usage_and_options(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: rmviz [GAME] [window options]")
    for option in ("--screenshot FILE", "--after SECONDS", "--compare", "--presentation", "--steps N"):
        assert option in text
    for command in ("games", "solve", "export", "convert", "bench"):
        assert f"    {command} " in text


@pytest.mark.parametrize("command", [[], ["solve"], ["step"], ["export"], ["convert"], ["equilibria"]])
def test_every_game_argument_names_every_kind_of_game(capsys, command):
    """The unknown-game error offered a ``reduced:`` spec that no --help mentioned; each
    command that takes a game says what may name one, in the same words (GAME_HELP)."""
    from rmviz.arguments import GAME_HELP

    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert " ".join(GAME_HELP.split()) in text
    assert all(spec in GAME_HELP for spec in ("random:KIND:SHAPE", "openspiel:NAME", "reduced:TREE", ".efg"))


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"rmviz {__version__}\n"


def test_help_does_not_load_qt():
    """Where Qt cannot load, ``rmviz --help`` still answers."""
    code = "import sys\nfrom rmviz.cli import build_parser\nbuild_parser().format_help()\n"
    code += "assert not [m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))]\n"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)
