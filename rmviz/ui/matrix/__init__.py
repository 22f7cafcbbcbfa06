"""The matrix-game window: edit a payoff table, watch regret matching converge.

:mod:`.window` composes the :mod:`.editor` (over the :mod:`.payoff_model`), the solver panel
and the :mod:`.dashboard` (the :mod:`.simplex` trajectories, the :mod:`.joint`
distribution and the :mod:`.plots` of convergence); exported figures are
drawn by :mod:`rmviz.figures`.
"""
