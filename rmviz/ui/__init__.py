"""What a person sees: the PySide6 + pyqtgraph desktop app.

* :mod:`.app`: ``rmviz [GAME]`` starts here; its window registry is the one table from game
  family to window class, opens every window and owns the open ones.
* :mod:`.common`: what both families' windows share: the run-window template (run
  controls, the *Compare algorithms* tab, the paced redraw, close and shutdown), the solver
  panel and compare view built from a :class:`~rmviz.solvers.family.Family`, the export
  dialog and the style.
* :mod:`.matrix`: the matrix-game window (payoff editor, convergence plots, simplex, joint
  distribution).
* :mod:`.tree`: the game-tree window (tree view and editor, tree plots, information-set
  panel).

Imports point down: ``app -> (matrix | tree) -> common``; the two families' windows never
import each other and open each other's games through the :class:`~.common.opener.Opener`
the registry gives them.
"""
