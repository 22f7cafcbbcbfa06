"""Numbers as people read them (issue 29): rounding of an exact 0 prints as 0 (welfare, the
gaps, the LP's zero-sum values, by :func:`rmviz.solvers.scale.reported_values`), ``--json``
writes shortest floats and no ``-0``, and the default start is named where it is shown."""

from __future__ import annotations

import json

import pytest

from rmviz.cli import main
from rmviz.games import catalog_game
from rmviz.solvers import exact
from rmviz.solvers.matrix.start import default_start_note
from tests.shortest import check_json


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize(
    ("game", "algorithm", "n"), [("rps-crash", "rm+", "7"), ("rps", "predictive-rm+", "7")]
)
def test_welfare_of_a_zero_sum_game_is_0_not_the_sums_rounding(capsys, game, algorithm, n):
    """The welfare of these runs summed to -3.4e-17 and -9.5e-18: 0 in JSON and in the table."""
    report = check_json(run(capsys, "solve", game, "-a", algorithm, "-n", n, "--json"))
    assert report["welfare"] == 0.0
    assert all(abs(v) == 0.0 or abs(v) > 1e-12 for v in report["value"])
    text = run(capsys, "solve", game, "-a", algorithm, "-n", n)
    assert "e-1" not in text and "e-2" not in text
    assert [line.split()[-1] for line in text.splitlines() if "social welfare" in line] == ["0"]


def test_the_lps_float_zero_sum_value_of_a_symmetric_game_is_0(capsys, monkeypatch):
    """Unverified (a game too large for fractions), the LP's value is a float: RPS's is 0."""
    monkeypatch.setattr(exact, "_verified_saddle", lambda *args: None)
    text = run(capsys, "equilibria", "rps-crash")
    assert "Zero-sum game: value Row 0, Column 0" in text
    report = json.loads(run(capsys, "equilibria", "rps-crash", "--json"))
    assert report["zero_sum"]["values"] == [0.0, 0.0] and not report["zero_sum"]["exact"]


def test_step_names_the_catalogs_start(capsys, tmp_path):
    """pi^1 of RPS is the catalog's documented start, said in the header; a file equal to it too."""
    note = "pi^1: the catalog's start for rps: 1/2, 1/4, 1/4; 1/4, 1/2, 1/4 (--start chooses another)"
    assert note in run(capsys, "step", "rps", "-n", "1").splitlines()[:2]
    path = tmp_path / "rps.nfg"
    run(capsys, "convert", "rps", str(path))
    assert note in run(capsys, "step", str(path), "-n", "1").splitlines()[:2]
    assert "pi^1" not in run(capsys, "step", "rps", "-n", "1", "--start", "1=1/3,1/3,1/3").splitlines()[1]
    assert "catalog's start" not in run(capsys, "step", "battle-of-partners", "-n", "1")
    fixed = run(capsys, "step", "rps", "-n", "1", "--fix", "1=1/3,1/3,1/3")
    assert "pi^1: the catalog's start for rps: ; 1/4, 1/2, 1/4" in fixed


def test_default_start_note_in_fractions():
    assert (
        default_start_note(catalog_game("rps")) == "the catalog's start for rps: 1/2, 1/4, 1/4; 1/4, 1/2, 1/4"
    )
    assert default_start_note(catalog_game("three-player-pennies")).endswith("3/4, 1/4; 1/2, 1/2; 1/4, 3/4")
    assert default_start_note(catalog_game("battle-of-partners")) is None
    assert default_start_note(catalog_game("rps"), fixed=[0, 1]) is None
