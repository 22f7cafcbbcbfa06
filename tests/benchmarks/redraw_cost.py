"""What one live redraw of the matrix window costs the GUI thread, with and without thinning.

Opens the real matrix window (offscreen unless a display is set), runs the solver to
``--iterations`` and pauses it, then times (process CPU time, so a busy machine matters
less than for wall-clock figures) ``--redraws`` staggered redraws, each followed by the
repaint it causes, as the window's timer does them, and each view's share of the painting.
The same window is then timed with every trace point drawn (the thinning of
:func:`rmviz.ui.common.plot_layout.live_points` off), side by side in this run.

    python tests/benchmarks/redraw_cost.py [--game rps-crash] [--size 1280x720] [--iterations 3e6]
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.ui.matrix.stress


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="rps-crash")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--iterations", type=float, default=3e6)
    parser.add_argument("--redraws", type=int, default=40)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    from rmviz.formats import load_game
    from rmviz.ui.common import plot_layout
    from tests.ui.matrix.stress import scratch_window

    painting: dict[str, list[float]] = collections.defaultdict(list)
    paint_event = pg.GraphicsView.paintEvent

    def timed_paint(view: pg.GraphicsView, event: object) -> None:
        started = time.process_time()
        paint_event(view, event)
        painting[type(view).__name__].append(time.process_time() - started)

    pg.GraphicsView.paintEvent = timed_paint
    app = QApplication(sys.argv[:1])
    window = scratch_window(load_game(args.game))
    window.resize(*(int(n) for n in args.size.split("x")))
    window.show()
    loop = window.run.thread.loop
    started = time.perf_counter()
    while loop.solver.iteration < args.iterations and time.perf_counter() - started < 300:
        app.processEvents()
        time.sleep(0.01)
    loop.pause()
    window.run.timer.stop()
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    trace_points = len(loop.trace)

    def measure() -> tuple[float, dict[str, float]]:
        costs = []
        for view in painting.values():
            view.clear()
        for _ in range(args.redraws):
            began = time.process_time()
            for _ in window.draw(loop, loop.latest()[1], False):  # staggered, as the timer's
                app.processEvents()  # the repaint each part posted
            costs.append(time.process_time() - began)
        return 1000 * float(np.median(costs)), {k: 1000 * float(np.median(v)) for k, v in painting.items()}

    measure()  # warm: the first redraws lay out the axes
    thinned, thinned_views = measure()
    budget, plot_layout.LIVE_POINTS = plot_layout.LIVE_POINTS, 10**9
    measure()
    whole, whole_views = measure()
    window.shutdown()
    print(
        f"game {args.game} at {args.size}, paused at iteration {loop.solver.iteration:,} "
        f"({trace_points} trace points), CPU per staggered redraw + repaint, median of {args.redraws}:"
    )
    print(f"  thinned to about {budget} points a curve: {thinned:.1f} ms")
    print(f"  every trace point: {whole:.1f} ms ({whole / thinned:.2f}x)")
    for view, cost in thinned_views.items():
        print(f"  painting {view}: {cost:.1f} ms thinned, {whole_views.get(view, 0.0):.1f} ms whole")
    return 0


if __name__ == "__main__":
    sys.exit(main())
