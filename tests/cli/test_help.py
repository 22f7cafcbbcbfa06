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


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"rmviz {__version__}\n"


def test_help_does_not_load_qt():
    """Where Qt cannot load, ``rmviz --help`` still answers."""
    code = "import sys\nfrom rmviz.cli import build_parser\nbuild_parser().format_help()\n"
    code += "assert not [m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))]\n"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)
