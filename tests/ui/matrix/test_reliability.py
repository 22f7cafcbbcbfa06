"""The matrix window under failure: solver exceptions in the worker, malformed files,
structural edits while running, many run cycles."""

from __future__ import annotations

import pytest

from rmviz.games import catalog_game


def scaled(game_id: str, factor: float):
    game = catalog_game(game_id)
    return game.with_payoffs(game.payoffs * factor)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NaN on the way to the LinAlgError
def test_an_exception_in_the_worker_stops_the_run_and_shows_a_message(window, qtbot):
    """Internal regret matching on payoffs of 1e20 raises NumPy's LinAlgError in the worker
    thread: the run stops, the button says Run, the message shows; game, edits and trace stay."""
    window.set_game(scaled("rps-crash", 1e20), "Scale")
    game = window.document.game
    window.panel.algorithm.setCurrentIndex(window.panel.algorithm.findData("internal-rm"))
    window.toggle_run()
    qtbot.waitUntil(lambda: bool(window.errors), timeout=10_000)
    assert "LinAlgError" in window.errors[-1]
    assert window.run_button.text() == "Run" and not window.thread.loop.running
    assert window.document.game is game and window.document.can_undo()
    assert window.thread.loop.trace_columns(())[0].size > 0  # the iterations before it
    assert window.thread.is_alive()  # and answers the next Run or Reset
    assert len(window.errors) == 1  # shown once
