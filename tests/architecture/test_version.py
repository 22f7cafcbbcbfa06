"""The version lives at the bottom of the layers (rmviz.version): the runner's records,
sessions, sweeps and the command line ask it there, not through the package root."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rmviz
from rmviz.version import version

PACKAGE = Path(rmviz.__file__).parent


def test_the_root_and_the_bottom_layer_give_one_version():
    assert rmviz.__version__ == version() != ""


def test_no_module_imports_the_version_from_the_package_root():
    """``from rmviz import __version__`` runs the root's ``__getattr__``: an upward import."""
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "rmviz":
                assert all(alias.name != "__version__" for alias in node.names), path


def test_recording_a_run_loads_neither_the_api_nor_the_figures():
    code = (
        "import sys, rmviz.runner.record, rmviz.runner.session, rmviz.version;"
        "rmviz.version.version();"
        "print(sorted(m for m in ('rmviz.api', 'rmviz.figures') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
