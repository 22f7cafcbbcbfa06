"""Every family in the registry keeps the promises the runner, the CLI and the windows rely
on: its presets build, its solvers publish exactly their trace schema, its choices and
parameters are ones the panel and the CLI know."""

from __future__ import annotations

import numpy as np
import pytest

from rmviz.errors import ConfigError
from rmviz.games.catalog import CATALOG
from rmviz.runner.record import record_run
from rmviz.solvers.columns import Column
from rmviz.solvers.family import CHOICES, PARAMETER_LABELS
from rmviz.solvers.registry import FAMILIES, family_named, family_of, family_of_algorithm, make_solver

GAMES = {"matrix": "rps-crash", "tree": "kuhn"}
CASES = [(family.name, name) for family in FAMILIES for name in family.presets]


def test_every_catalog_kind_is_a_family_and_every_family_has_games():
    kinds = {entry.kind for entry in CATALOG.values()}
    assert kinds == {family.name for family in FAMILIES} == set(GAMES)
    for entry in CATALOG.values():
        assert family_of(entry.build()) is family_named(entry.kind)


def test_presets_are_unique_across_families():
    names = [name for family in FAMILIES for name in family.presets]
    assert len(names) == len(set(names))
    for family in FAMILIES:
        for name in family.presets:
            assert family_of_algorithm(name) is family


def test_descriptions_are_ones_the_panel_and_cli_know():
    for family in FAMILIES:
        assert set(family.choices) <= set(CHOICES)
        assert set(family.parameters) <= set(PARAMETER_LABELS)
        assert set(family.compared) <= set(family.metrics)
        assert set(family.compare_default) <= set(family.presets)
        assert set(family.compare_carries) <= set(family.choices)


@pytest.mark.parametrize(("family_name", "algorithm"), CASES)
def test_each_preset_builds_and_publishes_its_schema(family_name, algorithm):
    family = family_named(family_name)
    game = CATALOG[GAMES[family_name]].build()
    config = family.preset(algorithm)
    assert config.algorithm == algorithm
    assert set(config.parameters()) <= set(family.parameters)
    solver = family.solver(game, config)
    metrics = [c.quantity for c in solver.columns if c.is_metric]
    assert metrics == list(family.metrics)
    assert len(set(solver.columns)) == len(solver.columns)
    trace = record_run(solver, 5)
    snapshot = solver.snapshot()
    assert snapshot.iteration == solver.iteration == 5
    values = snapshot.trace_values()
    assert values.shape == (len(solver.columns),)
    np.testing.assert_array_equal(trace.column(solver.columns[-1])[-1:], values[-1:])
    # the metric columns are the snapshot's metrics
    named = snapshot.metrics.as_dict()
    for column, value in zip(solver.columns, values, strict=False):
        if column.is_metric and named.get(column.quantity) is not None:
            assert value == named[column.quantity]
    # every column has a readable, distinct name
    names = [solver.column_name(c) for c in solver.columns]
    assert len(set(names)) == len(names)
    # compare mode builds the same preset from any panel configuration of the family
    assert (
        family.compare_solver(game, algorithm, family.preset(family.default_algorithm)).config.algorithm
        == algorithm
    )
    solver.reset(1)
    assert solver.iteration == 0


def test_make_solver_routes_by_game_and_algorithm():
    rps, kuhn = CATALOG["rps"].build(), CATALOG["kuhn"].build()
    assert make_solver(rps).config.algorithm == family_named("matrix").default_algorithm
    assert make_solver(kuhn).config.algorithm == family_named("tree").default_algorithm
    as_tree = make_solver(rps, "cfr")  # a matrix game solved as its game tree
    assert family_of(as_tree.game) is family_named("tree")
    with pytest.raises(ConfigError, match="for game trees use cfr"):
        make_solver(kuhn, "rm")
    with pytest.raises(ConfigError, match="play does not apply to game trees"):
        make_solver(kuhn, "cfr", play="sampled")
    with pytest.raises(ConfigError, match="unknown algorithm 'nope'"):
        make_solver(rps, "nope")


def test_a_matrix_game_as_a_tree_reports_the_same_gaps():
    """rps solved by CFR as a tree and by RM as a matrix: simultaneous CFR on a one-shot game
    is regret matching, so both publish the same exploitability column."""
    rps = CATALOG["rps-crash"].build()
    matrix = make_solver(rps, "rm")
    tree = make_solver(rps, "cfr", updates="simultaneous")
    matrix.step(50)
    tree.step(50)
    column = Column("exploitability")
    m = matrix.snapshot().trace_values()[matrix.columns.index(column)]
    t = tree.snapshot().trace_values()[tree.columns.index(column)]
    assert m == pytest.approx(t, rel=1e-9, abs=1e-12)
