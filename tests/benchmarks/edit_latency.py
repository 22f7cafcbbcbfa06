"""How long does an edit freeze the matrix window?

Opens the real matrix window (offscreen unless a display is set, at 1280x720) on a 3x3
game with the solver running, and makes edits one at a time, as a person typing in the
payoff matrix would. Two latencies per edit:

* *blocked*: how long the window cannot answer, the edit handled (the run restarted on the
  edited game, the views emptied or rebuilt) and the window repainted: the freeze a person
  feels;
* *redrawn*: until the fresh run's first snapshot is drawn and painted (adds the wait for
  the redraw timer, 33 ms, and for the new run's first publication).

Three kinds of edit, measured side by side in one run:

* ``payoff``: one payoff changed; the shape is kept, so the plots are kept (emptied);
* ``payoff, rebuilt``: the same edit with every view rebuilt, as every edit was before
  (the ratio to the first line is what keeping the plots saves);
* ``add action``: a structural edit (an action added, then undone), which must rebuild.

Target (issue 12): an edit that keeps the shape blocks the window < 200 ms on a 3x3 game.
The load average is printed: on a busy machine every figure grows.

    python tests/benchmarks/edit_latency.py [--game rps] [--edits 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.ui.matrix.stress

TARGET_MS = 200


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="rps")
    parser.add_argument("--edits", type=int, default=20, help="edits of each kind")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtWidgets import QApplication

    from rmviz.formats import load_game
    from tests.ui.matrix.stress import scratch_window

    app = QApplication(sys.argv[:1])
    window = scratch_window(load_game(args.game))
    window.confirm_discard = lambda: True
    window.resize(1280, 720)
    window.show()
    game = window.document.game
    if game.num_actions[0] < 2 or game.n_players < 2:
        print("the game needs two players and two actions for the row player")
        return 2

    drawn: list[object] = []  # the run loop of each draw
    draw = window.draw

    def recording_draw(loop, snapshot, force):  # type: ignore[no-untyped-def]
        yield from draw(loop, snapshot, force)
        drawn.append(loop)  # every part drawn

    window.draw = recording_draw

    def drawn_fresh_run() -> None:
        """Process events until the window has drawn the current run."""
        drawn.clear()
        while not (drawn and window.run.thread is not None and drawn[-1] is window.run.thread.loop):
            app.processEvents()
        app.processEvents()  # the repaint the draw asked for

    def settle(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()

    settle(3.0)  # the window laid out and the kernels loaded
    profile = (0,) * game.n_players

    def payoff_edit(k: int) -> None:
        values = [float(v) for v in window.document.game.payoff_at(profile)]
        change = 1.0 if k % 2 == 0 else -1.0
        values[0] += change
        values[1] -= change  # a zero-sum game stays zero-sum (its plots show another gap set)
        window.document.set_payoffs([profile], [values])

    def rebuilt_edit(k: int) -> None:
        window.dashboard._drawn = None  # forget what is drawn: the views are rebuilt
        payoff_edit(k)

    def add_action(k: int) -> None:
        if k % 2 == 0:
            window.document.add_action(0)
        else:
            window.document.undo()

    def measure(edit: Callable[[int], None]) -> tuple[np.ndarray, np.ndarray]:
        blocked, redrawn = [], []
        for k in range(args.edits):
            started = time.perf_counter()
            edit(k)
            app.processEvents()  # the repaint the edit asked for
            blocked.append(time.perf_counter() - started)
            drawn_fresh_run()
            redrawn.append(time.perf_counter() - started)
            settle(0.1)  # the run goes on between edits, as between a person's keystrokes
        return np.array(blocked) * 1000, np.array(redrawn) * 1000

    results = {
        "payoff": measure(payoff_edit),
        "payoff, rebuilt": measure(rebuilt_edit),
        "add action / undo": measure(add_action),
    }
    window.shutdown()
    base = float(np.median(results["payoff"][0]))
    print(
        f"{args.game} {game.shape_label}, {args.edits} edits each, ms; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'edit':<18} {'blocked median':>15} {'p90':>7} {'max':>7} {'x payoff':>9} {'redrawn median':>15}")
    for name, (blocked, redrawn) in results.items():
        median = float(np.median(blocked))
        print(
            f"{name:<18} {median:15.1f} {np.percentile(blocked, 90):7.1f} {blocked.max():7.1f} "
            f"{median / base:9.1f} {np.median(redrawn):15.1f}"
        )
    worst = float(np.percentile(results["payoff"][0], 90))
    verdict = "met" if worst < TARGET_MS else "NOT met"
    print(f"target: an edit that keeps the shape blocks < {TARGET_MS} ms (p90): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
