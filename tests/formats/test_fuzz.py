"""The file fuzzer: valid games, written, mutated, read back.

Every mutated file must either read as a valid game that solves with finite numbers, or be
refused with a :class:`ReadError` (one line, naming the file), quickly: no other exception, no
hang, no silent change of a valid file. And every game written and read back is the same game,
in every format.

The default run tries a few hundred files per format (about ten seconds). A release runs the
long budget::

    RMVIZ_FUZZ_EXAMPLES=20000 python -m pytest tests/formats/test_fuzz.py -p no:cacheprovider

(docs/reliability.md records the last long run.)
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rmviz.errors import ReadError
from rmviz.formats import read_efg, read_json, read_nfg, write_efg, write_json, write_nfg
from rmviz.games.trees import normal_form_tree
from rmviz.solvers.registry import make_solver
from tests.cpu_guard import cpu_under
from tests.formats.strategies import any_labels, game_trees, matrix_games, mutations

EXAMPLES = int(os.environ.get("RMVIZ_FUZZ_EXAMPLES", "80"))
CPU_SECONDS_PER_FILE = 30.0  # a hang guard; typical reads take milliseconds

fuzz = settings(
    max_examples=EXAMPLES,
    deadline=None,  # guarded below in CPU time, which holds under load
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


def read_or_refuse(reader, text: str, name: str):
    """Read ``text``; a ReadError is a clean refusal. Anything else fails the test."""
    with cpu_under(CPU_SECONDS_PER_FILE):
        try:
            game = reader(text, name)
        except ReadError as error:
            message = str(error)
            assert message.startswith(name) and "\n" not in message.strip(), message
            game = None
    return game


CORRELATION_GAPS = ("cce_gap", "efcce_gap", "efce_gap")  # a tree run's, None where not tracked


def tracked(solver) -> np.ndarray:
    """The solver's trace values but those its config does not track (NaN there): the last
    iterate's where it keeps none, a tree run's correlation gaps where it has no entries for
    them (Monte-Carlo CFR: ``CFRSolver.entries``), a matrix run's CE gap where
    ``track_ce`` is off. (Hypothesis once drew a Monte-Carlo CFR session and read its
    untracked gaps as a failure.)"""

    def kept(column) -> bool:
        quantity = column.quantity
        if quantity.startswith("last_"):
            return solver.last_iterate
        if quantity in CORRELATION_GAPS and hasattr(solver, "entries"):
            return solver.entries is not None
        return quantity != "ce_gap" or getattr(solver, "track_ce", True)

    values = solver.snapshot().trace_values()
    return values[np.array([kept(c) for c in solver.columns])]


def assert_solves(game) -> None:
    solver = make_solver(game)
    solver.step(3)
    values = tracked(solver)
    assert np.isfinite(values).all(), values


@fuzz
@given(data=st.data())
def test_mutated_nfg_files_read_or_are_refused(data):
    text = write_nfg(data.draw(matrix_games()))
    game = read_or_refuse(read_nfg, data.draw(mutations(text)), "fuzz.nfg")
    if game is not None:
        assert_solves(game)


@fuzz
@given(data=st.data())
def test_mutated_efg_files_read_or_are_refused(data):
    tree = data.draw(st.one_of(game_trees(), matrix_games().map(normal_form_tree)))
    game = read_or_refuse(read_efg, data.draw(mutations(write_efg(tree))), "fuzz.efg")
    if game is not None:
        assert_solves(game)


@fuzz
@given(data=st.data())
def test_mutated_json_files_read_or_are_refused(data):
    game = data.draw(st.one_of(matrix_games(any_labels), game_trees(any_labels)))
    read = read_or_refuse(read_json, data.draw(mutations(write_json(game))), "fuzz.json")
    if read is not None:
        assert_solves(read)


ROUND_TRIPS = settings(max_examples=max(50, EXAMPLES // 2), deadline=None, database=None)


@ROUND_TRIPS
@given(matrix_games())
def test_matrix_games_round_trip_through_nfg(game):
    assert read_nfg(write_nfg(game)) == game


@ROUND_TRIPS
@given(st.one_of(matrix_games(any_labels), game_trees(any_labels)))
def test_games_round_trip_through_json(game):
    again = read_json(write_json(game))
    assert write_json(again) == write_json(game)


@ROUND_TRIPS
@given(game_trees())
def test_game_trees_round_trip_through_efg(game):
    again = read_efg(write_efg(game))
    assert write_efg(again) == write_efg(game)
    assert again.infosets == game.infosets


@fuzz
@given(data=st.data())
def test_mutated_session_files_read_or_are_refused(data):
    """Session files (rmviz.runner.session) are read with the game readers' care: a mutated
    one reads as a session whose run starts (its saved run put back, or refused in one line
    as the window refuses it), or is refused in one line naming the file."""
    from rmviz.errors import RmvizError
    from rmviz.formats.rmviz_json import dumps_json, parse_json
    from rmviz.runner.loop import RunLoop
    from rmviz.runner.record import record_run
    from rmviz.runner.session import Session, session_from_dict, session_to_dict
    from rmviz.runner.trace import SavedRun
    from rmviz.solvers.registry import family_of

    game = data.draw(st.one_of(matrix_games(any_labels), game_trees(any_labels)))
    family = family_of(game)
    algorithm = data.draw(st.sampled_from(sorted(family.presets)))
    config = family.config(algorithm, seed=data.draw(st.integers(0, 2**31 - 1)))
    session = Session(game, config, data.draw(st.integers(0, 10**6)))
    if data.draw(st.booleans()):  # with its run (session format 3)
        solver = family.solver(game, config)
        trace = record_run(solver, data.draw(st.integers(0, 30)))
        checkpoint = dataclasses.replace(solver.checkpoint(), elapsed=0.0)  # the same text each draw
        saved = SavedRun(checkpoint, *trace.kept())
        session = Session(game, config, solver.iteration, saved=saved)
    text = data.draw(mutations(dumps_json(session_to_dict(session))))
    read = read_or_refuse(
        lambda t, name: session_from_dict(parse_json(t, name, "numbers"), name), text, "fuzz.json"
    )
    if read is not None:
        loop = RunLoop(read.family.solver(read.game, read.config))
        if read.saved is not None:
            try:
                loop.restore(read.saved)
            except (RmvizError, ValueError) as error:  # the window says it and keeps its run
                assert "\n" not in str(error)
        loop.solver.step(2)
        assert np.isfinite(tracked(loop.solver)).all()
