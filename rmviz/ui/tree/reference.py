"""The tree window's exact reference: the sequence-form LP of a two-player zero-sum tree
(:func:`rmviz.solvers.tree.sequence_lp.drawn_reference`, up to
:data:`~rmviz.solvers.tree.sequence_lp.WINDOW_MAX_TERMINALS` terminals), solved on a
one-thread executor polled by a timer, as the matrix window's *Equilibria* tab solves its
LPs, so HiGHS never blocks the window. Its equilibrium is drawn as dashed levels on the
information set's plot and its value beside the run's in the status line. The equilibrium is
the one nearest the run's average strategy (uniform as a game opens), solved again as the
run moves (:meth:`TreeReference.follow`), at most :data:`FOLLOW_SHARE` of a core."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
from PySide6.QtCore import QObject, QTimer

from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.numbers import format_number
from rmviz.solvers.tree.compiled_tree import CompiledTree
from rmviz.solvers.tree.sequence_lp import TreeZeroSumSolution, drawn_reference

POLL_MS = 50
FOLLOW_EVERY = 1.0  # seconds at least between two solves for a running average
FOLLOW_SHARE = 0.2  # the share of a core the solves for the running average take at most


class TreeReference:
    """:meth:`start` with the run's game and compiled tree; ``ready`` is called on the GUI
    thread with the solution (None: no reference for this tree) once it is known. A game
    shown while the LP of an earlier one runs waits for it, then is solved in turn;
    :meth:`follow` asks for the equilibrium nearest a newer average."""

    def __init__(self, parent: QObject, ready: Callable[[TreeZeroSumSolution | None], None]) -> None:
        self.ready = ready
        self.game: ExtensiveFormGame | None = None  # the game of the solution (or of the LP under way)
        self.solution: TreeZeroSumSolution | None = None
        self.near: np.ndarray | None = None  # the average the solution (or the LP under way) is nearest
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rmviz-sequence-lp")
        self._future: Future[TreeZeroSumSolution | None] | None = None
        self._waiting: tuple[ExtensiveFormGame, CompiledTree] | None = None  # a game shown meanwhile
        self._wanted: tuple[ExtensiveFormGame, CompiledTree, np.ndarray] | None = None  # a newer average
        self._solved: ExtensiveFormGame | None = None  # the game of the last solve that ended
        self._next = 0.0  # when a newer average may be solved for (perf_counter seconds)
        self._timer = QTimer(parent)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def start(self, game: ExtensiveFormGame, tree: CompiledTree) -> None:
        """Solve ``game`` (nothing to do when it is the game already solved or under way)."""
        if game is self.game and (self._waiting is None or self._waiting[0] is game):
            return
        self.solution, self._wanted = None, None
        if self._future is not None:  # one LP at a time: this game's follows
            self._waiting = (game, tree)
            return
        self._submit(game, tree, tree.uniform_strategy())  # a run's average as it starts

    def follow(self, game: ExtensiveFormGame, tree: CompiledTree, average: np.ndarray) -> None:
        """Solve again for the equilibrium nearest the run's ``average`` (per slot) when it is
        not the one solved for: at once if the solves have rested :data:`FOLLOW_EVERY`
        seconds and five times their own time (:data:`FOLLOW_SHARE`), else when they have
        (the newest average asked for is kept: a paused run's levels end at its own
        average). Nothing for a game with no reference (general-sum)."""
        if game is not self.game or (self._solved is game and self.solution is None):
            return
        if self.near is not None and np.array_equal(average, self.near):
            self._wanted = None
            return
        self._wanted = (game, tree, np.array(average, dtype=np.float64))
        if not self._timer.isActive():  # (start() again would put the next poll off)
            self._timer.start()  # _poll submits it when it may

    def pending(self) -> bool:
        """Whether an LP runs or waits: a picture of a paused run waits for its levels."""
        return self._future is not None or self._waiting is not None or self._wanted is not None

    def _submit(self, game: ExtensiveFormGame, tree: CompiledTree, near: np.ndarray) -> None:
        self.game, self._waiting, self.near = game, None, near
        self._future = self._executor.submit(drawn_reference, game, tree, near)
        self._timer.start()

    def _poll(self) -> None:
        future = self._future
        if future is not None:
            if not future.done():
                return
            self._future = None
            if self._waiting is not None:  # the game changed while it ran: that result is stale
                game, tree = self._waiting
                self._submit(game, tree, tree.uniform_strategy())
                return
            self.solution = None if future.exception() is not None else future.result()
            self._solved = self.game
            if self.solution is not None:
                self._next = time.perf_counter() + max(FOLLOW_EVERY, self.solution.seconds / FOLLOW_SHARE)
            self.ready(self.solution)
        wanted = self._wanted
        if wanted is None or wanted[0] is not self.game:
            self._wanted = None
            self._timer.stop()
        elif self._future is None and time.perf_counter() >= self._next:
            self._wanted = None
            self._submit(*wanted)

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
