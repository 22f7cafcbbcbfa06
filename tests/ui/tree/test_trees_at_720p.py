"""Trees on a projector (issue 29): every catalog tree, OpenSpiel's Kuhn and a 3-player Kuhn
open at 1280x720 and 1920x1080 with the root and the chosen information set in view and
labels at a legible size (the whole tree where that stays legible); no two labels of the
tree view overlap (Leduc's chance labels ran together at 1920x1080: "Qh (1/5)Ks (1/5)");
Kuhn's cards read J, Q, K, OpenSpiel's keep OpenSpiel's labels."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from rmviz.formats import load_game
from rmviz.games import catalog_game
from rmviz.games.catalog import CATALOG
from rmviz.ui.common.run_window import StartOptions
from rmviz.ui.tree.view import LEGIBLE_POINTS, TEXT_POINTS
from tests.ui.test_projector import settle
from tests.ui.tree.conftest import make_tree_window

TREES = [entry.id for entry in CATALOG.values() if entry.kind == "tree"]
OPENSPIEL = ["openspiel:kuhn_poker", "openspiel:kuhn_poker(players=3)"]
SCREENS = [(1280, 720), (1920, 1080)]


def game_of(spec):
    if spec.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
        return load_game(spec)
    return catalog_game(spec)


def opened(qtbot, spec, screen, presentation=False):
    window = make_tree_window(qtbot, game_of(spec))
    window.show()
    window.start(StartOptions(size=screen, presentation=presentation))
    settle(qtbot)
    return window


def shown(view):
    return view.mapToScene(view.viewport().rect()).boundingRect()


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("spec", TREES + OPENSPIEL)
def test_a_tree_opens_legible_with_its_root_and_chosen_set_in_view(qtbot, spec, screen):
    window = opened(qtbot, spec, screen)
    try:
        view = window.view
        assert view.transform().m11() * TEXT_POINTS * view.text_scale >= LEGIBLE_POINTS - 1e-6
        area = shown(view)
        members = [h for h in view.positions if window.tree.node_infoset[h] == window.infoset]
        assert area.contains(view.positions[0]) and any(area.contains(view.positions[h]) for h in members)
        if not view.horizontalScrollBar().maximum() and not view.verticalScrollBar().maximum():
            assert area.adjusted(-1, -1, 1, 1).contains(view.scene().itemsBoundingRect())  # fitted whole
    finally:
        window.shutdown()


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_two_labels_of_leduc_overlap(qtbot, screen, presentation):
    window = opened(qtbot, "leduc", screen, presentation)
    try:
        tree, view = window.tree, window.view
        chance = {"\n".join((tree.move_label[h], p)) for h in range(tree.n_nodes) for p in ("1/5", "1/6")}
        labels = [
            (item.text(), item.sceneBoundingRect())
            for item in view.scene().items()
            if isinstance(item, QGraphicsSimpleTextItem) and item.text()
        ]
        assert sum(text in chance for text, _ in labels) >= 24  # of 36, with their probabilities
        # apart: boxes that merely touched read as one label
        grown = [(text, box.adjusted(-0.9, -0.9, 0.9, 0.9)) for text, box in labels]
        overlapping = [(a, b) for (a, p), (b, q) in itertools.combinations(grown, 2) if p.intersects(q)]
        assert overlapping == []
    finally:
        window.shutdown()


def test_kuhn_reads_j_q_k_and_openspiels_kuhn_its_own_labels():
    assert catalog_game("kuhn").infosets[0][:2] == ("J", "Jpb")
    pytest.importorskip("pyspiel")
    assert "0" in load_game("openspiel:kuhn_poker").infosets[0][0]


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_a_set_of_many_moves_leaves_the_plots_their_height(qtbot, presentation):
    """Liar's Dice's first sets have 12 moves: the table of the set's numbers, 12 rows high,
    left the plots under 60 pixels at 1280x720 in presentation mode. It is now at most
    TABLE_SHARE of the window high (its other rows scrolled to)."""
    from rmviz.games.extensive_form import ExtensiveFormGame, decision, terminal
    from rmviz.ui.tree.infoset_panel import TABLE_SHARE

    moves = [
        (f"m{k}", decision(1, "reply", [("a", terminal(k, -k)), ("b", terminal(-k, k))])) for k in range(12)
    ]
    window = make_tree_window(qtbot, ExtensiveFormGame(decision(0, "many", moves), ("A", "B"), "many moves"))
    try:
        window.show()
        window.start(StartOptions(size=(1280, 720), presentation=presentation))
        settle(qtbot)
        window.infosets.choose(window.tree.infoset_label.index("many"))
        qtbot.waitUntil(lambda: window.detail.table.rowCount() == 12)
        qtbot.waitUntil(lambda: window.detail.table.height() <= TABLE_SHARE * window.height())
        assert window.plots.height() >= 0.2 * window.height()  # 164 and 220 pixels
    finally:
        window.shutdown()


def test_choosing_a_folded_information_set_opens_the_tree_to_it(qtbot):
    """Leduc opens with its deeper rows folded: choosing ``Kh:rr`` (``--infoset``, the list)
    opens the path to its first node and brings a node of the set into view."""
    window = opened(qtbot, "leduc", (1280, 720))
    try:
        tree, view = window.tree, window.view
        infoset = tree.infoset_label.index("Kh:rr")
        assert not view._drawn(infoset)  # folded at first
        window.infosets.choose(infoset)
        qtbot.waitUntil(lambda: bool(view._drawn(infoset)))
        settle(qtbot)
        assert any(shown(view).contains(view.positions[h]) for h in view._drawn(infoset))
    finally:
        window.shutdown()


def test_a_wide_window_gives_its_extra_width_to_the_tree(qtbot):
    """Up to 1,480 px the list, the tree and the side tabs share the width in proportion (the
    projector's layout unchanged); a wider window gives the rest to the tree (Kuhn's had 916
    of 1,920 px, the side tabs 614), until the person moves the splitter's handles."""
    from rmviz.ui.tree.window import CENTRE

    window = opened(qtbot, "kuhn", (1920, 1080))
    try:
        centre = window.centre
        assert centre.sizes()[0] == CENTRE[0] and centre.sizes()[2] == CENTRE[2]
        assert centre.sizes()[1] > CENTRE[1] + 400
        window.resize(1280, 720)
        qtbot.waitUntil(lambda: sum(centre.sizes()) < sum(CENTRE))
        small = centre.sizes()
        assert small[1] > small[2] > small[0] and small[0] <= CENTRE[0] and small[2] < CENTRE[2]
        centre.setSizes([300, small[1] - 100, small[2] + 80])  # the person drags the handles
        centre.splitterMoved.emit(300, 1)
        chosen = centre.sizes()
        window.resize(1920, 1080)
        qtbot.waitUntil(lambda: sum(centre.sizes()) > sum(CENTRE))
        assert centre.sizes()[1] < CENTRE[1] + 400 and centre.sizes()[0] > chosen[0]  # theirs, scaled
    finally:
        window.shutdown()
