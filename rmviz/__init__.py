"""rmviz: watch regret minimisation find equilibria.

The engine (``rmviz.games``, ``rmviz.formats``, ``rmviz.solvers``, ``rmviz.document``,
``rmviz.runner``) is Qt-free and runs headless (``rmviz.cli``, notebooks); ``rmviz.ui`` is
the desktop app. See ``docs/architecture.md`` for the layers and the two game families.
"""

from __future__ import annotations

__version__ = "0.1.0"
