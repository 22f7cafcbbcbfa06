"""What the first start compiles is all a window reaches (issue 27): after the workloads of
``rmviz precompile`` (the app's background warm-up runs the same), the matrix window's runs of
every preset and play mode, its *Step* tab and every figure it exports, and the tree window's
Step 1, Step N, animation and figures compile no kernel: numba's compile event never fires
and no kernel gains a signature (argument types) the workloads did not give it."""

from __future__ import annotations

import itertools

import pytest
from numba.core import event

from rmviz.figures.registry import figures_of
from rmviz.games import catalog_game
from rmviz.solvers import precompile
from rmviz.solvers.jit import AVAILABLE
from rmviz.solvers.registry import family_named
from tests.solvers.test_precompile import all_signatures
from tests.ui.matrix.conftest import iteration, make_window
from tests.ui.tree.conftest import make_tree_window

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="numba is not installed")


class Compiles(event.Listener):
    """The kernels numba compiles (a load from the cache is not a compile)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def on_start(self, compile_event: event.Event) -> None:
        self.names.append(compile_event.data["dispatcher"].py_func.__qualname__)

    def on_end(self, compile_event: event.Event) -> None:
        pass


@pytest.fixture
def precompiled():
    """The workloads run (loaded from the cache, or compiled into it), then every compile
    counted; the signatures the window added are checked at the end."""
    for workload, _ in precompile.WORKLOADS.values():
        workload()
    before = all_signatures()
    compiles = Compiles()
    with event.install_listener("numba:compile", compiles):
        yield compiles
    assert compiles.names == []
    assert all_signatures() - before == set()


def _figures(qtbot, window, tmp_path, family):
    window.tabs.setCurrentWidget(window.compare)  # the compare figure needs its runs
    window.compare.toggle_run()
    for thread in window.compare.threads.values():
        qtbot.waitUntil(lambda thread=thread: thread.loop.latest()[1].iteration > 10, timeout=120_000)
    window.compare.pause()
    window.tabs.setCurrentIndex(0)
    for figure in figures_of(family):
        path = tmp_path / (f"{family}-{figure}.tex" if figure == "tikz" else f"{family}-{figure}.png")
        assert window.export.figure(path, figure, dpi=50), window.errors


@pytest.mark.slow  # 10 s: every run and figure of the window (.ci/run runs it)
def test_the_matrix_window_compiles_nothing_after_precompile(qtbot, tmp_path, precompiled):
    window = make_window(qtbot, tmp_path, game="rps")
    window.show()
    family = family_named("matrix")
    for algorithm, play in itertools.product(family.presets, ("expected", "sampled")):
        window.panel.set_config(family.config(algorithm, play=play))
        window.run.restart(run=False)
        window.run.step(3)
        qtbot.waitUntil(lambda: iteration(window) == 3, timeout=120_000)
        window.tabs.setCurrentWidget(window.step_panel)  # explains iteration 3
        window.run.redraw(force=True)
        assert window.step_panel.shown is not None and window.step_panel.shown.iteration == 3
        window.tabs.setCurrentIndex(0)
        assert precompiled.names == [], (algorithm, play)
    _figures(qtbot, window, tmp_path, "matrix")
    window.shutdown()


@pytest.mark.slow  # 10 s: every run and figure of the window (.ci/run runs it)
def test_the_tree_window_compiles_nothing_after_precompile(qtbot, tmp_path, precompiled):
    window = make_tree_window(qtbot, catalog_game("kuhn"))
    window.show()
    family = family_named("tree")
    for algorithm in family.presets:
        window.panel.set_config(family.config(algorithm))
        window.run.restart(run=False)
        recorded = window.step_recorded()  # Step 1 (EFR has no CFR record: refused)
        assert (recorded is None) == (algorithm == "efr"), algorithm
        window.run.step(50)  # Step N
        done = 50 if recorded is None else 51
        loop = window.run.thread.loop
        qtbot.waitUntil(lambda done=done, loop=loop: loop.latest()[1].iteration == done, timeout=120_000)
        window.animate()
        assert precompiled.names == [], algorithm
    _figures(qtbot, window, tmp_path, "tree")
    window.shutdown()
