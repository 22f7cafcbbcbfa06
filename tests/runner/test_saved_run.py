"""A run inside a session file (rmviz.runner.saved_run): written and read back bit for bit,
gone on with as if never saved, and every bad field refused in one line naming it."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from rmviz.errors import ReadError
from rmviz.games import catalog_game
from rmviz.games.generators import random_game
from rmviz.runner.loop import RunLoop
from rmviz.runner.saved_run import decode_array, encode_array
from rmviz.runner.session import SUFFIX, Session, View, read_session, session_to_dict, write_session
from rmviz.solvers.registry import MATRIX, TREE


def run_to(family, game, config, iterations, points_per_decade=50):
    """A paused loop whose solver ran ``iterations``, its trace recorded as the window's is."""
    loop = RunLoop(family.solver(game, config), points_per_decade=points_per_decade)
    while loop.solver.iteration < iterations:
        count = max(1, min(iterations, loop.trace.next_iteration) - loop.solver.iteration)
        loop.solver.step(count)
        loop.trace.add(loop.solver.iteration, loop.solver.snapshot().trace_values())
    return loop


CASES = {
    "matrix sampled": (
        MATRIX,
        random_game("general-sum", (4, 3), seed=1),
        MATRIX.config("discounted-rm", play="sampled", seed=5),
    ),
    "tree external sampling": (TREE, catalog_game("kuhn"), TREE.config("mccfr-external", seed=2)),
    "tree dcfr": (TREE, catalog_game("leduc"), TREE.config("dcfr")),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_saved_run_comes_back_bit_for_bit_and_goes_on_alike(case, tmp_path):
    family, game, config = CASES[case]
    loop = run_to(family, game, config, 300)
    saved = loop.saved_run()
    path = tmp_path / f"run{SUFFIX}"
    write_session(Session(game, config, 300, points_per_decade=50, saved=saved), path)
    back = read_session(path).saved
    assert back is not None and back.checkpoint.rng == saved.checkpoint.rng
    assert (back.checkpoint.iteration, back.checkpoint.seed) == (300, config.seed)
    assert back.checkpoint.elapsed == saved.checkpoint.elapsed
    for name, array in saved.checkpoint.arrays.items():
        assert back.checkpoint.arrays[name].tobytes() == array.tobytes()  # bits, -0.0 and all
    np.testing.assert_array_equal(back.trace_iterations, saved.trace_iterations)
    np.testing.assert_array_equal(back.trace_rows, saved.trace_rows)

    reopened = RunLoop(family.solver(game, config), points_per_decade=50)
    reopened.restore(back)
    for going in (loop, reopened):
        going.solver.step(77)
        going.trace.add(going.solver.iteration, going.solver.snapshot().trace_values())
    first, second = loop.solver.checkpoint(), reopened.solver.checkpoint()
    for name, array in first.arrays.items():
        assert np.array_equal(array, second.arrays[name]), name
    assert first.rng == second.rng and first.iteration == second.iteration == 377
    np.testing.assert_array_equal(loop.trace.kept()[0], reopened.trace.kept()[0])
    np.testing.assert_array_equal(loop.trace.kept()[1], reopened.trace.kept()[1])


def test_arrays_travel_as_their_bytes():
    for array in (
        np.array([0.1, -0.0, 1e-310, 2.0**60]),
        np.arange(6, dtype=np.int64).reshape(2, 3),
        np.zeros((0, 4)),
    ):
        back = decode_array(json.loads(json.dumps(encode_array(array))), "a", ("float64", "int64"))
        assert back.dtype == array.dtype and back.shape == array.shape and back.tobytes() == array.tobytes()


GAME = catalog_game("rps")
CONFIG = MATRIX.config("rm", play="sampled", seed=1)
GOOD = session_to_dict(Session(GAME, CONFIG, 40, saved=run_to(MATRIX, GAME, CONFIG, 40).saved_run()))


def with_state(change):
    data = json.loads(json.dumps(GOOD))
    change(data["state"])
    return data


def kept_iterations(state):
    return decode_array(state["trace"]["iterations"], "", ("int64",))


def array_field(name, **fields):
    return lambda state: state["arrays"][name].update(fields)


BAD_STATE = {
    "an empty state": (lambda s: s.clear(), "state.iteration must be 40"),
    "another iteration": (lambda s: s.update(iteration=39), "state.iteration must be 40"),
    "seed a string": (lambda s: s.update(seed="1"), "state.seed must be a whole number"),
    "elapsed negative": (lambda s: s.update(elapsed=-1), "state.elapsed must be a number of seconds"),
    "arrays a list": (lambda s: s.update(arrays=[]), "state.arrays must be an object"),
    "an array's dtype": (array_field("regret/0", dtype="int8"), "state.arrays.regret/0.dtype must be one of"),
    "an array's shape": (
        array_field("regret/0", shape=[4]),
        "state.arrays.regret/0 holds 32 base64 characters",
    ),
    "a shape of text": (array_field("regret/0", shape="3"), "state.arrays.regret/0.shape must be a list"),
    "not base64": (array_field("regret/0", base64="!" * 32), "state.arrays.regret/0.base64 is not base64"),
    "an extra key": (array_field("regret/0", order="F"), "state.arrays.regret/0 must be an object {dtype"),
    "NaN in the state": (
        array_field("regret/0", base64=base64.b64encode(np.array([np.nan, 0, 0]).tobytes()).decode()),
        "state.arrays.regret/0 holds a value that is not a number of at most 1e150",
    ),
    "a state past 1e150": (
        array_field("regret/0", base64=base64.b64encode(np.array([1e151, 0, 0]).tobytes()).decode()),
        "state.arrays.regret/0 holds a value that is not a number of at most 1e150",
    ),
    "trace missing": (lambda s: s.pop("trace"), "state.trace must be an object"),
    "trace iterations going back": (
        lambda s: s["trace"].update(iterations=encode_array(np.flip(kept_iterations(s)))),
        "state.trace.iterations must increase from 1 to at most 40",
    ),
    "trace past the run": (
        lambda s: s["trace"].update(iterations=encode_array(kept_iterations(s) + 100)),
        "state.trace.iterations must increase from 1 to at most 40",
    ),
    "a row too few": (
        lambda s: s["trace"].update(iterations=encode_array(kept_iterations(s)[:-1])),
        "state.trace must hold one row per iteration",
    ),
    "an rng of another kind": (
        lambda s: s["rng"].update(bit_generator="MT19937"),
        "state.rng must be a PCG64 generator state",
    ),
    "an rng state too large": (
        lambda s: s["rng"]["state"].update(state=2**130),
        "state.rng must be a PCG64 generator state",
    ),
}


@pytest.mark.parametrize("name", list(BAD_STATE))
def test_a_bad_saved_run_is_refused_in_one_line_naming_the_field(name, tmp_path):
    change, expected = BAD_STATE[name]
    path = tmp_path / f"bad{SUFFIX}"
    path.write_text(json.dumps(with_state(change)))
    with pytest.raises(ReadError) as caught:
        read_session(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    assert expected in message, message


def test_a_session_without_its_run_still_opens_to_be_re_run(tmp_path):
    data = json.loads(json.dumps(GOOD))
    data.pop("state")
    path = tmp_path / f"plain{SUFFIX}"
    path.write_text(json.dumps(data))
    assert read_session(path).saved is None


def test_after_a_recorded_step_the_run_before_it_is_saved(tmp_path):
    game, config = catalog_game("kuhn"), TREE.config("cfr")
    saved = run_to(TREE, game, config, 10).saved_run()
    path = tmp_path / f"recorded{SUFFIX}"
    write_session(Session(game, config, 11, view=View(recorded=True), saved=saved), path)
    assert read_session(path).saved.checkpoint.iteration == 10
    write_session(Session(game, config, 12, view=View(recorded=True), saved=saved), path)
    with pytest.raises(
        ReadError, match=r"state.iteration must be 11 \(run.iteration, less a recorded step\)"
    ):
        read_session(path)


@pytest.mark.parametrize(
    ("compare_state", "expected"),
    [
        ([1], "compare_state must be an object {algorithm: its run}"),
        ({"cfr": {}}, 'compare_state (an algorithm) is "cfr"; choose one of rm'),
        ({"rm+": {"iteration": -1}}, "compare_state.rm+.iteration must be a whole number from 0"),
        ({"rm+": {**GOOD["state"], "seed": None}}, "compare_state.rm+.seed must be a whole number"),
    ],
)
def test_a_bad_compare_tab_run_is_refused_in_one_line(compare_state, expected, tmp_path):
    data = json.loads(json.dumps(GOOD))
    data["compare_state"] = compare_state
    path = tmp_path / f"bad{SUFFIX}"
    path.write_text(json.dumps(data))
    with pytest.raises(ReadError) as caught:
        read_session(path)
    assert expected in str(caught.value) and "\n" not in str(caught.value)


def test_compare_tab_runs_of_their_own_iterations_come_back(tmp_path):
    runs = {
        name: run_to(MATRIX, GAME, MATRIX.config(name, seed=1), n).saved_run()
        for name, n in (("rm+", 25), ("rm", 60))
    }
    path = tmp_path / f"compare{SUFFIX}"
    write_session(Session(GAME, CONFIG, 0, compared_runs=runs), path)
    back = read_session(path).compared_runs
    assert {name: run.checkpoint.iteration for name, run in back.items()} == {"rm+": 25, "rm": 60}
    np.testing.assert_array_equal(back["rm"].trace_rows, runs["rm"].trace_rows)
