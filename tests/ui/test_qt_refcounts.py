"""Guard against Qt bindings that corrupt Python refcounts (PySide6 6.12.0 did).

On Python 3.11 ``None`` is an ordinary object: a binding that drops one reference to it per
call makes its count reach zero and the interpreter abort ("none_dealloc") after minutes of
live plotting. PySide6 6.12.0 dropped ~138 per pyqtgraph ``setData``; pyproject pins <6.12.
"""

from __future__ import annotations

import gc
import sys

import pytest

pg = pytest.importorskip("pyqtgraph")


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12")
def test_live_plotting_does_not_drop_references_to_none(qtbot):
    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    curve = widget.addPlot().plot()
    curve.setData([1, 2, 3], [3, 2, 1])
    gc.collect()
    before = sys.getrefcount(None)
    for k in range(50):
        curve.setData([1, 2, 3], [3, 2, k])
        widget.clear()
        curve = widget.addPlot().plot()
    gc.collect()
    assert sys.getrefcount(None) - before >= 0


def test_garbage_is_collected_on_the_gui_thread_only(qtbot):
    """A worker thread's allocations never collect Qt garbage (rmviz.ui.common.collector):
    destroyed there, a QObject deadlocks PySide6."""
    import threading
    import weakref

    from PySide6.QtCore import QObject

    from rmviz.ui.common.collector import collect_on_gui_thread

    collect_on_gui_thread()
    assert not gc.isenabled()
    holder = [QObject()]
    holder.append(holder)  # a reference cycle: only the collector frees it
    alive = weakref.ref(holder[0])
    del holder

    def allocate():
        junk = [[[] for _ in range(10)] for _ in range(20_000)]  # far past every threshold
        del junk

    worker = threading.Thread(target=allocate)
    worker.start()
    worker.join()
    assert alive() is not None  # not collected by the worker's allocations
    gc.collect()  # what the GUI thread's timer does
    assert alive() is None


def test_what_exists_before_the_first_window_is_frozen_not_its_garbage():
    """collect_on_gui_thread freezes the imported modules' objects (a full collection then
    skips them) after collecting the garbage already there, which freezing would keep for
    ever. In a fresh process: the collector is set up once per process."""
    import subprocess

    script = """
import gc, weakref
from PySide6.QtWidgets import QApplication
from rmviz.ui.common.collector import collect_on_gui_thread
app = QApplication([])
class Node: pass
node = Node(); node.self = node
garbage = weakref.ref(node)
del node
kept = Node()
collect_on_gui_thread()
print(garbage() is None, gc.get_freeze_count() > 10_000, kept in gc.get_objects())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False"]  # freed; frozen; not traversed
