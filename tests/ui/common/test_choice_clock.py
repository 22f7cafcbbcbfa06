"""A running window chooses a big game's actions drawn anew at most once a second, a still
one at every redraw (rmviz.ui.common.run_control.ChoiceClock)."""

from __future__ import annotations

import pytest

from rmviz.games import catalog_game
from rmviz.ui.common.run_control import CHOOSE_EVERY_S, ChoiceClock
from tests.clock import Clock
from tests.ui.matrix.conftest import make_window
from tests.ui.tree.conftest import make_tree_window


def test_a_choice_is_due_at_once_when_still_or_forced_and_once_a_second_while_running():
    clock = Clock()
    clock.now = 100.0  # 100.9 + 1.0 - 100.9 is 1.0 exactly: the interval's edge is due
    choices = ChoiceClock(clock)
    assert choices.due(running=True)  # the run's first redraw
    assert not choices.due(running=True)
    clock.now += 0.9 * CHOOSE_EVERY_S
    assert not choices.due(running=True)
    assert choices.due(running=True, force=True)
    assert choices.due(running=False) and choices.due(running=False)  # a still window: always
    clock.now += CHOOSE_EVERY_S
    assert choices.due(running=True)
    assert not choices.due(running=True)
    choices.expire()  # a view now draws another set or face
    assert choices.due(running=True)


@pytest.mark.parametrize("kind", ["matrix", "tree"])
def test_the_windows_choose_when_due_and_a_fresh_run_at_once(qtbot, tmp_path, kind):
    if kind == "matrix":
        window = make_window(qtbot, tmp_path, game="rps-crash")
    else:
        window = make_tree_window(qtbot, catalog_game("kuhn"))
    try:
        window.run.toggle()  # running
        loop = window.run.thread.loop
        qtbot.waitUntil(lambda: loop.running and loop.latest()[1].iteration > 0, timeout=60_000)
        chosen = []
        views = window.dashboard if kind == "matrix" else window.plots
        views.choose = chosen.append
        clock = Clock()
        window.run.choices = ChoiceClock(clock)
        for _ in range(3):
            list(window.draw(loop, loop.latest()[1], False))
        assert len(chosen) == 1  # the first redraw only
        list(window.draw(loop, loop.latest()[1], True))  # forced
        clock.now += CHOOSE_EVERY_S
        list(window.draw(loop, loop.latest()[1], False))
        assert len(chosen) == 3
        if kind == "tree":  # another information set: its moves drawn chosen with no wait
            window.choose_infoset(1)
            views = window.plots
            views.choose = chosen.append
        else:  # another simplex face
            window._face_changed()
        list(window.draw(loop, loop.latest()[1], False))
        assert len(chosen) == 4
        window.run.restart(run=True)  # a fresh run chooses at its first redraw, with no wait
        loop = window.run.thread.loop
        list(window.draw(loop, loop.latest()[1], False))
        assert len(chosen) == 5
    finally:
        window.shutdown()
