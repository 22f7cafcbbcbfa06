"""The OpenSpiel walk of issue 34 (records into arrays, one generator for the walk and the
count) builds the very tree the walk before it built: every array and
table equal (tests/formats/reference_flat_walk.py); its parts agree with their definitions."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rmviz.errors import RmvizError
from rmviz.games.flat_tree import CHANCE_KIND, FlatTree, FlatTreeBuilder
from tests.formats.strategies import game_trees

pytest.importorskip("pyspiel")

from rmviz.formats import openspiel
from rmviz.formats.openspiel import infoset_label, load_pyspiel_game
from tests.formats import reference_flat_walk
from tests.formats.reference_flat_walk import reference_walk

ARRAYS = (
    "kind parent depth move_index moveset chance_set infoset own_before terminal payoffs "
    "infoset_player infoset_moveset infoset_first_slot"
).split()
TABLES = ("n_players", "movesets", "chance_probabilities", "infoset_label", "labels")


def assert_same_flat(a: FlatTree, b: FlatTree) -> None:
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    for name in TABLES:
        assert getattr(a, name) == getattr(b, name), name


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn_poker",
        "kuhn_poker(players=3)",
        "leduc_poker",
        "liars_dice(dice_sides=3)",
        "goofspiel(num_cards=3,imp_info=True)",
        "goofspiel(num_cards=3)",
        "tiny_hanabi",
        "matrix_rps",
    ],
)
def test_the_walk_builds_the_tree_the_walk_before_it_built(spec):
    game = load_pyspiel_game(spec)
    new = openspiel._walk(game, spec, 10**6, None)
    old = reference_walk(game, spec, 10**6, None)
    assert_same_flat(new.flat, old.flat)
    assert (new.infosets, new.infoset_moves, new.player_names, new.title, new.description) == (
        old.infosets,
        old.infoset_moves,
        old.player_names,
        old.title,
        old.description,
    )


def test_the_walk_refuses_and_reports_as_before(monkeypatch):
    game = load_pyspiel_game("leduc_poker")
    for limit in (9_456, 9_457):  # the count of histories known passes the limit at the same one
        outcomes = []
        for walk in (openspiel._walk, reference_walk):
            try:
                outcomes.append(walk(game, "leduc", limit, None).n_nodes)
            except RmvizError as error:
                outcomes.append(str(error))
        assert outcomes[0] == outcomes[1]
    monkeypatch.setattr(openspiel, "PROGRESS_EVERY", 1_000)
    monkeypatch.setattr(reference_flat_walk, "PROGRESS_EVERY", 1_000)
    seen: list[list[int]] = [[], []]
    for calls, walk in zip(seen, (openspiel._walk, reference_walk), strict=True):
        with pytest.raises(openspiel.Cancelled, match="stopped after 3,000 histories"):
            walk(game, "leduc", 10**6, lambda made, calls=calls: calls.append(made) or made < 3_000)
    assert seen[0] == seen[1] == [1_000, 2_000, 3_000]


def slow_label(information_state: str) -> str:
    """infoset_label's definition: the lines stripped, the empty ones dropped, joined."""
    lines = [line.strip() for line in information_state.splitlines()]
    return " | ".join(line for line in lines if line) or "(start)"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab 1\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\xa0"))))
def test_one_line_labels_take_the_short_way_to_the_same_label(text):
    assert infoset_label(text) == slow_label(text)


@settings(max_examples=40, deadline=None)
@given(game_trees(), st.data())
def test_records_append_what_single_histories_append(game, data):
    """A tree appended a history at a time and again as records, in two blocks."""
    one = game.flat
    records = FlatTreeBuilder(one.n_players)
    for moves in one.movesets:
        records.intern_moves(moves)
    for probabilities in one.chance_probabilities:
        records.intern_chance(probabilities)
    for i, player in enumerate(one.infoset_player.tolist()):
        records.infoset(player, one.infoset_label[i], one.movesets[int(one.infoset_moveset[i])])
    ref = np.where(one.kind == CHANCE_KIND, one.chance_set, one.infoset)
    cut = data.draw(st.integers(0, one.n_nodes))
    terminals = int((one.kind[:cut] == 2).sum())
    records.append_records(one.kind[:cut], one.moveset[:cut], ref[:cut], one.payoffs[:terminals])
    assert records.complete == (cut == one.n_nodes)
    records.append_records(one.kind[cut:], one.moveset[cut:], ref[cut:], one.payoffs[terminals:])
    again = records.finish()
    for name in ARRAYS:
        assert np.array_equal(getattr(again, name), getattr(one, name)), name
    assert (again.movesets, again.chance_probabilities, again.infoset_label) == (
        one.movesets,
        one.chance_probabilities,
        one.infoset_label,
    )


def test_records_out_of_their_tables_or_after_the_end_are_refused_whole():
    builder = FlatTreeBuilder(1)
    moves = builder.intern_moves(("a", "b"))
    info = builder.infoset(0, "i", ("a", "b"))
    kind = np.array([1, 2, 2], dtype=np.int8)
    for bad_moveset, bad_ref, bad_kind in ((5, info, 1), (moves, 3, 1), (moves, 0, 0), (moves, info, 7)):
        with pytest.raises(ValueError, match="not in its table"):
            builder.append_records(
                np.array([bad_kind, 2, 2], dtype=np.int8),
                np.array([bad_moveset, -1, -1]),
                np.array([bad_ref, -1, -1]),
                np.zeros((2, 1)),
            )
    with pytest.raises(ValueError, match="complete"):
        builder.append_records(
            np.array([1, 2, 2, 2], dtype=np.int8), np.zeros(4), np.zeros(4), np.zeros((3, 1))
        )
    with pytest.raises(ValueError, match="payoffs of shape"):
        builder.append_records(kind, np.zeros(3), np.zeros(3), np.zeros((1, 1)))
    assert len(builder) == 0
    builder.append_records(kind, np.array([moves, -1, -1]), np.array([info, 9, 9]), np.array([[1.0], [2.0]]))
    assert builder.complete and builder.finish().payoffs.tolist() == [[1.0], [2.0]]


def test_the_bench_floor_walks_every_history_and_the_row_shows_it():
    from rmviz.bench_walk import bench_walk, pyspiel_calls

    for spec in ("kuhn_poker", "leduc_poker", "goofspiel(num_cards=3,imp_info=True)"):
        assert pyspiel_calls(load_pyspiel_game(spec)) == openspiel.openspiel_game(spec).n_nodes
    lines: list[str] = []
    bench_walk(lines.append, ("kuhn_poker",))
    assert lines[-2].startswith("kuhn_poker") and "58" in lines[-2] and lines[-1].strip().startswith("(")


def test_the_collector_is_back_as_it_was_after_the_walk_even_when_it_fails():
    game = load_pyspiel_game("kuhn_poker")
    assert gc.isenabled()
    openspiel._walk(game, "kuhn", 10**6, None)
    assert gc.isenabled()
    with pytest.raises(RmvizError, match="more than 10 histories"):
        openspiel._walk(game, "kuhn", 10, None)
    assert gc.isenabled()
    gc.disable()
    try:
        openspiel._walk(game, "kuhn", 10**6, None)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_walk_leaves_the_collector_nothing_per_information_set(monkeypatch):
    """Objects made while the collector is paused and still alive when it resumes are all
    in its youngest generation, and its first pass visits each (tic-tac-toe's 295,000
    information sets: ~0.15 s). The walk makes each set in the builder as it meets it, which
    keeps its keys in a dictionary per player and each move list once, not a tuple per
    information set."""
    paused = openspiel.no_cycle_collection
    young: list[int] = []

    @contextlib.contextmanager
    def counted() -> Iterator[None]:
        with paused():
            yield
            young.append(len(gc.get_objects(generation=0)))

    monkeypatch.setattr(openspiel, "no_cycle_collection", counted)
    game = load_pyspiel_game("leduc_poker")
    gc.collect()
    openspiel._walk(game, "leduc", 10**6, None)
    assert young[0] < 936 / 4  # Leduc's information sets; before: 3 tuples for each
