"""Structural edits while the solver runs: does the window survive?

Opens the real matrix window (offscreen unless a display is set) on a three-player game
with the solver running, and makes a random structural edit every ``--interval`` seconds
(on average): add an action for a random player, undo, redo, remove an action, add or
remove a player, switch the simplex face, run/pause. faulthandler is on, so a crash prints
every thread's stack. The script prints the edits made, the redraws and the seconds run;
exit status 0 when the window lived to the end.

    python tests/benchmarks/edit_while_running.py [--seconds 300] [--interval 0.2] [--seed 1]

The default test run keeps a short version (tests/ui/matrix/test_stress.py).
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.ui.matrix.stress


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="random:general-sum:3x3x3")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--interval", type=float, default=0.2, help="mean seconds between edits")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    faulthandler.enable(all_threads=True)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtWidgets import QApplication

    from rmviz.formats import load_game
    from tests.ui.matrix.stress import EditStorm, scratch_window

    app = QApplication(sys.argv[:1])
    window = scratch_window(load_game(args.game))
    window.confirm_discard = lambda: True
    window.show()
    storm = EditStorm(window, seed=args.seed, interval=args.interval)
    started = time.perf_counter()
    storm.start(until=started + args.seconds, on_done=lambda: app.exit(0))
    app.exec()
    elapsed = time.perf_counter() - started
    window.shutdown()
    print(
        f"{storm.edits} edits ({storm.counts_text()}) in {elapsed:.0f} s, "
        f"{storm.redraws} redraws; the window lived"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
