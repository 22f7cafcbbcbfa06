"""Does the window stay bounded through many run cycles?

Opens the real matrix window (offscreen unless a display is set) and runs ``--cycles``
cycles of what a session does (tests/ui/matrix/stress.py, ``lifecycle_cycle``): run, pause,
step, reset, an edit while running (an added action, undone), a switch to another game.
Every ``--every`` cycles it prints the thread count and the resident memory; at the end,
their growth from the first report. Target (issue 17): no growth in threads, bounded memory.

    python tests/benchmarks/window_lifecycle.py [--cycles 1000] [--every 100]

The default test run keeps a short version (tests/ui/matrix/test_stress.py).
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.ui.matrix.stress


def rss_mb() -> float:
    """Resident memory now, in MB (Linux /proc)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args()
    faulthandler.enable(all_threads=True)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QDeadlineTimer, QEventLoop
    from PySide6.QtWidgets import QApplication

    from rmviz.games import catalog_game
    from tests.ui.matrix.stress import lifecycle_cycle, scratch_window

    app = QApplication(sys.argv[:1])
    window = scratch_window(catalog_game("rps-crash"), autorun=False)
    window.show()

    def wait(condition) -> None:
        deadline = time.monotonic() + 30
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("the window did not answer within 30 s")
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, QDeadlineTimer(10))

    started, first = time.perf_counter(), None
    for k in range(args.cycles + 1):
        lifecycle_cycle(window, k, wait)
        if k % args.every == 0:
            now = (threading.active_count(), rss_mb())
            first = first or now
            print(
                f"cycle {k:5d}: {now[0]} threads, {now[1]:.0f} MB resident "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    window.shutdown()
    wait(lambda: threading.active_count() <= first[0])
    print(
        f"{args.cycles} cycles: threads {first[0]} -> {threading.active_count()} (after shutdown), "
        f"resident memory {first[1]:.0f} -> {rss_mb():.0f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
