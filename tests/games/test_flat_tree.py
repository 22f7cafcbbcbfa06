"""Flat trees (rmviz.games.flat_tree): the array validation accepts exactly the trees the
node-by-node validation accepts, with the same information sets; nodes and arrays convert
both ways without loss; the builder refuses shapes that are not one tree."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rmviz.errors import GameError
from rmviz.games import extensive_form
from rmviz.games.extensive_form import (
    CHANCE,
    DECISION,
    TERMINAL,
    ExtensiveFormGame,
    Node,
    flat_of_nodes,
    nodes_of,
)
from rmviz.games.flat_tree import FlatTreeBuilder, check
from rmviz.games.trees import kuhn_poker, leduc_poker
from tests.formats.strategies import game_trees
from tests.solvers.tree.builders import binary_tree, hidden_chain


def same_nodes(a: Node, b: Node) -> bool:
    """Equal trees: kinds, moves, players, labels, probabilities and payoffs, node by node."""
    pairs = [(a, b)]
    while pairs:
        x, y = pairs.pop()
        fields = ("kind", "moves", "player", "infoset", "probabilities", "payoffs", "label")
        if any(getattr(x, f) != getattr(y, f) for f in fields) or len(x.children) != len(y.children):
            return False
        pairs.extend(zip(x.children, y.children, strict=True))
    return True


@st.composite
def loose_trees(draw: st.DrawFn) -> tuple[Node, int]:
    """Small trees whose information sets are drawn at random from a few labels: many break
    perfect recall or give one set different moves; some chance nodes, payoffs, players or
    labels are out of range (what a person editing a tree gets wrong)."""
    n = draw(st.integers(1, 3))
    budget = [draw(st.integers(1, 10))]

    def build(depth: int) -> Node:
        if depth >= 4 or budget[0] <= 0 or (depth > 0 and draw(st.booleans())):
            value = draw(st.sampled_from([0.0, 1.0, -2.5, -0.0, float("nan"), 1e300]))
            count = n if draw(st.integers(0, 9)) else n + 1
            return Node(TERMINAL, payoffs=(value,) * count)
        budget[0] -= 1
        k = draw(st.integers(0, 3) if not draw(st.integers(0, 9)) else st.integers(1, 3))
        moves = tuple(draw(st.lists(st.sampled_from("abc"), min_size=k, max_size=k)))
        children = tuple(build(depth + 1) for _ in range(k))
        if draw(st.integers(0, 4)) == 0:
            p = draw(st.sampled_from([1.0, 0.5, -0.5, 0.999999]))
            return Node(CHANCE, moves, children, probabilities=(p,) + (0.0,) * (k - 1) if k else ())
        player = draw(st.integers(0, n)) if not draw(st.integers(0, 9)) else draw(st.integers(0, n - 1))
        return Node(
            DECISION, moves, children, player=player, infoset=draw(st.sampled_from(["x", "y", "z", ""]))
        )

    return build(0), n


def validate_nodes(root: Node, n: int):
    """The node-by-node validation alone: its result, or its message."""
    game = ExtensiveFormGame.__new__(ExtensiveFormGame)
    game._root, game._flat = root, None
    game.player_names = tuple(f"P{i}" for i in range(n))
    try:
        return extensive_form._validate(game), None
    except GameError as error:
        return None, str(error)


def checks_agree(drawn: tuple[Node, int]) -> None:
    root, n = drawn
    expected, message = validate_nodes(root, n)
    flat = flat_of_nodes(root, n)
    checked = check(flat) if flat is not None else None
    assert (checked is None) == (expected is None), message
    if checked is not None:
        assert checked == expected
    # the game gives the node validation's message, or the same information sets
    try:
        game = ExtensiveFormGame(root, tuple(f"P{i}" for i in range(n)))
    except GameError as error:
        assert str(error) == message
    else:
        assert (game.infosets, game.infoset_moves) == expected


def quick(examples: int):
    return settings(
        max_examples=examples, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )


@quick(40)
@given(loose_trees())
def test_the_array_check_accepts_what_the_node_validation_accepts(drawn):
    checks_agree(drawn)


@pytest.mark.slow
@quick(1000)
@given(loose_trees())
def test_the_array_check_accepts_what_the_node_validation_accepts_long(drawn):
    checks_agree(drawn)


@quick(15)
@given(game_trees())
def test_nodes_and_arrays_convert_both_ways(game):
    flat = flat_of_nodes(game.root, game.n_players)
    assert flat is not None
    assert same_nodes(nodes_of(flat), game.root)
    again = ExtensiveFormGame.from_flat(flat, game.player_names, game.title)
    assert (again.infosets, again.infoset_moves) == (game.infosets, game.infoset_moves)
    assert same_nodes(again.root, game.root)


@pytest.mark.parametrize("build", [kuhn_poker, leduc_poker, lambda: hidden_chain(30), lambda: binary_tree(5)])
def test_built_in_trees_round_trip(build):
    game = build()
    flat = game.flat
    assert flat.n_nodes == sum(1 for _ in game.nodes()) == game.n_nodes
    assert same_nodes(nodes_of(flat), game.root)
    assert flat.nbytes() < 80 * flat.n_nodes


@pytest.mark.parametrize("build", [kuhn_poker, leduc_poker, lambda: binary_tree(5)])
def test_one_reference_column_per_history(build):
    """Memory: the flat tree keeps seven per-history columns (``kind`` int8, six int32) and the
    payoff rows; ``chance_set``, ``infoset`` and ``terminal`` are ``ref`` by kind, -1 elsewhere."""
    flat = build().flat
    n = flat.n_nodes
    columns = [v for v in vars(flat).values() if isinstance(v, np.ndarray) and v.shape[:1] == (n,)]
    assert sum(c.nbytes for c in columns) == n * (1 + 6 * 4)
    assert flat.nbytes() == n * (1 + 6 * 4) + flat.payoffs.nbytes
    for kind, name in enumerate(("chance_set", "infoset", "terminal")):
        column = getattr(flat, name)
        assert column.dtype == np.int32
        assert column.tolist() == [r if k == kind else -1 for k, r in zip(flat.kind, flat.ref, strict=True)]


def test_shared_nodes_and_refusals_keep_their_messages():
    leaf = Node(TERMINAL, payoffs=(1.0,))
    shared = Node(DECISION, ("a", "b"), (leaf, leaf), player=0, infoset="i")
    with pytest.raises(GameError, match="reached along two paths"):
        ExtensiveFormGame(shared, ("P",))
    chain = Node(
        DECISION, ("a",), (Node(DECISION, ("b",), (leaf,), player=0, infoset="j"),), player=0, infoset="i"
    )
    forgetful = Node(
        CHANCE,
        ("h", "t"),
        (chain, Node(DECISION, ("b",), (Node(TERMINAL, payoffs=(0.0,)),), 0, "j")),
        probabilities=(0.5, 0.5),
    )
    with pytest.raises(GameError, match="perfect recall is required"):
        ExtensiveFormGame(forgetful, ("P",))


def test_the_builder_refuses_what_is_not_one_tree():
    builder = FlatTreeBuilder(1)
    with pytest.raises(ValueError, match="payoffs"):
        builder.terminal_node((1.0, 2.0))
    builder.decision(0, "i", ("a",))
    with pytest.raises(ValueError, match="incomplete"):
        builder.finish()
    builder.terminal_node((1.0,))
    assert builder.complete
    with pytest.raises(ValueError, match="complete"):
        builder.terminal_node((1.0,))
    flat = builder.finish()
    assert flat.n_nodes == 2 and flat.parent.tolist() == [-1, 0]


@pytest.mark.slow
def test_a_deep_chain_builds_without_recursion():
    depth = 50_000
    builder = FlatTreeBuilder(1)
    for level in range(depth):
        builder.decision(0, f"i{level}", ("stop", "go"))
        builder.terminal_node((float(level),))
    builder.terminal_node((0.0,))
    game = ExtensiveFormGame.from_flat(builder.finish(), ("P",))
    assert game.n_nodes == 2 * depth + 1
    assert int(game.flat.depth.max()) == depth


def reference_structure(builder: FlatTreeBuilder):
    """Parents, depths, move indices and last own moves by the one-pass stack walk that
    FlatTreeBuilder.finish used before its array version (kept here as the reference)."""
    count = len(builder.kind)
    parent, depth, move_index, own_before = [-1] * count, [0] * count, [-1] * count, [-1] * count
    widths = [*builder.widths, 0]
    kinds, movesets, refs = builder.kind.tolist(), builder.moveset.tolist(), builder.ref.tolist()
    players, first_slots, n = builder.infoset_player.tolist(), builder.infoset_first_slot.tolist(), builder.n
    last_own = [-1] * n
    stack: list[list[int]] = []
    for node in range(count):
        if node:
            top = stack[-1]
            while not top[1]:
                stack.pop()
                if top[4] >= 0:
                    last_own[top[4]] = top[5]
                top = stack[-1]
            move = top[2]
            top[1] -= 1
            top[2] = move + 1
            if top[4] >= 0:
                last_own[top[4]] = top[3] + move
            parent[node], depth[node], move_index[node] = top[0], len(stack), move
        width = widths[movesets[node]]
        if kinds[node] == 1:
            player = players[refs[node]]
            if 0 <= player < n:
                own_before[node] = last_own[player]
                if width:
                    stack.append([node, width, 0, first_slots[refs[node]], player, last_own[player]])
                continue
            own_before[node] = -2
        if width:
            stack.append([node, width, 0, -1, -1, -1])
    return parent, depth, move_index, own_before


def same_structure(flat, builder) -> None:
    expected = reference_structure(builder)
    got = tuple(a.tolist() for a in (flat.parent, flat.depth, flat.move_index, flat.own_before))
    assert got == expected
    assert all(a.dtype == np.int32 for a in (flat.parent, flat.depth, flat.move_index, flat.own_before))


def built(root: Node, n: int):
    """flat_of_nodes with its builder kept (None when the nodes are not one tree)."""
    kept = []
    original = extensive_form.FlatTreeBuilder

    class Keeping(original):  # type: ignore[misc, valid-type]
        def __init__(self, n_players: int) -> None:
            super().__init__(n_players)
            kept.append(self)

    extensive_form.FlatTreeBuilder = Keeping
    try:
        flat = flat_of_nodes(root, n)
    finally:
        extensive_form.FlatTreeBuilder = original
    return flat, kept[0]


@quick(60)
@given(loose_trees())
def test_the_array_structure_is_the_stack_walks(drawn):
    """Parents, depths, moves and last own moves, also with players out of range and
    decisions whose moves differ from their set's."""
    root, n = drawn
    flat, builder = built(root, n)
    if flat is not None:
        same_structure(flat, builder)


@pytest.mark.parametrize("build", [kuhn_poker, leduc_poker, lambda: hidden_chain(30), lambda: binary_tree(6)])
def test_the_array_structure_of_built_in_trees(build):
    game = build()
    flat, builder = built(game.root, game.n_players)
    same_structure(flat, builder)


def test_a_chain_deeper_than_the_doubling_passes_matter():
    builder = FlatTreeBuilder(2)
    for level in range(3000):
        builder.decision(level % 2, f"i{level}", ("stop", "go"))
        builder.terminal_node((float(level), 0.0))
    builder.terminal_node((0.0, 0.0))
    same_structure(builder.finish(), builder)


def test_blocks_append_what_single_histories_append():
    one, block = FlatTreeBuilder(2), FlatTreeBuilder(2)
    for builder in (one, block):
        builder.infoset(0, "i", ("a", "b"))
        builder.infoset(1, "j", ("x", "y", "z"))
    one.decision_at(0, ("a", "b"))
    one.decision_at(1, ("x", "y", "z"))
    for k in range(3):
        one.terminal_node((k, -k))
    one.decision_at(0, ("a", "b"))
    one.terminal_node((5.0, 6.0))
    one.terminal_node((7.0, 8.0))
    terminal = np.array([0, 0, 1, 1, 1], dtype=np.uint8)
    block.append_block(terminal, np.array([0, 1, -1, -1, -1]), np.array([[0.0, 0.0], [1, -1], [2, -2]]))
    assert not block.complete
    with pytest.raises(ValueError, match="complete"):  # three histories after the last one
        block.append_block(
            np.array([0, 1, 1, 1], dtype=np.uint8), np.array([0, -1, -1, -1]), np.zeros((3, 2))
        )
    assert len(block) == 5  # nothing appended
    block.append_block(
        np.array([0, 1, 1], dtype=np.uint8), np.array([0, -1, -1]), np.array([[5.0, 6], [7, 8]])
    )
    assert block.complete
    a, b = one.finish(), block.finish()
    for field in (
        "kind",
        "parent",
        "depth",
        "move_index",
        "moveset",
        "infoset",
        "terminal",
        "own_before",
        "payoffs",
    ):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
