"""``rmviz solve GAME --save-session F``: the run saved as the window saves it, reopened and
gone on with exactly; a bad destination refused before the run, nothing written."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.cli import main
from rmviz.games import catalog_game
from rmviz.runner.loop import RunLoop
from rmviz.runner.record import record_run
from rmviz.runner.session import read_session
from rmviz.solvers.registry import family_of


@pytest.mark.parametrize(
    ("game", "argv"),
    [
        ("rps", ["--algorithm", "rm+", "--play", "sampled", "--seed", "4"]),
        ("kuhn", ["--algorithm", "mccfr-external"]),
    ],
)
def test_a_solved_run_saved_as_a_session_goes_on_as_if_never_saved(game, argv, tmp_path, capsys):
    path = tmp_path / "lecture"
    assert main(["solve", game, "-n", "3000", "--json", *argv, "--save-session", str(path)]) == 0
    capsys.readouterr()
    session = read_session(tmp_path / "lecture.rmviz-session.json")  # the suffix added
    assert session.iteration == 3000 and session.saved is not None and session.view.tab is None
    family = family_of(session.game)
    unsaved = family.solver(catalog_game(game), session.config)
    trace = record_run(unsaved, 3000)  # the window's grid: the session's trace is that one
    kept_iterations, kept_rows = trace.kept()
    np.testing.assert_array_equal(session.saved.trace_iterations, kept_iterations)
    np.testing.assert_array_equal(session.saved.trace_rows, kept_rows)
    reopened = RunLoop(family.solver(session.game, session.config))
    reopened.restore(session.saved)
    for solver in (unsaved, reopened.solver):
        solver.step(500)
    first, second = unsaved.checkpoint(), reopened.solver.checkpoint()
    assert first.rng == second.rng
    for name, array in first.arrays.items():
        assert np.array_equal(array, second.arrays[name]), name


def test_a_session_into_a_missing_folder_is_refused_before_the_run(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "lecture"
    assert main(["solve", "rps", "-n", "10", "--save-session", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--save-session" in err and "there is no folder" in err
    assert not (tmp_path / "no").exists()
