"""Importing the presentation layer, a colour or a tick rule loads no solver, no numba, no
SciPy and no renderer: the command line and the figures pay only for what they draw."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("numba", "scipy", "matplotlib", "PySide6", "pyqtgraph", "rmviz.solvers.matrix", "rmviz.solvers.tree")


def test_importing_present_loads_no_solver():
    modules = "rmviz.present, rmviz.present.definitions, rmviz.present.ticks, rmviz.present.panels"
    code = (
        f"import sys; import {modules}, rmviz.present.simplex, rmviz.present.tree_layout; "
        "print('\\n'.join(sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert not [m for m in loaded.split() if m.startswith(HEAVY)]
