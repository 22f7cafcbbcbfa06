"""How a game is solved: regret minimisation on NumPy or CuPy arrays (no Qt).

Two families, one package each, with the same shape (config, solver, state, kernels,
metrics, family): :mod:`.matrix` (regret matching and its variants on normal-form games) and
:mod:`.tree` (CFR and its variants on game trees). Shared pieces sit beside them:
:mod:`.protocol` (the ``Solver`` and ``Snapshot`` every family offers), :mod:`.family`,
:mod:`.registry` (``make_solver`` for any game and algorithm), :mod:`.columns` (the trace
schema), :mod:`.presets`, :mod:`.weighting`, :mod:`.regret_matching`, :mod:`.metrics`,
:mod:`.backend` (NumPy or CuPy) and :mod:`.exact` (LP reference values).

This package imports nothing itself: import what you use from its modules, e.g.
``from rmviz.solvers.registry import make_solver``.
"""
