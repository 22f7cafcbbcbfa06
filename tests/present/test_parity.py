"""Each panel drawn both ways, on paper (matplotlib: rmviz.figures.panels.draw_panel) and live
(pyqtgraph: rmviz.ui.common.panel_plot.PanelPlot), from one trace: the same curves (points,
colours, dashes, widths relative to the renderer's line width), the same axis scales and
ranges, the same labelled ticks (decades of log axes, 0 / 0.5 / 1 of probability axes) and
titles. Panels of every family: matrix strategies, gaps, regrets and welfare; tree gaps and
information sets; the compare panels of both; the gap and compare panels with the last
iterate's curves (the tree runs track it on request)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from matplotlib.figure import Figure
from PySide6.QtCore import Qt

from rmviz.figures import record_comparison
from rmviz.figures.panels import draw_panel
from rmviz.figures.style import STYLES, finish
from rmviz.games import catalog_game
from rmviz.present.panels import (
    LAST_KEY,
    LAST_LABEL,
    PROBABILITY_TICKS,
    ZERO_NOTE,
    Panel,
    compare_panels,
    compared_last,
    drops,
    gap_panel,
    infoset_panel,
    matrix_panels,
    values,
)
from rmviz.present.ticks import decade_ticks
from rmviz.solvers.tree.sequence_lp import solve_zero_sum_tree
from rmviz.ui.common.panel_plot import WIDTH, PanelPlot
from rmviz.ui.common.plot_layout import PlotLayout

DASHES = {
    "solid": ("-", Qt.PenStyle.SolidLine),
    "dashed": ("--", Qt.PenStyle.DashLine),
    "dotted": (":", Qt.PenStyle.DotLine),
}


@pytest.fixture(scope="module")
def runs():
    return {
        "rps": record_comparison(catalog_game("rps-crash"), ["rm", "rm+"], iterations=300),
        "pennies": record_comparison(catalog_game("three-player-pennies"), ["rm"], iterations=100),
        "kuhn": record_comparison(catalog_game("kuhn"), ["cfr", "cfr+"], iterations=60, last_iterate=True),
        # RM+'s CCE gap and regret bound drop to 0 at T = 26 and stay there from T = 34
        "shapley": record_comparison(catalog_game("shapley"), ["rm", "rm+"], iterations=1000),
    }


def cases(runs):
    """(name, panel, tables, payoff scale, shared values) for every panel of every family."""
    for key in ("rps", "pennies"):
        run = runs[key]
        panels = matrix_panels(
            run.family, run.game, ["strategies", "gaps", "regrets", "welfare"], run.zero_sum
        )
        for name, group in panels.items():
            for k, panel in enumerate(group):
                yield f"{key}-{name}-{k}", panel, {None: run.trace}, run.payoff_scale, None
    kuhn = runs["kuhn"]
    yield "kuhn-gaps", gap_panel(kuhn.family, False), {None: kuhn.trace}, kuhn.payoff_scale, None
    for infoset in (0, 7):
        panel = infoset_panel(kuhn.tree, infoset, kuhn.game.player_names)
        yield f"kuhn-infoset-{infoset}", panel, {None: kuhn.trace}, kuhn.payoff_scale, None
    lp = solve_zero_sum_tree(kuhn.game, kuhn.tree).strategy  # the window's dashed levels
    panel = infoset_panel(kuhn.tree, 7, kuhn.game.player_names, lp)
    yield "kuhn-infoset-7-lp", panel, {None: kuhn.trace}, kuhn.payoff_scale, None
    shapley = runs["shapley"]
    plus = shapley.compared["rm+"]
    yield "shapley-gaps", gap_panel(shapley.family, False), {None: plus}, shapley.payoff_scale, None
    for key in ("rps", "kuhn", "shapley"):
        run = runs[key]
        panels = compare_panels(run.family.compared, list(run.compared), compared_last(run.family))
        tables = dict(run.compared)
        shared = values(panels, tables)
        for panel in panels:
            yield f"{key}-compare-{panel.title}", panel, tables, run.payoff_scale, shared


def paper(panel: Panel, tables, scale, shared, finished=True):
    """The panel as an exported figure draws it; ``finished``: laid out, decades labelled and
    legends placed too (five layout passes: the curves and their legend entries are drawn
    before them)."""
    fig = Figure(figsize=(12, 9), layout="constrained")
    ax = fig.subplots()
    draw_panel(ax, panel, tables, STYLES["paper"], scale, shared)
    if finished:
        finish(fig, STYLES["paper"], None)
    return ax


def live(qtbot, panel: Panel, tables, scale, shared):
    widget = PlotLayout()
    qtbot.addWidget(widget)
    widget.resize(1200, 900)
    drawn = PanelPlot(widget.ci, panel, 0, 0, legend=pg.LegendItem())
    drawn.update(tables, scale, shared=shared, thin=False)
    return drawn


def test_every_panel_is_drawn_alike_on_paper_and_live(runs, qtbot):
    checked = last = levels = dropped = 0
    for name, panel, tables, scale, shared in cases(runs):
        ax = paper(panel, tables, scale, shared)
        plot = live(qtbot, panel, tables, scale, shared)
        # the curves: the same points, colours, dashes and relative widths
        paper_curves = [a for a in ax.get_lines() if len(a.get_xdata()) and not _is_guide(a, panel)]
        live_curves = [(line, c) for line, c in plot.curves.items() if c.getOriginalDataset()[0].size]
        assert len(paper_curves) == len(live_curves), name
        for artist, (line, curve) in zip(paper_curves, live_curves, strict=True):
            np.testing.assert_array_equal(artist.get_xdata(), curve.getOriginalDataset()[0], err_msg=name)
            np.testing.assert_array_equal(artist.get_ydata(), curve.getOriginalDataset()[1], err_msg=name)
            qt = curve.opts["pen"]
            assert artist.get_color() == line.colour and qt.color().name() == line.colour.lower(), name
            assert (artist.get_linestyle(), qt.style()) == DASHES[line.dash], name
            assert artist.get_alpha() == pytest.approx(line.alpha)
            assert qt.color().alphaF() == pytest.approx(line.alpha, abs=1 / 255)
            assert artist.get_linewidth() / STYLES["paper"].line_width == pytest.approx(qt.widthF() / WIDTH)
        # the levels (an LP equilibrium): the same heights, colours, dashes and widths
        paper_levels = [a for a in ax.get_lines() if _is_level(a, panel)]
        assert len(paper_levels) == len(plot.levels) == len(panel.levels), name
        for artist, drawn, level in zip(paper_levels, plot.levels, panel.levels, strict=True):
            qt = drawn.pen
            assert artist.get_ydata()[0] == drawn.value() == level.y, name
            assert artist.get_color() == level.colour and qt.color().name() == level.colour.lower(), name
            assert (artist.get_linestyle(), qt.style()) == DASHES[level.dash], name
            assert artist.get_linewidth() / STYLES["paper"].line_width == pytest.approx(qt.widthF() / WIDTH)
        levels += len(panel.levels)
        if panel.reference is not None and plot.reference is not None:
            (guide,) = [a for a in ax.get_lines() if a.get_label() == panel.reference.tex]
            _, guide_y = plot.reference.getOriginalDataset()
            np.testing.assert_array_equal(guide.get_ydata(), guide_y, err_msg=name)
        # the axes: scales and ranges
        (x0, x1), (y0, y1) = plot.plot.vb.viewRange()
        low, high = ax.get_xlim()
        assert ax.get_xscale() == "log" and x0 <= math.log10(low) + 0.05 and math.log10(high) <= x1 + 1e-9, (
            name
        )
        if panel.y.scale == "log":
            low, high = ax.get_ylim()
            assert ax.get_yscale() == "log"
            margin = 0.1 * (y1 - y0)  # live padding
            assert math.log10(low) == pytest.approx(y0, abs=margin)
            assert math.log10(high) == pytest.approx(y1, abs=margin)
            # the decades labelled: on paper, those of the axis's range that fit; live the same rule
            paper_labels = {round(math.log10(t)) for t in ax.get_yticks() if low <= t <= high}
            axis = plot.plot.getAxis("left")
            axis.tickValues(math.log10(low), math.log10(high), 10_000)
            every = set(decade_ticks(math.log10(low), math.log10(high), 100)[0])
            assert paper_labels == every == axis.labelled, name
        elif panel.y.scale == "probability":
            assert list(ax.get_yticks()) == list(PROBABILITY_TICKS)
            assert [label.get_text() for label in ax.get_yticklabels()] == ["0", "0.5", "1"]
            ticks = plot.plot.getAxis("left")._tickLevels
            assert ticks[0] == [
                (t, label) for t, label in zip(PROBABILITY_TICKS, ("0", "0.5", "1"), strict=True)
            ]
            assert ax.get_ylim() == pytest.approx((y0, y1))
        elif panel.y.scale == "symmetric":
            assert ax.get_ylim() == pytest.approx((y0, y1)) and y0 == pytest.approx(-y1)
        # where a curve drops to 0: the same marks, at the foot of the axis, and the title says so
        paper_drops = [a for a in ax.get_lines() if a.get_gid() == "rmviz-drop"]
        live_drops = [(line, mark) for line, (mark, at) in plot.drops.items() if at.size]
        assert len(paper_drops) == len(live_drops), name
        for artist, (line, mark) in zip(paper_drops, live_drops, strict=True):
            np.testing.assert_array_equal(artist.get_xdata(), drops(panel, line, tables), err_msg=name)
            np.testing.assert_array_equal(mark.xData, artist.get_xdata(), err_msg=name)
            foot = ax.get_ylim()[0]  # paper: at the axes' foot (y 0 of the axes); live the same
            assert np.all(mark.yData == foot) and np.all(artist.get_ydata() == 0), name
            assert artist.get_transform() == ax.get_xaxis_transform(), name
            colour = pg.mkColor(mark.opts["symbolBrush"])
            assert artist.get_color() == line.colour and colour.name() == line.colour.lower(), name
            assert artist.get_marker() == "v" and mark.opts["symbol"] == "t", name
        title = panel.title + (ZERO_NOTE if paper_drops else "")
        dropped += bool(paper_drops)
        # the title and the axis titles
        assert ax.get_title() == title and title.split(":")[0] in plot.plot.titleLabel.text, name
        assert ax.get_xlabel() == panel.x.tex and plot.plot.getAxis("bottom").labelText == panel.x.label
        checked += 1
        last += any(line.column.quantity.startswith("last_") for line, _ in live_curves)
    assert checked >= 14
    assert last >= 5  # rps, pennies and kuhn gaps, both compare families
    assert levels == 2  # Kuhn's LP equilibrium at one information set
    assert dropped == 2  # Shapley's RM+ gaps, and its CCE gap compared


def test_the_last_iterate_is_drawn_in_the_averages_colours_lighter_and_keyed_once(runs, qtbot):
    for name, panel, tables, scale, shared in cases(runs):
        lines = [line for line in panel.lines if line.column.quantity.startswith("last_")]
        family = runs[name.split("-")[0]].family
        averages = {line.column.quantity for line in panel.lines} - {line.column.quantity for line in lines}
        if panel.name not in ("gaps", "compare") or not any(f"last_{m}" in family.metrics for m in averages):
            assert not lines, name  # a tree's correlation gaps have no last iterate
            continue
        assert lines, name
        # keyed once, in grey (keyed in the first one's colour, it named that one only)
        assert not any(line.legend for line in lines) and panel.keys == (LAST_KEY,), name
        assert LAST_KEY.colour not in {line.colour for line in panel.lines} and LAST_LABEL in LAST_KEY.label
        for line in lines:
            average = next(
                a
                for a in panel.lines
                if a.column.quantity == line.column.quantity.removeprefix("last_") and a.source == line.source
            )
            assert (line.colour, line.dash) == (average.colour, average.dash), name
            assert line.alpha < average.alpha and line.width < average.width, name
        # paper: one legend entry, a grey sample at the last iterate's width and opacity; live
        # the same
        ax = paper(panel, tables, scale, shared, finished=False)
        handles, labels = ax.get_legend_handles_labels()
        assert [label for label in labels if LAST_LABEL in label] == [LAST_KEY.tex], name
        sample = handles[labels.index(LAST_KEY.tex)]
        assert sample.get_color() == LAST_KEY.colour and sample.get_alpha() == LAST_KEY.alpha, name
        assert sample.get_linewidth() == pytest.approx(STYLES["paper"].line_width * LAST_KEY.width)
        legend = pg.LegendItem()
        widget = PlotLayout()
        qtbot.addWidget(widget)
        PanelPlot(widget.ci, panel, 0, 0, legend=legend)
        entries = [(item, label.text) for item, label in legend.items if LAST_LABEL in label.text]
        assert [text for _, text in entries] == [LAST_KEY.label], name
        qt = entries[0][0].item.opts["pen"]
        assert qt.color().name() == LAST_KEY.colour.lower(), name
        assert qt.color().alphaF() == pytest.approx(LAST_KEY.alpha, abs=1 / 255), name


def _is_level(artist, panel: Panel) -> bool:
    """A level (``axhline``: two points across the axes at one height)."""
    y = np.asarray(artist.get_ydata())
    return bool(panel.levels) and len(y) == 2 and y[0] == y[1] and list(artist.get_xdata()) == [0, 1]


def _is_guide(artist, panel: Panel) -> bool:
    """The reference line, the zero line and the levels: drawn by both, compared separately."""
    if artist.get_label() == (panel.reference.tex if panel.reference else None) or _is_level(artist, panel):
        return True
    if artist.get_gid() == "rmviz-drop":  # where a curve drops to 0: compared separately
        return True
    return panel.zero_line and np.all(np.asarray(artist.get_ydata()) == 0) and len(artist.get_xdata()) == 2


def test_an_empty_panel_says_the_same_on_paper_and_live(qtbot):
    """A panel with nothing to draw (an information set of a tree too big to trace its
    strategies) says its ``empty`` text in the middle, on paper and live alike."""
    from rmviz.present.panels import NOT_TRACED
    from rmviz.runner.trace import TraceData
    from rmviz.solvers.tree.compiled_tree import compile_tree
    from tests.solvers.tree.builders import binary_tree

    tree = compile_tree(binary_tree(11, perfect=True))
    panel = infoset_panel(tree, int(np.flatnonzero(~tree.traced_infoset)[0]), ("Player 1", "Player 2"))
    assert panel.empty == NOT_TRACED
    tables = {None: TraceData(np.arange(1, 21), {})}
    ax = paper(panel, tables, 1.0, None)
    assert [text.get_text() for text in ax.texts] == [NOT_TRACED]
    widget = PlotLayout()  # kept: the note is a Qt item of the widget's plot
    qtbot.addWidget(widget)
    drawn = PanelPlot(widget.ci, panel, 0, 0)
    drawn.update(tables)
    assert drawn.note is not None and drawn.note.isVisible()
    assert drawn.note.text.replace("<br>", "\n") == NOT_TRACED


def test_a_move_keeps_its_colour_across_information_sets():
    """Leduc's call is one colour at every set, whether or not fold comes first (it was the
    first colour at {call, raise} and the second at {fold, call, raise}); a set whose labels
    would share a colour takes the moves' order, as a player's actions do."""
    from rmviz.games.trees import leduc_poker
    from rmviz.present.definitions import ACTION_COLOURS
    from rmviz.present.panels import move_colours
    from rmviz.solvers.tree.compiled_tree import compile_tree

    tree = compile_tree(leduc_poker())
    colour: dict[str, set[str]] = {}
    for infoset in range(tree.n_infosets):
        panel = infoset_panel(tree, infoset, ("Player 1", "Player 2"))
        for line in panel.lines:
            colour.setdefault(line.label, set()).add(line.colour)
        assert len({line.colour for line in panel.lines}) == len(panel.lines)
    assert all(len(colours) == 1 for colours in colour.values()) and len(colour) == 3
    crowded = compile_tree(leduc_poker())
    numbers = crowded.move_number.copy()
    numbers[crowded.infoset_first_slot[0] + 1] = numbers[crowded.infoset_first_slot[0]] + len(ACTION_COLOURS)
    object.__setattr__(crowded, "move_number", numbers)  # two moves of set 0 on one colour
    assert move_colours(crowded, 0, (0, 1)) == {0: ACTION_COLOURS[0], 1: ACTION_COLOURS[1]}
