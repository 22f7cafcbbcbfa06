"""The tree window's exact reference: the sequence-form LP of a two-player zero-sum tree
(:func:`rmviz.solvers.tree.sequence_lp.drawn_reference`, up to
:data:`~rmviz.solvers.tree.sequence_lp.WINDOW_MAX_TERMINALS` terminals), solved on a
one-thread executor polled by a timer, as the matrix window's *Equilibria* tab solves its
LPs, so HiGHS never blocks the window. Its equilibrium is drawn as dashed levels on the
information set's plot and its value beside the run's in the status line."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from PySide6.QtCore import QObject, QTimer

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.numbers import format_number
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.sequence_lp import TreeZeroSumSolution, drawn_reference

POLL_MS = 50


class TreeReference:
    """:meth:`start` with the run's game and compiled tree; ``ready`` is called on the GUI
    thread with the solution (None: no reference for this tree) once it is known. A game
    shown while the LP of an earlier one runs waits for it, then is solved in turn."""

    def __init__(self, parent: QObject, ready: Callable[[TreeZeroSumSolution | None], None]) -> None:
        self.ready = ready
        self.game: ExtensiveFormGame | None = None  # the game of the solution (or of the LP under way)
        self.solution: TreeZeroSumSolution | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rmviz-sequence-lp")
        self._future: Future[TreeZeroSumSolution | None] | None = None
        self._waiting: tuple[ExtensiveFormGame, CompiledTree] | None = None
        self._timer = QTimer(parent)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def start(self, game: ExtensiveFormGame, tree: CompiledTree) -> None:
        """Solve ``game`` (nothing to do when it is the game already solved or under way)."""
        if game is self.game and (self._waiting is None or self._waiting[0] is game):
            return
        self.solution = None
        if self._future is not None:  # one LP at a time: this game's follows
            self._waiting = (game, tree)
            return
        self._submit(game, tree)

    def _submit(self, game: ExtensiveFormGame, tree: CompiledTree) -> None:
        self.game, self._waiting = game, None
        self._future = self._executor.submit(drawn_reference, game, tree)
        self._timer.start()

    def _poll(self) -> None:
        future = self._future
        if future is None or not future.done():
            return
        self._future = None
        if self._waiting is not None:  # the game changed while it ran: that result is stale
            self._submit(*self._waiting)
            return
        self._timer.stop()
        self.solution = None if future.exception() is not None else future.result()
        self.ready(self.solution)

    def value_text(self, game: ExtensiveFormGame) -> str:
        """`` (LP -0.05556)``: the exact value of player 1 the run's approaches, when it is
        known for ``game`` (the status line)."""
        if self.solution is None or self.game is not game:
            return ""
        return f" (LP {format_number(self.solution.value, '.4g')})"

    def shutdown(self) -> None:
        """Stop polling; an LP under way ends on its own (its result is dropped)."""
        self._timer.stop()
        self._executor.shutdown(wait=False, cancel_futures=True)
