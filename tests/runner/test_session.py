"""Session files (rmviz.runner.session): what is saved comes back, a reopened run is the same
run, and a bad file is refused with one line naming it and the problem."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rmviz.errors import ReadError
from rmviz.formats import read_game_file, write_json
from rmviz.games import catalog_game
from rmviz.games.generators import random_game
from rmviz.runner.session import (
    FORMAT_VERSION,
    MONTE_CARLO_NOTICE,
    SUFFIX,
    Session,
    View,
    is_session_file,
    read_session,
    session_from_dict,
    session_path,
    session_to_dict,
    write_session,
)
from rmviz.solvers.registry import family_of


def config_fields(config):
    """A config as plain values, to compare configs whose mappings hold lists or tuples."""
    return json.loads(json.dumps(session_to_dict(Session(catalog_game("rps"), config))["solver"]))


def matrix_session() -> Session:
    game = random_game("general-sum", (4, 5), seed=2)
    config = family_of(game).config(
        "discounted-rm", alpha=3.0, play="sampled", seed=11, start={0: [0.7, 0.1, 0.1, 0.1]}
    )
    view = View(
        tab="compare",
        faces={0: (0, 2, 3), 1: (1, 3, 4)},
        presentation=True,
        text_steps=2,
        compared=("rm+", "greedy-rm"),
        dynamics=True,
        dynamics_step=0.5,
    )
    return Session(game, config, 12_345, points_per_decade=50, speed=1000.0, view=view)


def tree_session() -> Session:
    game = catalog_game("kuhn")
    config = family_of(game).config("mccfr-external", seed=3)
    return Session(game, config, 77, view=View(infoset="Qpb", side_tab="average", recorded=True))


@pytest.mark.parametrize("make", [matrix_session, tree_session], ids=["matrix", "tree"])
def test_a_session_comes_back_as_it_was_saved(make, tmp_path):
    session = make()
    path = tmp_path / f"lecture{SUFFIX}"
    write_session(session, path)
    back = read_session(path)
    assert write_json(back.game) == write_json(session.game)  # the game, names and title
    assert type(back.config) is type(session.config)
    assert config_fields(back.config) == config_fields(session.config)
    assert back.config.algorithm == session.config.algorithm and back.config.seed == session.config.seed
    assert (back.iteration, back.points_per_decade, back.speed) == (
        session.iteration,
        session.points_per_decade,
        session.speed,
    )
    assert back.view == session.view and back.notices == ()  # the MCCFR tree too: written now
    data = json.loads(path.read_text())
    assert data["format"] == "rmviz-session" and data["version"] == FORMAT_VERSION == 3
    assert data["game"]["format"] == "rmviz-game"  # the game itself, embedded


def test_the_start_and_parameters_reach_the_config():
    back = session_from_dict(json.loads(json.dumps(session_to_dict(matrix_session()))))
    assert back.config.start == {0: (0.7, 0.1, 0.1, 0.1)}
    assert (
        back.config.alpha == 3.0 and back.config.play == "sampled" and back.config.weighting == "discounted"
    )


@pytest.mark.parametrize("make", [matrix_session, tree_session], ids=["matrix", "tree"])
def test_the_reopened_run_is_the_same_run(make, tmp_path):
    """Runs are deterministic given the config and its seed, however the iterations are
    chunked (the window's worker steps in chunks of its own), so re-running the saved config
    to the saved iteration gives the saved state, array for array."""
    session = make()
    family = session.family
    original = family.solver(session.game, session.config)
    original.step(session.iteration)
    write_session(session, tmp_path / f"s{SUFFIX}")
    back = read_session(tmp_path / f"s{SUFFIX}")
    again = family.solver(back.game, back.config)
    rng = np.random.default_rng(0)
    while again.iteration < back.iteration:
        again.step(min(int(rng.integers(1, 500)), back.iteration - again.iteration))
        again.snapshot(metrics=True)  # publishing does not disturb the run
    assert_same_snapshot(original.snapshot(metrics=True), again.snapshot(metrics=True))


def assert_same_snapshot(one, other):
    """Every array of two snapshots equal (NaN equal to NaN), and their trace values."""
    assert one.iteration == other.iteration
    for name in ("current_strategy", "average_strategy", "cumulative_regret", "average_regret", "joint"):
        a, b = getattr(one, name, None), getattr(other, name, None)
        for x, y in zip(a if isinstance(a, tuple) else [a], b if isinstance(b, tuple) else [b], strict=True):
            assert (x is None and y is None) or np.array_equal(x, y, equal_nan=True), name
    np.testing.assert_array_equal(one.trace_values(), other.trace_values())


def saved_by_version_1(session: Session, path) -> None:
    """Write ``session`` as rmviz wrote it before Monte-Carlo CFR drew its samples anew
    (version 1: the same fields)."""
    data = session_to_dict(session)
    data["version"] = 1
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("algorithm", ["mccfr-external", "mccfr-chance", "mccfr-outcome"])
def test_a_version_1_monte_carlo_session_opens_and_says_its_replay_is_a_new_run(algorithm, tmp_path):
    game = catalog_game("kuhn")
    session = Session(game, family_of(game).config(algorithm, seed=5), 40, view=View(infoset="Qpb"))
    path = tmp_path / f"old{SUFFIX}"
    saved_by_version_1(session, path)
    back = read_session(path)
    assert back.notices == (MONTE_CARLO_NOTICE,)
    assert "\n" not in MONTE_CARLO_NOTICE and "new run with the same seed" in MONTE_CARLO_NOTICE
    assert back.config.algorithm == algorithm and back.config.seed == 5
    assert (back.iteration, back.view) == (40, session.view)
    write_session(back, path)  # saved again: the current version, the run it replays now
    assert json.loads(path.read_text())["version"] == FORMAT_VERSION and read_session(path).notices == ()


@pytest.mark.parametrize(
    "session",
    [
        matrix_session(),  # sampled play: its random stream did not change
        Session(catalog_game("kuhn"), family_of(catalog_game("kuhn")).config("cfr+", seed=5), 40),
        Session(catalog_game("leduc"), family_of(catalog_game("leduc")).config("dcfr"), 3),
    ],
    ids=["matrix-sampled", "cfr+", "dcfr"],
)
def test_a_version_1_session_without_monte_carlo_replays_as_saved_with_no_notice(session, tmp_path):
    path = tmp_path / f"old{SUFFIX}"
    saved_by_version_1(session, path)
    back = read_session(path)
    assert back.notices == ()
    assert config_fields(back.config) == config_fields(session.config) and back.iteration == session.iteration


def test_session_file_names():
    assert is_session_file("a/Lecture.RMVIZ-SESSION.JSON") and not is_session_file("game.json")
    assert session_path("lecture").name == "lecture.rmviz-session.json"
    assert session_path("lecture.json").name == "lecture.rmviz-session.json"
    assert session_path("x.rmviz-session.json").name == "x.rmviz-session.json"


def test_a_game_reader_given_a_session_says_what_it_is(tmp_path):
    path = tmp_path / f"s{SUFFIX}"
    write_session(tree_session(), path)
    with pytest.raises(ReadError, match=r"an rmviz session file, not a game file: open it in the app"):
        read_game_file(path)


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / f"s{SUFFIX}"
    write_session(tree_session(), path)
    before = path.read_text()
    monkeypatch.setattr("rmviz.runner.session.dumps_json", lambda *_a, **_k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        write_session(matrix_session(), path)
    assert path.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == [path.name]


GOOD = session_to_dict(matrix_session())


def changed(**parts):
    """The good session with some of its parts replaced (a part None: removed)."""
    data = json.loads(json.dumps(GOOD))
    for key, value in parts.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return json.dumps(data)


def with_options(**options):
    return changed(solver={"algorithm": "rm", "options": options})


HOSTILE = {
    "not JSON": ("{", "line 1: not valid JSON"),
    "a list": ("[1, 2]", "not an rmviz session file: its top level is a JSON array, not an object"),
    "a game file": (
        json.dumps({"format": "rmviz-game", "version": 1}),
        "not an rmviz session file",
    ),
    "a newer version": (
        changed(version=4),
        "session format version 4 is not supported; this rmviz reads versions 1 to 3",
    ),
    "version 0": (changed(version=0), "session format version 0 is not supported"),
    "version a string": (changed(version="2"), "session format version '2' is not supported"),
    "no version": (changed(version=None), "session format version None is not supported"),
    "no game": (changed(game=None), 'the session holds no "game"'),
    "a broken game": (
        changed(game={"format": "rmviz-game", "version": 1, "players": 3}),
        'its "game": "players"',
    ),
    "NaN": (
        changed(run={"iteration": 1}).replace('"iteration": 1', '"iteration": NaN'),
        "line 1: iteration is NaN; numbers must be finite numbers",
    ),
    "family of the other kind": (changed(family="tree"), '"family" is "tree" but its game is a matrix game'),
    "unknown algorithm": (
        changed(solver={"algorithm": "cfr"}),
        'solver.algorithm is "cfr"; matrix games are solved by rm',
    ),
    "algorithm not a string": (changed(solver={"algorithm": 3}), "solver.algorithm is 3"),
    "solver not an object": (changed(solver=[1]), '"solver" must be an object'),
    "options not an object": (
        changed(solver={"algorithm": "rm", "options": 5}),
        "solver.options must be an object",
    ),
    "an option the preset sets": (
        with_options(plus=True),
        'solver.options has "plus"; a session of matrix games sets play',
    ),
    "seed a boolean": (with_options(seed=True), "solver.options.seed must be a whole number from 0"),
    "seed negative": (with_options(seed=-1), "solver.options.seed must be a whole number from 0"),
    "seed a float": (with_options(seed=1.5), "solver.options.seed must be a whole number"),
    "alpha a string": (with_options(alpha="3"), 'solver.options.alpha must be a number, not "3"'),
    "alpha huge": (with_options(alpha=10**400), "solver.options.alpha is too large"),
    "unknown play": (with_options(play="often"), "unknown play 'often'; choose one of expected, sampled"),
    "play a number": (with_options(play=1), "solver.options.play must be a string"),
    "start keyed by name": (
        with_options(start={"Cat": [1, 0]}),
        "solver.options.start (a player) must be a player number",
    ),
    "start of text": (
        with_options(start={"0": "half"}),
        "solver.options.start.0 must be a list of probabilities",
    ),
    "start with a string": (
        with_options(start={"0": [0.5, "x"]}),
        'solver.options.start.0 must be a number, not "x"',
    ),
    "fixed not an object": (
        with_options(fixed_strategies=[1]),
        "solver.options.fixed_strategies must be an object",
    ),
    "iteration negative": (changed(run={"iteration": -1}), "run.iteration must be a whole number from 0"),
    "iteration a float": (changed(run={"iteration": 1e6}), "run.iteration must be a whole number"),
    "iteration past 2^53": (
        changed(run={"iteration": 2**60}),
        "run.iteration must be a whole number from 0 to",
    ),
    "no points": (
        changed(run={"points_per_decade": 0}),
        "run.points_per_decade must be a whole number from 1",
    ),
    "negative speed": (changed(run={"speed": -5}), "run.speed must be positive"),
    "run not an object": (changed(run="fast"), '"run" must be an object'),
    "unknown tab": (changed(view={"tab": "plots"}), 'view.tab is "plots"; choose one of run, compare, step'),
    "face of two actions": (
        changed(view={"faces": {"0": [0, 1]}}),
        "view.faces.0 must be three different actions",
    ),
    "face repeating an action": (
        changed(view={"faces": {"0": [0, 1, 1]}}),
        "view.faces.0 must be three different",
    ),
    "face past the actions": (changed(view={"faces": {"0": [0, 1, 9]}}), "(0 to 3), not [0,1,9]"),
    "face of a missing player": (changed(view={"faces": {"5": [0, 1, 2]}}), "view.faces names player 6"),
    "presentation a string": (
        changed(view={"presentation": "yes"}),
        "view.presentation must be true or false",
    ),
    "text steps huge": (
        changed(view={"text_steps": 1000}),
        "view.text_steps must be a whole number from -50 to 50",
    ),
    "infoset a number": (changed(view={"infoset": 3}), "view.infoset must be a string"),
    "infoset too long": (
        changed(view={"infoset": "x" * 20_000}),
        "view.infoset is 20,000 characters long; at most 10,000",
    ),
    "alpha not a number": (  # JSON has no NaN: the parser refuses it, naming the field and line
        with_options(alpha=1.5).replace("1.5", "NaN"),
        "line 1: alpha is NaN; numbers must be finite numbers",
    ),
    "compared not a list": (
        changed(view={"compared": "rm"}),
        'view.compared must be a list of algorithm names, not "rm"',
    ),
    "compared another family's": (
        changed(view={"compared": ["rm", "cfr"]}),
        'view.compared is "cfr"; choose',
    ),
    "compared twice": (changed(view={"compared": ["rm", "rm"]}), "view.compared names an algorithm twice"),
    "script not a list": (changed(view={"script": "Rock"}), "view.script must be a list of at most"),
    "script of numbers": (changed(view={"script": [[1, 2]]}), "view.script, iteration 1 must be a string"),
    "script of no players": (changed(view={"script": [[]]}), "view.script, iteration 1, must be a list"),
    "joint not text": (changed(view={"joint": [0.5, 0.5]}), "view.joint must be a string"),
    "dynamics not a flag": (changed(view={"dynamics": "yes"}), "view.dynamics must be true or false"),
    "dynamics step not positive": (
        changed(view={"dynamics_step": -1}),
        "view.dynamics_step must be a positive number",
    ),
    "a tree view of a matrix game": (
        changed(view={"tree_view": {"zoom": 1}}),
        "view.tree_view is the tree window's view",
    ),
}


TREE_GOOD = session_to_dict(Session(catalog_game("kuhn"), family_of(catalog_game("kuhn")).config("cfr")))


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        ({"zoom": 0}, "view.tree_view.zoom must be from 1e-6 to 1e6"),
        ({"centre": [1]}, "view.tree_view.centre must be a list of two numbers"),
        ({"collapsed": [10**6]}, "view.tree_view.collapsed must be a whole number from 0 to"),
        ({"opened": "all"}, "view.tree_view.opened must be a list of the tree's node numbers"),
        ({"whole": 1}, "view.tree_view.whole must be true or false"),
        ([1, 2], "view.tree_view must be an object"),
    ],
)
def test_a_bad_tree_view_is_refused_in_one_line(tree, expected, tmp_path):
    data = json.loads(json.dumps(TREE_GOOD))
    data["view"]["tree_view"] = tree
    path = tmp_path / f"bad{SUFFIX}"
    path.write_text(json.dumps(data))
    with pytest.raises(ReadError, match=expected.replace("(", r"\(").replace("[", r"\[")):
        read_session(path)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_bad_session_file_is_refused_in_one_line(name, tmp_path):
    text, expected = HOSTILE[name]
    path = tmp_path / f"bad{SUFFIX}"
    path.write_text(text)
    with pytest.raises(ReadError) as caught:
        read_session(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and "\n" not in message
    assert expected in message, message


def test_faces_in_a_tree_session_are_refused(tmp_path):
    data = session_to_dict(tree_session())
    data["view"]["faces"] = {"0": [0, 1, 2]}
    path = tmp_path / f"t{SUFFIX}"
    path.write_text(json.dumps(data))
    with pytest.raises(ReadError, match=r"view\.faces are the simplex faces of a matrix game"):
        read_session(path)


def test_what_is_not_a_session_file_is_refused_before_reading(tmp_path):
    with pytest.raises(ReadError, match="no such file"):
        read_session(tmp_path / f"missing{SUFFIX}")
    folder = tmp_path / f"folder{SUFFIX}"
    folder.mkdir()
    with pytest.raises(ReadError, match="is a folder, not a session file"):
        read_session(folder)
    binary = tmp_path / f"binary{SUFFIX}"
    binary.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(ReadError, match="not a text file"):
        read_session(binary)
