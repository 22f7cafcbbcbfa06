"""``rmviz solve --json`` prints strict JSON (no NaN, no Infinity) for payoffs at +-1e150,
the largest games accept, and at 1e-150, with every algorithm of both families."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rmviz.cli import main
from rmviz.formats import write_game_file
from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker
from rmviz.solvers.matrix.config import PRESETS as MATRIX_PRESETS
from rmviz.solvers.tree.config import PRESETS as TREE_PRESETS
from tests.solvers.tree.builders import scaled


def _refuse(constant: str) -> float:
    raise ValueError(f"{constant} is not JSON")


def _numbers(value) -> list[float]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _numbers(v)]
    if isinstance(value, list):
        return [x for v in value for x in _numbers(v)]
    return [float(value)] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


@pytest.mark.parametrize("factor", [1e150, 1e-150])
def test_solve_json_is_strict_json_at_extreme_payoffs(tmp_path, capsys, factor):
    matrix = catalog_game("rps-crash")
    matrix = matrix.with_payoffs(matrix.payoffs * (factor / np.abs(matrix.payoffs).max()))
    games = {
        tmp_path / "matrix.json": (matrix, MATRIX_PRESETS),
        tmp_path / "tree.json": (scaled(kuhn_poker(), factor / 2), TREE_PRESETS),  # Kuhn's |u| <= 2
    }
    for path, (game, presets) in games.items():
        write_game_file(game, path)
        for algorithm in presets:
            assert main(["solve", str(path), "-a", algorithm, "-n", "200", "--json"]) == 0
            report = json.loads(capsys.readouterr().out, parse_constant=_refuse)
            assert np.all(np.isfinite(_numbers(report)))
            assert 0 < report["nash_conv"] <= 4 * factor, algorithm  # in payoff units
