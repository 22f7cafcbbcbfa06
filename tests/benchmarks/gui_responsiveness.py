"""Is the window responsive while the solver runs flat out?

Opens the real window (offscreen unless a display is set: the matrix window, or the tree
window for a game tree) on a game with the solver at full speed, and meanwhile asks the Qt
event loop to run a probe every 10 ms. A probe's latency is how late it runs: time the GUI
thread could not answer a click. The script reports the latency's median, 99th percentile
and maximum after the first second (start-up: the window's first layout, numba loading its
kernels), the worst probe of that first second on a line of its own, the redraws per
second, the GUI thread's CPU time per redraw (the redraw, the repaint it causes and the
garbage collector's pauses, which this thread alone runs: rmviz.ui.common.collector; each
pause's CPU time is reported too) and its parts (the redraw's own work, summed over the
parts the window draws it in, and each view's repaints), and the growth of the process's
resident memory from the first second to the end of the run (the trace and snapshots must
stay bounded).

Targets (issue 4): p99 latency < 50 ms, memory growth < 50 MB over 1e7 iterations; issue 34:
the same with ``--busy 2`` (two processes spinning on the cores beside the window), and no
probe later than 100 ms once the window shows.

    python tests/benchmarks/gui_responsiveness.py [--game rps-crash] [--iterations 1e7] [--busy 2]
    python tests/benchmarks/gui_responsiveness.py --wide 1000 --iterations 1e5

``--wide N``: a tree of one decision node of N moves, the tree window's information-set
table and plot showing its N moves (issue 33's node of 1,000 moves).
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.ui.matrix.stress

PROBE_MS = 10


def rss_mb() -> float:
    """Resident memory now, in MB (Linux /proc; the peak from getrusage elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="rps-crash")
    parser.add_argument("--iterations", type=float, default=1e7)
    parser.add_argument("--speed", type=float, default=None, help="iterations per second (default: full)")
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds")
    parser.add_argument("--busy", type=int, default=0, help="processes spinning beside the window")
    parser.add_argument("--wide", type=int, default=0, help="a one-node tree of this many moves instead")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        return measure(args)
    finally:
        for process in spinning:
            process.kill()


def measure(args: argparse.Namespace) -> int:

    import pyqtgraph as pg
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from rmviz.formats import load_game
    from tests.ui.matrix.stress import scratch_window
    from tests.ui.tree.test_wide_nodes import wide_game

    app = QApplication(sys.argv[:1])
    if args.wide:
        args.game = f"a node of {args.wide:,} moves"
    window = scratch_window(wide_game(args.wide) if args.wide else load_game(args.game))
    window.show()
    if not window.run.thread.loop.running:  # the tree window opens paused
        window.run.toggle()
    window.run.thread.loop.set_speed(args.speed)
    latencies: list[tuple[float, float]] = []  # (seconds since start, lateness)
    redraws = 0
    original_draw = window.draw

    def counted_draw(*args: object) -> Iterator[None]:
        """The window's redraw, its parts' CPU time summed (the repaints between them aside)."""
        nonlocal redraws
        redraws += 1
        cpu, began = 0.0, time.thread_time()
        for _ in original_draw(*args):
            cpu += time.thread_time() - began
            yield
            began = time.thread_time()
        parts["redraw"].append((time.perf_counter() - state["start"], cpu + time.thread_time() - began))

    window.draw = counted_draw  # the run control draws self.window.draw()'s parts
    parts: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)  # (when, CPU s)
    paint_event = pg.GraphicsView.paintEvent

    def timed_paint(view: pg.GraphicsView, event: object) -> None:
        began = time.thread_time()
        paint_event(view, event)
        parts[f"painting {type(view).__name__}"].append(
            (time.perf_counter() - state["start"], time.thread_time() - began)
        )

    pg.GraphicsView.paintEvent = timed_paint  # each view's repaints, as redraw_cost.py times them
    pauses: list[float] = []  # CPU ms of each collection (the GUI thread's: the collector's timer)
    started: list[float] = []

    def collecting(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.thread_time()]
        elif started:
            pauses.append((time.thread_time() - started[0]) * 1000)

    gc.callbacks.append(collecting)
    state = {"due": time.perf_counter() + PROBE_MS / 1000, "baseline": None, "start": time.perf_counter()}

    def probe() -> None:
        now = time.perf_counter()
        latencies.append((now - state["start"], max(0.0, now - state["due"])))
        iteration = window.run.thread.loop.solver.iteration if window.run.thread else 0
        if state["baseline"] is None and now - state["start"] > 1.0:
            state["baseline"] = (rss_mb(), iteration, now)
            state["cpu"] = (time.thread_time(), redraws)
        if iteration >= args.iterations or now - state["start"] > args.timeout:
            app.exit(0)  # not quit(): Qt 6 closes the windows first
            return
        state["due"] = time.perf_counter() + PROBE_MS / 1000
        QTimer.singleShot(PROBE_MS, probe)

    QTimer.singleShot(PROBE_MS, probe)
    app.exec()
    end = time.perf_counter()
    iterations = window.run.thread.loop.solver.iteration
    trace_points, trace_kb = len(window.run.thread.loop.trace), window.run.thread.loop.trace.nbytes() / 1e3
    memory_end = rss_mb()
    window.shutdown()
    base_memory, base_iteration, base_time = state["baseline"] or (memory_end, 0, state["start"])
    times, delays = np.array(latencies).T
    lat = delays[times > 1.0] * 1000  # after the first second (window start-up, numba loading)
    p99 = float(np.percentile(lat, 99))
    first = delays[times <= 1.0] * 1000
    growth = memory_end - base_memory
    print(
        f"game {args.game}: {iterations:,} iterations in {end - state['start']:.1f} s "
        f"({(iterations - base_iteration) / (end - base_time):,.0f} it/s while drawing)"
    )
    print(
        f"event-loop latency after 1 s: median {np.median(lat):.2f} ms, p99 {p99:.2f} ms, "
        f"max {lat.max():.1f} ms over {lat.size} probes (target p99 < 50 ms)"
    )
    if first.size:
        worst = int(np.argmax(first))  # the first paint of the window, or a stall after it
        later = first[times[: first.size] > times[worst]]
        print(
            f"event-loop latency in the first second: max {first.max():.1f} ms at {times[worst]:.2f} s"
            f" over {first.size} probes; after it {later.max() if later.size else 0.0:.1f} ms"
        )
    print(f"redraws: {redraws / (end - state['start']):.0f} per second")
    cpu, drawn = state.get("cpu", (time.thread_time(), redraws))
    per_redraw = (time.thread_time() - cpu) * 1000 / max(1, redraws - drawn)
    print(f"GUI thread CPU per redraw (with its repaint and the collector) after 1 s: {per_redraw:.1f} ms")
    for part, timed in parts.items():  # the redraw's own work, then each view's repaints
        cost = np.array([cpu for when, cpu in timed if when > 1.0]) * 1000
        if cost.size:
            print(
                f"  {part}: CPU ms median {np.median(cost):.1f}, p90 {np.percentile(cost, 90):.1f}, "
                f"max {cost.max():.1f} over {cost.size}"
            )
    if pauses:
        median, most = np.median(pauses), max(pauses)
        print(f"garbage collector: {len(pauses)} pauses, CPU ms median {median:.2f}, max {most:.1f}")
    print(
        f"resident memory: {base_memory:.0f} MB after 1 s -> {memory_end:.0f} MB at the end: "
        f"growth {growth:+.1f} MB (target < 50 MB); the trace holds {trace_points} points, {trace_kb:.0f} kB"
    )
    ok = p99 < 50 and growth < 50 and iterations >= args.iterations
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
