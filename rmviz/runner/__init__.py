"""A solver running: bounded traces of its snapshots and the worker thread that drives it.

``trace`` is Qt-free; ``worker`` runs a solver in a ``QThread`` (see docs/architecture.md).
"""
