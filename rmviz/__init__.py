"""rmviz: watch regret minimisation find equilibria.

The engine (``rmviz.games``, ``rmviz.formats``, ``rmviz.solvers``) is Qt-free and runs
headless; see ``docs/architecture.md`` for the layers.
"""

from __future__ import annotations

__version__ = "0.1.0"
