"""A randomized storm of edits and run commands on a live matrix window.

Used by the short stress test in the default run (tests/ui/matrix/test_stress.py) and by
the long one (tests/benchmarks/edit_while_running.py). Every edit goes through the same
calls as the window's menus and buttons, and is scheduled on the Qt event loop at random
intervals, so edits land between, and during, the redraw timer's ticks and the repaints
they cause.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer

MAX_CELLS = 600  # edits that would make a larger game are undone instead


def scratch_window(game, **options):
    """A MatrixWindow on ``game`` (a TreeWindow on a game tree) whose settings and autosaves
    live in a fresh temporary folder and whose messages go nowhere: the benchmarks' window
    (QApplication made first)."""
    from PySide6.QtCore import QSettings

    from rmviz.solvers.registry import TREE, family_of
    from rmviz.ui.matrix.window import MatrixWindow
    from rmviz.ui.tree.window import TreeWindow

    folder = Path(tempfile.mkdtemp())
    if family_of(game) is TREE:
        window = TreeWindow(game, autosave_folder=folder / "autosave", **options)
    else:
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        window = MatrixWindow(game, settings=settings, autosave_folder=folder / "autosave", **options)
    window.show_error = lambda message: None
    return window


class EditStorm:
    """Random structural edits on ``window`` (a MatrixWindow), one every ``interval`` seconds
    on average, while its solver runs; ``edits``, ``counts`` and ``redraws`` say what
    happened."""

    def __init__(self, window, seed: int = 0, interval: float = 0.2) -> None:
        self.window = window
        self.random = random.Random(seed)
        self.interval = interval
        self.edits = 0
        self.counts: Counter[str] = Counter()
        self.redraws = 0
        self._until = 0.0
        self._min_edits = 0
        self._on_done: Callable[[], None] = lambda: None
        original = window.draw  # the run control draws the window's parts, tick or forced

        def counted(*args, **kwargs):
            self.redraws += 1
            return original(*args, **kwargs)

        window.draw = counted

    def start(self, until: float, on_done: Callable[[], None], min_edits: int = 0) -> None:
        """Edit until ``time.perf_counter()`` reaches ``until`` and at least ``min_edits`` are
        made (a loaded machine rebuilds the plots slowly), then call ``on_done``."""
        self._until, self._on_done, self._min_edits = until, on_done, min_edits
        self.window.run.toggle() if not self._running() else None
        self._schedule()

    def _running(self) -> bool:
        thread = self.window.run.thread
        return thread is not None and thread.loop.running

    def _schedule(self) -> None:
        delay = self.random.expovariate(1 / self.interval) if self.interval > 0 else 0
        QTimer.singleShot(int(1000 * min(delay, 5 * self.interval)), self._edit)

    def _edit(self) -> None:
        if time.perf_counter() >= self._until and self.edits >= self._min_edits:
            self._on_done()
            return
        name, action = self.random.choice(self._actions())
        action()
        self.edits += 1
        self.counts[name] += 1
        if not self._running() and self.random.random() < 0.7:
            self.window.run.toggle()  # mostly running: the edits must land on a live run
        self._schedule()

    def _actions(self) -> list[tuple[str, Callable[[], object]]]:
        window, document = self.window, self.window.document
        game = document.game
        player = self.random.randrange(game.n_players)
        if game.payoffs.size // game.n_players > MAX_CELLS:
            return [("undo", document.undo)]
        actions = [
            ("add action", lambda: window.attempt(lambda: document.add_action(player))),
            ("add action", lambda: window.attempt(lambda: document.add_action(player))),
            ("undo", document.undo),
            ("undo", document.undo),
            ("redo", document.redo),
            ("remove action", lambda: window.attempt(lambda: document.remove_action(player, 0))),
            ("add player", lambda: window.attempt(document.add_player)),
            ("remove player", lambda: window.attempt(lambda: document.remove_player(player))),
            ("payoff", lambda: window.attempt(lambda: self._payoff(document))),
            ("run/pause", window.run.toggle),
            ("step", lambda: window.run.step(self.random.randint(1, 500))),
            ("reset", window.run.restart),
            ("face", lambda: self._face(player)),
        ]
        return actions

    def _payoff(self, document) -> None:
        game = document.game
        profile = tuple(self.random.randrange(k) for k in game.num_actions)
        values = [self.random.uniform(-5, 5) for _ in range(game.n_players)]
        document.set_payoffs([profile], [values])

    def _face(self, player: int) -> None:
        window = self.window
        k = window.document.game.num_actions[player]
        if player < 3 and k > 3:
            face = tuple(sorted(self.random.sample(range(min(k, 10)), 3)))
            window.dashboard._set_face(player, face)

    def counts_text(self) -> str:
        return ", ".join(f"{name} {count}" for name, count in self.counts.most_common())


GAMES = ("rps-crash", "battle-of-partners", "three-player-pennies", "rps")


def lifecycle_cycle(window, k: int, wait: Callable[[Callable[[], bool]], None]) -> None:
    """One cycle of what a session does to a window: run, pause, step, reset, an edit while
    running (added action, undone), a switch to another game; ``wait(condition)`` runs the
    event loop until ``condition()`` holds."""

    def iteration() -> int:
        return window.run.thread.loop.latest()[1].iteration

    def set_running(running: bool) -> None:  # the Run/Pause button, pressed only if needed
        if window.run.thread.loop.running != running:
            window.run.toggle()

    set_running(True)
    wait(lambda: iteration() > 0)
    set_running(False)
    window.run.step(5)
    wait(lambda: not window.run.thread.loop.running and iteration() >= 5)
    window.run.restart()  # iteration 0, paused
    set_running(True)
    window.attempt(lambda: window.document.add_action(0))
    window.document.undo()
    window.load_catalog(GAMES[k % len(GAMES)])
    wait(lambda: window.run.thread is not None and window.run.thread.is_alive())
