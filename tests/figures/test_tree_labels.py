"""The tree figure's labels (issue 29): drawn at a beamer frame's width by default, no
information-set arc passes through a label and no two labels overlap, measured on the
rendered figure (matplotlib's own text extents), for every catalog tree and a 3-player
Kuhn; the rule itself (rmviz.present.tree_labels) is checked on boxes and segments."""

from __future__ import annotations

import itertools
import re

import pytest

from rmviz.figures import record
from rmviz.figures.registry import default_size, frame_width, make_figure
from rmviz.formats import load_game
from rmviz.games import catalog_game
from rmviz.present.tree_labels import FRAME_WIDTH_CM, Box, LabelSpace, Movable, segment_meets_box, short_label
from tests.solvers.tree.builders import long_label, long_labels

TREES = ["kuhn", "leduc", "teaching-tree", "kuhn-3"]
OPENSPIEL = {"kuhn-3": "openspiel:kuhn_poker(players=3)", "liars-dice": "openspiel:liars_dice"}


def game_of(name):
    if name in OPENSPIEL:
        pytest.importorskip("pyspiel")
        return load_game(OPENSPIEL[name])
    return catalog_game(name)


@pytest.fixture(scope="module", params=TREES)
def drawn(request):
    """The tree figure of a short run, drawn, with its renderer."""
    fig = make_figure("tree", record(game_of(request.param), "cfr", iterations=10))
    renderer = fig._get_renderer()  # what the layout measured with
    fig.draw(renderer)
    return fig, renderer


def label_boxes(fig, renderer):
    ax = fig.axes[0]
    boxes = []
    for text in ax.texts:
        if text.get_visible() and text.get_text():
            e = text.get_window_extent(renderer)
            boxes.append((text.get_text(), Box(e.x0, e.y0, e.x1, e.y1)))
    return boxes


def arcs(fig):
    ax = fig.axes[0]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--" and len(line.get_xydata()) > 2]
    return [line.get_transform().transform(line.get_xydata()) for line in dashed]


def test_the_tree_figure_fits_a_beamer_frame_by_default():
    assert default_size("tree")[0] == pytest.approx(FRAME_WIDTH_CM / 2.54) == frame_width()
    assert default_size("tree", width=6.0)[0] == 6.0


def test_no_arc_passes_through_a_label(drawn):
    fig, renderer = drawn
    crossed = [
        text
        for points in arcs(fig)
        for text, box in label_boxes(fig, renderer)
        if any(segment_meets_box(p, q, box) for p, q in itertools.pairwise(points))
    ]
    assert crossed == []


def test_no_two_labels_overlap(drawn):
    """Chance labels included: Leduc's fans of five ran together ("Qh (1/5)Ks (1/5)")."""
    fig, renderer = drawn
    boxes = label_boxes(fig, renderer)
    overlapping = [(a, b) for (a, p), (b, q) in itertools.combinations(boxes, 2) if p.meets(q)]
    assert overlapping == []
    page = Box(0, 0, fig.bbox.width, fig.bbox.height)
    assert [text for text, box in boxes if not page.holds(box)] == []  # none cut at the edge


def test_a_folded_tree_says_how_much_of_it_is_drawn():
    """Rows too wide for the page are folded; the title says how many histories are drawn,
    as the window's note does (Leduc at the default width: its chance deals only)."""
    leduc = make_figure("tree", record(catalog_game("leduc"), "cfr", iterations=5))
    assert "of 9,457 histories drawn, +n folded" in leduc.axes[0].get_title()
    kuhn = make_figure("tree", record(catalog_game("kuhn"), "cfr", iterations=5))
    assert "histories drawn" not in kuhn.axes[0].get_title()
    # the legend names what is drawn: Leduc's folded tree shows no node of player 2
    named = lambda fig: [t.get_text() for t in fig.axes[0].get_legend().get_texts()]  # noqa: E731
    assert named(leduc) == ["Player 1", "chance", "one information set (or one label)"]
    assert named(kuhn) == ["Player 1", "Player 2", "chance", "one information set (or one label)"]


def test_kuhn_draws_its_information_sets_and_every_chance_label():
    fig = make_figure("tree", record(catalog_game("kuhn"), "cfr", iterations=10))
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert sum(text in ("J\n1/3", "Q\n1/3", "K\n1/3") for text in texts) == 3
    assert len(arcs(fig)) >= 6  # J, Q, K, and the pass-bet sets: neighbours in their rows


def test_a_move_too_tall_for_two_lines_keeps_its_probability_on_one():
    """Where a move's label and its probability do not fit as two lines (Kuhn's last bets,
    in a 1600x900 figure: "b" alone under a pass) they are tried on one line ("b 0.53")
    before the move is drawn alone; 39 of Kuhn's 48 moves showed their probability, 45 now."""
    import re

    fig = make_figure("tree", record(catalog_game("kuhn"), "cfr", 1000), "slides", (1600 / 150, 900 / 150))
    moves = [t.get_text() for t in fig.axes[0].texts if re.fullmatch(r"[pb]([ \n][0-9.]+)?", t.get_text())]
    assert len(moves) == 48
    assert sum(" " in move for move in moves) >= 1
    assert sum(any(c.isdigit() for c in move) for move in moves) >= 45


def kuhn_numbers_left_out(texts):
    """Kuhn's move probabilities that ``texts`` (a drawing's labels) do not show, counted
    from the labels themselves: its 48 decision moves (``p 0.53``) and 9 chance moves
    (``J\n1/3``), each either drawn with its number, drawn alone or not drawn."""
    decisions = [t for t in texts if re.fullmatch(r"[pb]([ \n][0-9.]+)?", t)]
    chance = [t for t in texts if re.fullmatch(r"[JQK][ \n]1/[23]", t)]
    assert len(decisions) <= 48
    return 48 - sum(any(c.isdigit() for c in t) for t in decisions) + 9 - len(chance)


def test_the_figure_says_what_it_leaves_out_in_a_free_corner():
    """Kuhn in a narrow figure: moves a column apart show no probability; the figure says how
    many in a corner that holds no label (measured with the others by
    test_no_two_labels_overlap), the labels left where they are; a figure that shows every
    number says nothing."""
    run = record(catalog_game("kuhn"), "cfr", iterations=1000)
    for width, says in ((4.25, True), (6.0, True), (14.0, False)):
        fig = make_figure("tree", run, width=width)
        renderer = fig._get_renderer()
        fig.draw(renderer)
        texts = [t.get_text() for t in fig.axes[0].texts]
        missing = kuhn_numbers_left_out(texts)
        notes = [t for t in texts if t.startswith("left out for room")]
        assert (missing > 0) == says
        assert notes == ([f"left out for room: {missing:,} probabilities"] if says else [])
        boxes = label_boxes(fig, renderer)
        overlapping = [(a, b) for (a, p), (b, q) in itertools.combinations(boxes, 2) if p.meets(q)]
        assert overlapping == []


def test_an_information_set_label_counts_as_left_out_only_where_no_node_shows_it():
    from rmviz.present.tree_labels import Plan

    plan = Plan([], [], {"infoset": 2, "probability": 1, "payoffs": 0}, LabelSpace(1.0))
    assert plan.note() == "left out for room: 1 probability, 2 information sets' labels"
    assert Plan([], [], {}, LabelSpace(1.0)).note() is None
    # Kuhn at the default width draws each pass-bet set's label at one of its two nodes only
    fig = make_figure("tree", record(catalog_game("kuhn"), "cfr", iterations=1000))
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count("Jpb") == 1 and not any("information set" in t for t in texts)


def test_a_label_takes_the_first_free_place_and_never_crosses_a_line():
    space = LabelSpace(cell=1.0, gap=0.1)
    space.take(Box(0, 0, 1, 1))
    space.take_line([(2.0, -1.0), (2.0, 3.0)])
    label = Movable([[Box(0.5, 0.5, 1.5, 1.5), Box(1.5, 0, 2.5, 1), Box(3, 0, 4, 1)]])
    assert label.settle(space) and label.chosen == (0, 2)  # the node, then the line
    crowded = Movable([[Box(0.2, 0.2, 0.8, 0.8)], [Box(0.9, 0.9, 1.0, 1.0)]])
    assert not crowded.settle(space) and crowded.chosen is None  # not drawn, never over another


def test_the_gap_parts_labels_that_would_touch():
    space = LabelSpace(cell=1.0, gap=0.1)
    space.take(Box(0, 0, 1, 1))
    assert not space.free(Box(1.05, 0, 2, 1)) and space.free(Box(1.15, 0, 2, 1))


def test_a_long_information_set_label_is_drawn_shortened():
    """OpenSpiel's information-state strings run to 120 characters: none fits the frame
    whole, so each set is labelled by its first characters (``short_label``) where they fit."""
    names = [long_label(k) for k in range(2)]
    game = long_labels(len(names))
    fig = make_figure("tree", record(game, "cfr", iterations=5))
    renderer = fig._get_renderer()
    fig.draw(renderer)
    texts = [text for text, _ in label_boxes(fig, renderer)]
    assert not set(names) & set(texts)
    assert {short_label(name) for name in names} <= set(texts)
    boxes = label_boxes(fig, renderer)
    assert [(a, b) for (a, p), (b, q) in itertools.combinations(boxes, 2) if p.meets(q)] == []


def test_a_move_label_meets_no_other_edge():
    """Liar's Dice's six rolls under its root: each label drawn sits by its own edge and
    crosses no other, or is left out ("Roll 2" sat on the third edge, "Roll 5" by the sixth)."""
    fig = make_figure("tree", record(game_of("liars-dice"), "cfr", iterations=5))
    renderer = fig._get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    edges = []
    for line in ax.lines:
        points = line.get_transform().transform(line.get_xydata())
        if line.get_linestyle() == "-" and len(points) == 2:
            edges.append((tuple(points[0]), tuple(points[1])))
    top = max(max(p[1], q[1]) for p, q in edges)
    from_root = sorted(
        (e for e in edges if max(e[0][1], e[1][1]) == top), key=lambda e: min(e, key=lambda p: p[1])[0]
    )
    assert len(from_root) == 6
    drawn = [(text, box) for text, box in label_boxes(fig, renderer) if text.startswith("Roll")]
    assert drawn
    for text, box in drawn:
        k = int(text.split()[1]) - 1
        assert not any(segment_meets_box(p, q, box) for j, (p, q) in enumerate(from_root) if j != k), text


def test_a_long_information_set_label_takes_three_title_lines_at_most():
    """The strategies figure's panels are small: a title naming an OpenSpiel information set
    (120 characters) took six lines of one; it keeps three, the last cut with "…"."""
    from rmviz.figures.tree import TITLE_LINES

    fig = make_figure("strategies", record(long_labels(2), "cfr", iterations=5))
    fig.draw(fig._get_renderer())
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    long = [t for t in titles if "Current player" in t]
    assert long and all(t.count("\n") < TITLE_LINES and t.endswith("…") for t in long)
    whole = "A: average strategy at root (dashed: nearest equilibrium)"
    assert whole in [t.replace("\n", " ") for t in titles]  # a short one whole (on two lines)


@pytest.mark.parametrize("name", ["kuhn", "leduc", "teaching-tree"])
def test_neighbour_links_have_no_inner_node_of_their_row_between_them(name):
    """:func:`neighbour_links` (bisection over each row's inner nodes) against its
    definition, node by node, on the layout every drawing shares."""
    from rmviz.present.tree_layout import infoset_links, neighbour_links, tree_layout, visible_nodes
    from rmviz.solvers.tree.compiled_tree import compile_tree

    tree = compile_tree(catalog_game(name))
    nodes = visible_nodes(tree, set())
    place = tree_layout(tree, nodes, set())
    links = infoset_links(tree, nodes, place)

    def between(a, b):
        (xa, row), (xb, _) = place[a], place[b]
        return [
            h
            for h in nodes
            if place[h][1] == row and min(xa, xb) < place[h][0] < max(xa, xb) and tree.kind[h] != 2
        ]

    near = neighbour_links(tree, nodes, place, links)
    assert near == [link for link in links if not between(*link)]
    assert 0 < len(near) < len(links) or name == "teaching-tree"
