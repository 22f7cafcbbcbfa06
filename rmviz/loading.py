"""Loading a game for the command line, with a progress line on stderr for slow loads.

Walking a big OpenSpiel game or reading a big .efg file takes seconds (about 5 microseconds
per history read, 10 walked). What a person sees, as ``pip``, ``curl`` or ``rsync`` do it:

* stderr is a terminal: nothing for the first second, then one line rewritten in place
  (``loading openspiel:goofspiel(...): 420,000 histories, 2.1 s``), ended by the final count
  and time once the game is loaded (``... 969,523 histories in 4.3 s``);
* stderr is a file or a pipe (a log, CI): no control characters and no ticking, only the
  final line, and only for loads over a second (quick loads say nothing).

The game is loaded on the calling thread; the line is written from the loader's progress
calls (every 10,000 to 65,536 histories), so it never lags by more than a fraction of a
second of work.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from rmviz.formats import Game, load_game

QUIET_SECONDS = 1.0
"""Loads quicker than this print nothing."""
REDRAW_SECONDS = 0.1
"""The terminal line is rewritten at most this often."""


class LoadProgress:
    """The progress line of one load on ``stream`` (see the module docstring)."""

    def __init__(
        self, spec: str, stream: TextIO | None = None, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.spec = spec
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.last_drawn = -1.0
        self.drawn = False
        try:
            self.live = self.stream.isatty()
        except (AttributeError, ValueError):  # a closed or odd stream: no live line
            self.live = False

    def __call__(self, histories: int) -> bool:
        """A loader's progress call: redraw the line when it is due; never stops the load."""
        now = self.clock()
        elapsed = now - self.start
        if self.live and elapsed >= QUIET_SECONDS and now - self.last_drawn >= REDRAW_SECONDS:
            self.stream.write(f"\rloading {self.spec}: {histories:,} histories, {elapsed:.1f} s")
            self.stream.flush()
            self.last_drawn, self.drawn = now, True
        return True

    def done(self, game: Game | None) -> None:
        """The final line (the terminal's line ended, or one line for a slow load)."""
        elapsed = self.clock() - self.start
        if not self.drawn and elapsed < QUIET_SECONDS:
            return
        size = getattr(game, "n_nodes", None)
        what = f"{size:,} histories" if isinstance(size, int) else "loaded"
        line = f"loading {self.spec}: {what} in {elapsed:.1f} s"
        self.stream.write(("\r" + line + "\033[K\n") if self.live else line + "\n")
        self.stream.flush()

    def failed(self) -> None:
        """End the terminal's line (the error message follows on a line of its own)."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def load_with_progress(spec: str, stream: TextIO | None = None) -> Game:
    """:func:`~rmviz.formats.load_game` with the progress line of :class:`LoadProgress`."""
    progress = LoadProgress(spec, stream)
    try:
        game = load_game(spec, progress)
    except BaseException:
        progress.failed()
        raise
    progress.done(game)
    return game
