"""The matrix window under failure: solver exceptions in the worker, malformed files,
structural edits while running, many run cycles."""

from __future__ import annotations

import numpy as np

from rmviz.games import catalog_game


def scaled(game_id: str, factor: float):
    game = catalog_game(game_id)
    return game.with_payoffs(game.payoffs * factor)


def test_an_exception_in_the_worker_stops_the_run_and_shows_a_message(window, qtbot, monkeypatch):
    """Any exception the solver raises in the worker thread (here NumPy's LinAlgError, which
    internal RM raised on payoffs of 1e14 before its rates were rescaled): the run stops, the
    button says Run, the message shows; game, edits and trace stay."""
    window.set_game(scaled("rps-crash", 2.0), "Scale")
    game = window.document.game
    solver, real_step, calls = window.run.thread.loop.solver, window.run.thread.loop.solver.step, []

    def failing_step(iterations: int = 1) -> None:
        calls.append(iterations)
        if len(calls) > 3:
            raise np.linalg.LinAlgError("Singular matrix")
        real_step(iterations)

    monkeypatch.setattr(solver, "step", failing_step)
    window.run.toggle()
    qtbot.waitUntil(lambda: bool(window.errors), timeout=60_000)
    assert "LinAlgError" in window.errors[-1]
    assert window.run_button.text() == "Run" and not window.run.thread.loop.running
    assert window.document.game is game and window.document.can_undo()
    assert window.run.thread.loop.trace_data(()).iterations.size > 0  # the iterations before it
    assert window.run.thread.is_alive()  # and answers the next Run or Reset
    assert len(window.errors) == 1  # shown once
