"""``rmviz solve --json`` carries the last iterate's distances (``last_*``), recomputed here
from the current strategies it prints; trees on request (``--last-iterate``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rmviz.cli import main
from rmviz.games import catalog_game
from tests.solvers.matrix.test_metrics_last_iterate import exact_last


def solve(capsys, *argv: str) -> dict:
    assert main(["solve", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_matrix_json_has_the_current_profiles_gaps(capsys):
    report = solve(capsys, "rps-crash", "-a", "rm+", "-n", "300")
    current = [np.array(s) for s in report["current_strategy"]]
    expected = exact_last(catalog_game("rps-crash").payoffs, current)
    for key, value in expected.items():
        assert report[key] == pytest.approx(float(value), rel=1e-12, abs=1e-15), key
    assert report["last_exploitability"] > report["exploitability"]  # RM+'s current cycles
    off = solve(capsys, "rps-crash", "-a", "rm+", "-n", "300", "--no-last-iterate")
    assert all(off[key] is None for key in expected)


def test_tree_json_has_them_on_request(capsys):
    assert solve(capsys, "kuhn", "-a", "cfr+", "-n", "50")["last_exploitability"] is None
    report = solve(capsys, "kuhn", "-a", "cfr+", "-n", "50", "--last-iterate")
    assert report["last_exploitability"] == pytest.approx(report["last_nash_conv"] / 2, rel=1e-15)
    assert report["last_exploitability"] > report["exploitability"] > 0


def test_the_trace_file_has_the_columns(tmp_path, capsys):
    path = tmp_path / "run.csv"
    assert main(["solve", "rps", "-a", "rm", "-n", "50", "--trace", str(path)]) == 0
    header = next(line for line in path.read_text().splitlines() if not line.startswith("#"))
    assert {"last_exploitability", "last_cce_gap", "last_ce_gap", "last_nash_conv"} <= set(header.split(","))


def test_the_text_summary_shows_the_last_iterate_where_tracked(capsys):
    assert main(["solve", "rps-crash", "-a", "rm+", "-n", "100"]) == 0
    text = capsys.readouterr().out
    assert "last iterate: exploitability" in text and "last iterate: CE gap" in text
    assert main(["solve", "kuhn", "-a", "cfr+", "-n", "20"]) == 0
    assert "last iterate" not in capsys.readouterr().out
    assert main(["solve", "kuhn", "-a", "cfr+", "-n", "20", "--last-iterate"]) == 0
    assert "last iterate: exploitability" in capsys.readouterr().out
