"""Figures in notebooks (issue 32): ``plot`` draws on a given Axes or Figure, a new figure
shows itself as PNG (or SVG) without pyplot, and ``rmviz.compare`` gives one tidy frame and
the compare figure."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib import _pylab_helpers
from matplotlib.figure import Figure

import rmviz
from rmviz.errors import RmvizError
from rmviz.figures import display
from rmviz.figures.display import NotebookFigure

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def rps():
    return rmviz.solve("rps-crash", "rm", iterations=200, progress=False)


@pytest.fixture(scope="module")
def kuhn():
    return rmviz.solve("kuhn", "cfr", iterations=50, progress=False)


def test_plot_draws_on_the_given_axes(rps, kuhn):
    fig = Figure()
    left, right = fig.subplots(1, 2)
    assert rps.plot("gaps", ax=left) is left
    assert len(left.lines) >= 4 and not right.lines and left.get_yscale() == "log"
    assert kuhn.plot("tree", ax=right) is right and right.lines
    assert len(fig.axes) == 2  # nothing added beside the caller's axes
    assert rps.plot("joint", ax=fig.add_subplot(2, 2, 4)).collections  # the heatmap (and a colour bar)
    fig.savefig(__import__("io").BytesIO(), format="png")


def test_several_panels_need_a_figure(rps, kuhn):
    ax = Figure().subplots()
    refused = r"^the strategies figure draws 2 panels \(one per player\): pass fig="
    with pytest.raises(RmvizError, match=refused):
        rps.plot("strategies", ax=ax)
    with pytest.raises(RmvizError, match="dashboard figure draws six panels"):
        rps.plot("dashboard", ax=ax)
    assert not ax.lines
    fig = Figure(layout="constrained")
    sub = fig.subfigures(1, 2)[1]
    assert rps.plot("strategies", fig=sub) is sub
    assert len(fig.axes) == 2 and all(ax.lines for ax in fig.axes)
    with pytest.raises(RmvizError, match="ax= or fig=, not both"):
        rps.plot("gaps", ax=ax, fig=fig)
    with pytest.raises(RmvizError, match="size="):
        rps.plot("gaps", ax=ax, size=(4, 3))


def test_a_new_figure_shows_itself_without_pyplot(rps, tmp_path):
    managers = _pylab_helpers.Gcf.get_num_fig_managers()
    fig = rps.plot("gaps")
    assert isinstance(fig, NotebookFigure) and isinstance(fig, Figure)
    assert _pylab_helpers.Gcf.get_num_fig_managers() == managers  # pyplot's list untouched
    png = fig._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert fig._repr_svg_() is None  # PNG only by default: one image per output
    assert set(fig._repr_mimebundle_()) == {"image/png"}
    assert fig._repr_mimebundle_(exclude=["image/png"]) == {}
    fig.savefig(tmp_path / "gaps.pdf")  # still a Figure
    assert (tmp_path / "gaps.pdf").read_bytes().startswith(b"%PDF")


def test_svg_on_request(rps, monkeypatch):
    monkeypatch.setattr(display, "DISPLAY", display.Display(formats=("svg", "png")))
    fig = rps.plot("simplex", style="paper")
    svg = fig._repr_svg_()
    assert svg.startswith("<?xml") and "<svg" in svg
    bundle = fig._repr_mimebundle_()
    assert list(bundle) == ["image/svg+xml", "image/png"] and bundle["image/svg+xml"] == svg
    assert list(fig._repr_mimebundle_(include=["image/png"])) == ["image/png"]
    monkeypatch.setattr(display, "DISPLAY", display.Display(formats=("gif",)))
    with pytest.raises(RmvizError, match="no display format 'gif'"):
        fig._repr_mimebundle_()


def test_compare_gives_one_tidy_frame_and_the_compare_figure():
    comparison = rmviz.compare("rps", ["rm", "rm+"], iterations=100, progress=False, every=10)
    table = comparison.metrics
    assert list(table.columns[:3]) == ["iteration", "algorithm", "exploitability"]
    assert list(table.algorithm.cat.categories) == ["rm", "rm+"]
    alone = rmviz.solve("rps", "rm+", iterations=100, progress=False, every=10).metrics
    mine = table[table.algorithm == "rm+"].drop(columns="algorithm").reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, alone)
    fig = comparison.plot()
    assert isinstance(fig, NotebookFigure) and len(fig.axes) == 3  # exploitability, CCE and CE gaps
    assert all(len(ax.lines) >= 2 for ax in fig.axes)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels[:2] == ["rm", "rm+"]
    assert "rm+" in comparison._repr_html_() and repr(comparison).startswith("<rmviz Comparison: rm, rm+")
    with pytest.raises(RmvizError, match="compare figure draws 3 panels"):
        comparison.plot(ax=Figure().subplots())


def test_compare_trees_on_one_axes_and_bad_input():
    comparison = rmviz.compare("kuhn", ["cfr", "cfr+"], iterations=30, progress=False)
    fig = Figure()  # exploitability, CCE gap, EFCE gap: one panel each, both algorithms in each
    assert comparison.plot(fig=fig) is fig and [len(ax.lines) for ax in fig.axes] == [2, 2, 2]
    last = comparison.metrics.groupby("algorithm", observed=True).iteration.max()
    np.testing.assert_array_equal(last, [30, 30])
    with pytest.raises(RmvizError, match="named twice"):
        rmviz.compare("rps", ["rm", "rm"], 10, progress=False)
    with pytest.raises(RmvizError, match="another kind of game"):
        rmviz.compare("rps", ["rm", "cfr"], 10, progress=False)


def test_end_labels_sit_at_their_curves_in_a_callers_laid_out_figure(kuhn):
    import io

    fig = Figure(figsize=(12, 8), layout="constrained")
    kuhn.plot("strategies", fig=fig)
    fig.savefig(io.BytesIO(), format="png")  # the caller's layout, as it draws
    renderer = fig._get_renderer()
    notes = [text for ax in fig.axes for text in ax.texts if text.get_gid() == "rmviz-end-label"]
    assert len(notes) == 2 * 12  # two moves at each of Kuhn's 12 information sets
    for note in notes:
        box = note.get_window_extent(renderer)
        end = note.axes.transData.transform(note.xy)
        assert abs((box.y0 + box.y1) / 2 - end[1]) < 3 * box.height, note.get_text()
        assert note.axes.bbox.x0 < end[0] <= box.x0 < note.axes.bbox.x1 + 3 * box.width
