"""Python's cyclic garbage collector runs on the GUI thread only.

Collection runs in whichever thread allocates when a generation's threshold is passed: with
a solver thread allocating, that is often the solver thread. Garbage that holds Qt objects
(a closed window, the plots of a rebuilt dashboard: pyqtgraph items and the lambdas
connected to their signals form reference cycles) is then destroyed off the GUI thread, and
PySide6 deadlocks there: ``QObject::~QObject`` asks Shiboken for the Python override of a
virtual, which waits for a GIL state the collecting thread cannot get (seen as a hung test:
the solver thread in ``gc_collect_main`` -> ``QObject::~QObject`` ->
``Shiboken::GilState::acquire``, the GUI thread idle in its event loop). So, as pyqtgraph
recommends, automatic collection is switched off once the first window exists and a timer
on the GUI thread collects instead, generation by generation at the usual thresholds
(``pyqtgraph.util.garbage_collector.GarbageCollector``).

The timer runs every :data:`INTERVAL_S` seconds: a collection of the young generation costs in
proportion to what survived since the last, so short intervals make short pauses. And what was
imported before the first window (Qt, NumPy, numba, pyqtgraph: 150,000 objects) is frozen
(``gc.freeze``) after one full collection: a full collection traversed all of them, 31 ms of
the GUI thread's CPU each time, and now traverses only what the windows made (under 0.1 ms
with a window open; docs/performance.md, "The window beside two busy processes").
"""

from __future__ import annotations

import gc

from pyqtgraph.util.garbage_collector import GarbageCollector

INTERVAL_S = 0.25
_collector: list[GarbageCollector] = []  # the one collector, kept alive for the process


def collect_on_gui_thread() -> None:
    """Switch automatic collection off and collect on a GUI-thread timer; freeze what exists
    now (once; call on the GUI thread after the QApplication exists, before the first window)."""
    if not _collector:
        gc.collect()  # garbage frozen would never be freed
        gc.freeze()
        _collector.append(GarbageCollector(interval=INTERVAL_S))
