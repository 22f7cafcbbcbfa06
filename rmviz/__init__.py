"""rmviz: watch regret minimisation find equilibria.

The engine (``rmviz.games``, ``rmviz.formats``, ``rmviz.solvers``, ``rmviz.document``,
``rmviz.runner``) is Qt-free and runs headless (``rmviz.cli``, notebooks); ``rmviz.ui`` is
the desktop app. See ``docs/architecture.md`` for the layers and the two game families.

In a notebook (:mod:`rmviz.api`)::

    import rmviz
    result = rmviz.solve(rmviz.load("rps"), "rm+", iterations=1000)
    result.trace          # a tidy pandas DataFrame
    result.plot("gaps")   # a matplotlib Figure

and ``rmviz.sweep`` runs grids of games x algorithms x seeds (:mod:`rmviz.sweep`).
"""

from __future__ import annotations

import importlib
from typing import Any

API = (
    "load",
    "game",
    "solve",
    "compare",
    "Result",
    "Comparison",
    "set_threads",
    "BatchSolver",
    "TreeBatchSolver",
)
LIVE = ("watch", "Watch")  # the live view in notebooks: rmviz.notebook.watch
__all__ = ["__version__", *API, *LIVE]


def __getattr__(name: str) -> Any:
    """``rmviz.load``, ``rmviz.solve`` and ``rmviz.Result`` (:mod:`rmviz.api`), imported on
    first use: ``import rmviz`` (and so the command line) stays light, and the package root
    imports none of its layers. ``rmviz.__version__`` is :func:`rmviz.version.version`."""
    if name == "__version__":
        from rmviz.version import version

        return version()
    if name in API:
        return getattr(importlib.import_module("rmviz.api"), name)
    if name in LIVE:
        return getattr(importlib.import_module("rmviz.notebook.watch"), name)
    raise AttributeError(f"module 'rmviz' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *API, *LIVE])
