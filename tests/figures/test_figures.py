"""Every figure of the registry for a matrix game and a game tree, as PNG, SVG and PDF:
PNGs at the size and DPI asked, SVGs rendered by librsvg with about the ink matplotlib's own
rendering has (thin curves on white, no filled blobs), PDFs that poppler reads."""

from __future__ import annotations

import math
import re
import subprocess

import numpy as np
import pytest
from PIL import Image

from rmviz.errors import RmvizError
from rmviz.figures import figures_of, make_figure, record, save_figure
from rmviz.figures.registry import minimum_size, write_figure
from rmviz.games import catalog_game
from rmviz.present.panels import welfare_limit
from tests.figures.checks import PDFTOPPM, check_pdf, check_png, check_svg

SIZE, DPI = (480, 300), 60  # small: the drawing, not the pixels, is under test
IMAGES = [name for name in figures_of("matrix") if name != "tikz"]
TREE_IMAGES = [name for name in figures_of("tree") if name != "tikz"]
SLOW_IMAGES = {"dashboard", "compare"}  # several seconds each: every panel drawn three times
MOSTLY_WHITE = {"joint": 0.75, "dashboard": 0.6}  # the heatmap fills its cells; others are curves


def small_size(name: str) -> tuple[int, int]:
    """:data:`SIZE`, or the figure's smallest legible size at :data:`DPI` where larger."""
    low = minimum_size(name, "paper")
    return max(SIZE[0], math.ceil(low[0] * DPI)), max(SIZE[1], math.ceil(low[1] * DPI))


def check_formats(name, run, tmp_path):
    """``save_figure`` writes the PNG; the same figure is written as SVG and PDF (drawing it
    once: the backends are under test, and the default run stays short)."""
    size = small_size(name)
    inches = (size[0] / DPI, size[1] / DPI)
    path = save_figure(name, run, tmp_path / f"{name}.png", "paper", inches, DPI)
    assert not list(tmp_path.glob(".*.tmp*"))  # written atomically, nothing left behind
    png = check_png(path, size, DPI)
    assert 0.005 < png < MOSTLY_WHITE.get(name, 0.45), f"{name}: {png:.0%} ink"
    fig = make_figure(name, run, "paper", inches)
    svg = check_svg(write_figure(fig, tmp_path / f"{name}.svg", "paper", DPI), tmp_path)
    assert abs(svg - png) < 0.12, f"{name}: librsvg inks {svg:.0%}, matplotlib {png:.0%}"
    check_pdf(write_figure(fig, tmp_path / f"{name}.pdf", "paper", DPI), tmp_path)


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_IMAGES else n for n in IMAGES]
)
def test_every_matrix_figure_in_every_format(matrix_run, tmp_path, name):
    check_formats(name, matrix_run, tmp_path)


@pytest.mark.parametrize("name", TREE_IMAGES)
@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_every_tree_figure_in_every_format(tree_run, tmp_path, name):
    check_formats(name, tree_run, tmp_path)


def test_the_registry_knows_each_familys_figures():
    assert figures_of("tree") == ["strategies", "gaps", "compare", "tree", "tikz"]
    assert {"simplex", "joint", "dashboard", "welfare", "regrets"} <= set(figures_of("matrix"))


def test_refusals_say_why(matrix_run, tree_run, tmp_path):
    with pytest.raises(RmvizError, match=r"simplex figure is not drawn for tree games; choose strategies"):
        save_figure("simplex", tree_run, tmp_path / "s.png")
    with pytest.raises(RmvizError, match=r"written as .png or .svg or .pdf"):
        save_figure("gaps", matrix_run, tmp_path / "g.gif")
    with pytest.raises(RmvizError, match=r"written as .tex"):
        save_figure("tikz", matrix_run, tmp_path / "g.pdf")
    with pytest.raises(RmvizError, match="does not exist"):
        save_figure("gaps", matrix_run, tmp_path / "missing" / "g.svg")
    with pytest.raises(RmvizError, match="outside 10-2400"):
        save_figure("gaps", matrix_run, tmp_path / "g.png", dpi=5)
    with pytest.raises(RmvizError, match="no style 'poster'"):
        make_figure("gaps", matrix_run, style="poster")


def texts(fig):
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def test_slide_quality(matrix_run):
    fig = make_figure("gaps", matrix_run, "slides")
    (ax,) = fig.axes
    assert ax.get_xlabel() == r"iteration $T$" and "payoff units" in ax.get_ylabel()
    assert ax.get_xlim()[1] == pytest.approx(matrix_run.last_iteration)  # the x range ends at the data
    caption = "Rock-Paper-Scissors with Crash  ·  rm, rm+  ·  T = 200  ·  expected play"
    assert caption in texts(fig)
    labels = [line.get_label() for line in ax.get_lines()]
    # exploitability <= CCE gap in two-player zero-sum games: both drawn, and the legend says so
    assert r"exploitability $\epsilon$ (≤ CCE gap in two-player zero-sum)" in labels and "CCE gap" in labels
    widths = {line.get_label(): line.get_linewidth() for line in ax.get_lines()}
    assert widths["CCE gap"] < widths[labels[0]]  # the dashed CCE gap over a wider exploitability
    assert fig.get_facecolor() == (1, 1, 1, 1)


@pytest.mark.parametrize("name", ["gaps", "strategies", "compare"])
def test_log_axes_are_labelled_at_decades_only(matrix_run, name):
    fig = make_figure(name, matrix_run, "paper", minimum_size(name, "paper"))  # the smallest
    decade = re.compile(r"^\$(1|10|10\^\{-?\d+\})\$$")
    logs = [axis for ax in fig.axes for axis in (ax.xaxis, ax.yaxis) if axis.get_scale() == "log"]
    labels = [t.get_text() for axis in logs for t in axis.get_ticklabels() if t.get_text()]
    assert logs and labels and all(decade.match(text) for text in labels), labels
    assert not any(t.get_text() for axis in logs for t in axis.get_ticklabels(minor=True))


def test_welfare_axis_is_symmetric_and_ignores_rounding_noise(matrix_run):
    assert welfare_limit(np.array([1e-17, -3e-17, 0.0]), 2.0) == pytest.approx(0.2)
    assert welfare_limit(np.array([0.5, -1.0, 1e-17]), 1.0) == pytest.approx(1.1)
    fig = make_figure("welfare", matrix_run, "paper")
    low, high = fig.axes[0].get_ylim()
    assert low == -high and high == pytest.approx(0.2)  # zero-sum: noise only, payoffs up to 2


def test_a_zero_sum_games_welfare_says_it_is_always_zero(matrix_run):
    """A flat welfare line at 0 read as a fault in RPS with Crash's dashboard: the title says
    why, on paper and live (one definition); a general-sum game keeps the usual title."""
    from rmviz.figures import record
    from rmviz.present.panels import ZERO_SUM_WELFARE, matrix_panels

    assert make_figure("welfare", matrix_run, "paper").axes[0].get_title() == ZERO_SUM_WELFARE
    partners = record(catalog_game("battle-of-partners"), "rm", iterations=20)
    assert (
        make_figure("welfare", partners, "paper").axes[0].get_title()
        == "social welfare of the empirical play"
    )
    live = matrix_panels(matrix_run.family, matrix_run.game, ["welfare"], zero_sum=False)
    assert live["welfare"][0].title == ZERO_SUM_WELFARE  # the game's payoffs decide, not the gaps' flag


def test_the_tree_figure_has_the_run_numbers(tree_run):
    words = texts(make_figure("tree", tree_run, "paper"))
    assert "1/3" in " ".join(words)  # chance probabilities
    assert any(re.fullmatch(r"[pb]\n[01]\.\d\d", w) for w in words)  # each move's average probability
    assert "Jpb" in words  # information sets by label


def test_a_run_at_equilibrium_throughout_says_so_instead_of_an_empty_legend(recwarn):
    from rmviz.api import solve
    from rmviz.present.panels import NO_GAPS

    run = solve("random:general-sum:1x1", algorithm="rm", iterations=50)  # one action each
    fig = make_figure("gaps", run.run_data(), "paper")
    assert fig.axes[0].get_legend() is None
    assert [t.get_text() for t in fig.axes[0].texts] == [NO_GAPS]
    assert not [w for w in recwarn if "No artists with labels" in str(w.message)]


def test_the_caption_names_parameters_set_away_from_the_preset():
    """A figure of ``--step-size 0.5`` or ``--alpha 2`` says so; a preset's own values (the
    optimistic Hedge step 0.25, DCFR's alpha 1.5) and defaults go unsaid."""
    from rmviz.figures.run import record, record_comparison

    game = catalog_game("rps-crash")
    assert "step size 0.5  ·  T = 10" in record(game, "hedge", 10, step_size=0.5).caption()
    assert "alpha 2  ·" in record(game, "discounted-rm", 10, alpha=2.0).caption()
    for plain in (record(game, "optimistic-hedge", 10), record(game, "discounted-rm", 10, alpha=1.5)):
        assert plain.caption().count("  ·  ") == 3, plain.caption()  # game, algorithm, T, play
    compared = record_comparison(game, ["hedge", "optimistic-hedge"], 10, step_size=0.5)
    assert "hedge, optimistic-hedge  ·  step size 0.5  ·" in compared.caption()
    fig = make_figure("compare", compared)
    assert compared.caption() in texts(fig)


def test_a_compare_figure_says_which_algorithm_does_not_track_a_metric():
    """Monte-Carlo CFR tracks no correlation gap: its CCE and EFCE panels say so in their
    corner instead of leaving a curve out unexplained; the caption gives the compared runs'
    iterations (each runs at its own speed), not the single run's."""
    from dataclasses import replace

    from rmviz.figures.run import record, record_comparison
    from rmviz.games.trees import kuhn_poker
    from rmviz.present.panels import UNTRACKED

    game = kuhn_poker()
    compared = record_comparison(game, ["cfr", "mccfr-external"], 20)
    fig = make_figure("compare", compared)
    notes = {ax.get_title(): [t.get_text() for t in ax.texts] for ax in fig.axes if ax.get_title()}
    assert notes["CCE gap"] == notes["EFCE gap"] == [f"{UNTRACKED}\nmccfr-external"]
    assert notes["exploitability"] == []
    assert "T = 20" in compared.caption()
    longer = record(game, "mccfr-external", 50).trace
    uneven = replace(compared, compared={**compared.compared, "mccfr-external": longer})
    assert "T = 20 to 50" in uneven.caption()


@pytest.mark.parametrize(("name", "run"), [("welfare", "matrix_run"), ("tree", "tree_run")])
def test_the_layout_passes_end_once_the_layout_settles(name, run, request, monkeypatch):
    """:func:`~rmviz.figures.style.finish` leaves out the passes after a layout that moves
    no axes, and the figure is the one all four layouts make: the same positions to
    rounding, the same pixels to one level of anti-aliasing."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    import rmviz.figures.style as style

    run = request.getfixturevalue(run)
    layouts = []
    lay_out, positions = style.lay_out, style.positions
    monkeypatch.setattr(style, "lay_out", lambda fig: (layouts.append(fig), lay_out(fig)))

    def drawn(fig):
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        return positions(fig), np.asarray(canvas.buffer_rgba()).astype(int)

    settled = drawn(make_figure(name, run))
    assert len(layouts) < 4
    layouts.clear()
    passes = iter(range(100))  # positions that never settle: every pass runs
    monkeypatch.setattr(style, "positions", lambda fig: np.full(1, next(passes)))
    every = drawn(make_figure(name, run))
    assert len(layouts) == 4
    np.testing.assert_allclose(settled[0], every[0], rtol=0, atol=1e-12)
    assert np.abs(settled[1] - every[1]).max() <= 1


def test_every_player_of_a_tree_has_information_sets_in_its_strategies_figure():
    """Three-player Kuhn: the twelve sets nearest the root were players 1's and 2's, so
    player 3 had none drawn; the twelve are now shared out, each player's nearest first."""
    pytest.importorskip("pyspiel")
    from rmviz.figures.tree import MAX_INFOSETS, shown_infosets
    from rmviz.formats import load_game
    from rmviz.solvers.tree.compiled_tree import compile_tree

    tree = compile_tree(load_game("openspiel:kuhn_poker(players=3)"))
    shown = shown_infosets(tree)
    players = tree.infoset_player[shown].tolist()
    assert players == sorted(players) and [players.count(p) for p in range(3)] == [4, 4, 4]
    for p in range(3):  # each player's four are its four nearest the root
        mine = np.flatnonzero(tree.infoset_player == p)
        nearest = mine[np.argsort(tree.infoset_first_node[mine], kind="stable")][: MAX_INFOSETS // 3]
        assert [s for s in shown if tree.infoset_player[s] == p] == nearest.tolist()
    kuhn = compile_tree(catalog_game("kuhn"))  # two players: all twelve, six each, as before
    assert sorted(shown_infosets(kuhn)) == list(range(kuhn.n_infosets))


def test_the_joint_heatmaps_cells_meet_without_seams_in_a_pdf(tmp_path):
    """pdftoppm drew a light line between every two cells of the joint heatmap (each cell
    antialiased on its own edge): a seam is a line of pixels lighter than the cells on both
    sides, as long as the heatmap; the cells' numbers make only short ones."""
    if PDFTOPPM is None:
        pytest.skip("pdftoppm is not installed (Debian: poppler-utils)")
    path = tmp_path / "joint.pdf"
    save_figure("joint", record(catalog_game("rps-crash"), "rm", iterations=300), path, "paper")
    subprocess.run([PDFTOPPM, "-r", "150", "-png", str(path), str(tmp_path / "page")], check=True)
    (page,) = tmp_path.glob("page*.png")
    grey = np.asarray(Image.open(page).convert("RGB"), dtype=np.int64).sum(axis=2)
    dark = grey < 600  # the heatmap's cells (viridis is dark below its top)
    across = (
        (grey[:, 1:-1] > grey[:, :-2] + 40) & (grey[:, 1:-1] > grey[:, 2:] + 40) & dark[:, :-2] & dark[:, 2:]
    )
    down = (grey[1:-1] > grey[:-2] + 40) & (grey[1:-1] > grey[2:] + 40) & dark[:-2] & dark[2:]
    longest = max(int(across.sum(axis=0).max()), int(down.sum(axis=1).max()))
    assert longest < 0.1 * grey.shape[0], f"a seam {longest} pixels long"


@pytest.mark.parametrize("name", ["joint", "dashboard"])
@pytest.mark.parametrize("game", ["rps-crash", "random:general-sum:7x3", "random:general-sum:12x2"])
def test_the_joint_heatmaps_colour_bar_is_as_tall_as_its_cells(name, game):
    """The colour bar spans the heatmap's cells, top to bottom. Taken from the axes' room, it
    spanned the axes' box before the cells' equal aspect shrank it: taller than the cells in
    the dashboard, shorter in the figure of its own."""
    from matplotlib.axes import Axes

    from rmviz.formats import load_game

    figure = make_figure(name, record(load_game(game), "rm", iterations=50), "paper")
    figure.canvas.draw()
    (heatmap,) = [ax for ax in figure.findobj(Axes) if ax.collections and ax.child_axes]
    (bar,) = heatmap.child_axes
    assert bar.get_ylabel() == "probability"
    cells, scale = heatmap.get_position(), bar.get_position()
    assert (scale.y0, scale.y1) == pytest.approx((cells.y0, cells.y1), abs=1e-6)
    assert scale.x0 > cells.x1  # beside the cells, not over them


def test_a_last_iterate_drawn_without_its_average_keys_itself():
    """70x70 is above the CE gap's default tracking: its average is not drawn, the last
    iterate's is, faint, in the CE gap's colour, and the legend named no CE gap at all (a
    trial read the teal curve as unexplained). It keys itself then; drawn beside its average,
    the panel's one "faint: last iterate" key still stands for it."""
    from rmviz.games.generators import random_game

    def keys(shape):
        fig = make_figure("gaps", record(random_game("zero-sum", shape, seed=1), "rm", iterations=50))
        return [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]

    big, small = keys((70, 70)), keys((10, 10))
    assert "CE gap, last iterate" in big and "CE gap" not in big
    assert "CE gap" in small and not any("last iterate" in key and "," in key for key in small)
    assert "faint: last iterate" in big and "faint: last iterate" in small
