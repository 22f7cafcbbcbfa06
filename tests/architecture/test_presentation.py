"""The engine computes, rmviz.present writes: no HTML in the solvers, and importing the
presentation layer (its text, panels, colours, ticks and geometry) loads no solver machinery
(numba, SciPy, the registry) and no renderer."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "rmviz"
# a tag of the markup the windows show (<sub>, <b>, <table ...>, </li>...) or an entity (&minus;)
MARKUP = re.compile(
    r"</?(sub|sup|b|i|u|br|p|h[1-6]|table|tr|td|th|li|ul|ol|span|div|font|a|pre|code)\b[^>]*>"
    r"|&[a-z]+;"
)
HEAVY = (
    "numba",
    "scipy",
    "matplotlib",
    "PySide6",
    "pyqtgraph",
    "rmviz.solvers.registry",
    "rmviz.solvers.matrix",
    "rmviz.solvers.tree",
)
TEXT_MODULES = (
    "rmviz.present",
    "rmviz.present.number_text",
    "rmviz.present.tree_explain",
    "rmviz.present.step_text",
    "rmviz.present.correlated_text",
    "rmviz.present.summaries",
    "rmviz.present.definitions",
    "rmviz.present.ticks",
    "rmviz.present.panels",
    "rmviz.present.simplex",
    "rmviz.present.tree_layout",
)


def test_the_markup_scan_finds_tags_and_entities():
    found = [
        text for text in ("π<sub>-i</sub>", "<table border=1>", "a &minus; b", "<br>") if MARKUP.search(text)
    ]
    assert len(found) == 4
    assert not MARKUP.search("x <= 0 and a -> b, [R]^+ < 1, 2 > 1, R & S")


def test_no_html_in_the_solvers():
    found = [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in sorted((PACKAGE / "solvers").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MARKUP.search(line)
    ]
    assert found == []


def test_importing_present_loads_no_solver():
    code = (
        f"import sys, importlib; [importlib.import_module(m) for m in {TEXT_MODULES!r}]; print(*sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert not [m for m in loaded.split() if m.startswith(HEAVY)]
