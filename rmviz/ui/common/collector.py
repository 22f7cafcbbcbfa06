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
"""

from __future__ import annotations

from pyqtgraph.util.garbage_collector import GarbageCollector

INTERVAL_S = 1.0
_collector: list[GarbageCollector] = []  # the one collector, kept alive for the process


def collect_on_gui_thread() -> None:
    """Switch automatic collection off and collect on a GUI-thread timer (once; call on the
    GUI thread after the QApplication exists)."""
    if not _collector:
        _collector.append(GarbageCollector(interval=INTERVAL_S))
