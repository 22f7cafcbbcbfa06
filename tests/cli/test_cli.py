"""The command line, driven as a person would (in-process, and once as a real process)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from rmviz.cli import main
from rmviz.formats import read_game_file
from rmviz.solvers.jit import COMPILING


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_openspiels_games_and_help_says_how_to_name_them(capsys):
    """A new user found ``openspiel:`` only in an error message: ``rmviz games`` lists the
    OpenSpiel games that walk into a tree here, and the help names every kind of GAME."""
    pytest.importorskip("pyspiel")
    code, out, _ = run(capsys, "games")
    assert code == 0 and "openspiel:NAME" in out
    listed = out.split("NAME one of", 1)[1]
    assert all(name in listed for name in ("kuhn_poker", "leduc_poker", "liars_dice", "goofspiel"))
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "openspiel:NAME(PARAMS)" in out and "random:KIND:SHAPE" in out


def test_games_lists_the_catalog(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    for game_id in (
        "rps-crash",
        "traffic-lights",
        "battle-of-partners",
        "shapley",
        "three-player-pennies",
    ):
        assert game_id in out
    assert "random:KIND:SHAPE" in out
    # each section's descriptions start in one column (Leduc's "468+468 infosets" pushed its
    # description one column right of the other trees')
    from rmviz.games.catalog import CATALOG

    for ids in ([e for e in CATALOG.values() if not e.is_tree], [e for e in CATALOG.values() if e.is_tree]):
        rows = {
            line.split()[0]: line for line in out.splitlines() if line.split()[:1] in ([e.id] for e in ids)
        }
        starts = {rows[e.id].index(e.description) for e in ids}
        assert len(rows) == len(ids) and len(starts) == 1, starts


def test_solve_json_has_the_documented_fields(capsys):
    code, out, err = run(
        capsys,
        "solve",
        "rps-crash",
        "--algorithm",
        "predictive-rm+",
        "--iterations",
        "3000",
        "--json",
    )
    assert code == 0 and err == ""
    report = json.loads(out)
    for key in (
        "game",
        "algorithm",
        "iterations",
        "players",
        "average_strategy",
        "current_strategy",
        "exploitability",
        "nash_conv",
        "cce_gap",
        "ce_gap",
        "eps_bound",
        "welfare",
        "value",
        "seconds",
        "device",
    ):
        assert key in report
    assert report["iterations"] == 3000
    assert report["device"] == "cpu"
    np.testing.assert_allclose(report["average_strategy"][0], [0.25, 0.5, 0.25], atol=2e-3)
    assert report["exploitability"] == pytest.approx(report["nash_conv"] / 2)


def test_solve_summary_table(capsys):
    code, out, _ = run(
        capsys,
        "solve",
        "battle-of-partners",
        "-a",
        "internal-rm",
        "-n",
        "2000",
        "--play",
        "sampled",
    )
    assert code == 0
    assert "Cinema" in out and "Dee" in out
    assert "CE gap" in out and "exploitability (NashConv/n)" in out


def test_solve_random_game_and_greedy_options(capsys):
    code, out, _ = run(
        capsys,
        "solve",
        "random:general-sum:4x4x4:seed=2",
        "-a",
        "greedy-rm",
        "--play",
        "sampled",
        "--floor",
        "0.25",
        "-n",
        "500",
        "--json",
    )
    report = json.loads(out)
    assert code == 0 and report["config"]["greedy_floor"] == 0.25
    assert len(report["average_strategy"]) == 3


def test_fixed_opponent_from_the_command_line(capsys):
    code, out, _ = run(capsys, "solve", "rps", "--fix", "2=0.4,0.3,0.3", "-n", "2000", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["average_strategy"][0][1] > 0.9  # Paper beats a Rock-heavy opponent
    assert report["average_strategy"][1] == [0.4, 0.3, 0.3]


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_trace_files(capsys, tmp_path, suffix):
    path = tmp_path / f"trace{suffix}"
    code, _, _ = run(capsys, "solve", "rps-crash", "-n", "1000", "--trace", str(path), "--every", "100")
    assert code == 0
    # the run-data format of the app's export: config and seed, then the trace schema's columns
    if suffix == ".csv":
        lines = path.read_text().splitlines()
        assert any(line.startswith("# config: ") for line in lines)
        rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
        columns = {name: [float(row[name]) for row in rows] for name in rows[0]}
    else:
        data = json.loads(path.read_text())
        assert data["config"]["algorithm"] == "rm" and data["seed"] == 0
        columns = data["trace"]
    assert [int(t) for t in columns["iteration"]] == list(range(100, 1001, 100))
    assert "average[Row][Paper]" in columns and "current[Row][Paper]" in columns
    assert columns["exploitability"][-1] < columns["exploitability"][0]


def test_convert_writes_files_that_read_back(capsys, tmp_path):
    for suffix in (".nfg", ".json"):
        out = tmp_path / f"partners{suffix}"
        code, _, _ = run(capsys, "convert", "battle-of-partners", str(out))
        assert code == 0
        game = read_game_file(out)
        assert game.action_names[0] == ("Cinema", "Dancing")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "missing.nfg"], "missing.nfg: no such file"),
        (["solve", "rps", "-a", "cfr-max"], "unknown algorithm 'cfr-max'"),
        (["solve", "rps", "--fix", "2=0.5,0.3,0.3"], "probabilities must sum to 1"),
        (["solve", "rps", "--fix", "3=1,0,0"], "players are numbered 1 to 2"),
        (["solve", "rps", "--device", "gpu"], "needs CuPy and an NVIDIA GPU"),
        (["solve", "random:zero-sum:90000x90000"], "GiB of payoffs"),
        (["solve", "rps", "--trace", "out.txt"], "write a .csv or a .json"),
        (["convert", "rps", "out.xlsx"], "cannot write"),
        (["export", "rps", "--out", "figure.gif"], "written as .png or .svg or .pdf"),
        (["export", "kuhn", "--out", "figure.png", "--figure", "simplex"], "not drawn for tree games"),
        (["export", "rps", "-a", "rm,rm+", "--out", "figure.png"], "drawn by --figure compare only"),
        (["export", "rps", "--out", "figure.png", "--data", "run.xlsx"], "written as .csv or .json"),
        (
            ["solve", "rps", "-a", "greedy-rm", "--updates", "alternating"],
            "use simultaneous updates",
        ),
    ],
)
def test_user_errors_exit_2_with_one_line(capsys, tmp_path, monkeypatch, argv, message):
    from rmviz.solvers.backend import gpu_available

    if "gpu" in argv and gpu_available():
        pytest.skip("a GPU is present")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert err.startswith("rmviz: ") and err.count("\n") == 1
    assert "Traceback" not in err + out


def test_nan_payoff_in_a_file_is_a_clear_error(capsys, tmp_path):
    path = tmp_path / "nan.nfg"
    path.write_text('NFG 1 R "x" { "A" "B" } { 1 2 }\n1 2 3 nan\n')
    code, _, err = run(capsys, "solve", str(path))
    assert code == 2 and "nan.nfg, line 2" in err


def test_bad_arguments_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", "rps", "--iterations", "zero"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == (
        "rmviz solve: argument --iterations/-n: 'zero' is not a whole number (see rmviz solve --help)\n"
    )


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_the_app_starts_runs_and_saves_a_screenshot(tmp_path):
    """`rmviz GAME --screenshot FILE --after S`: the real window, offscreen, then quits."""
    shot = tmp_path / "window.png"
    result = subprocess.run(
        [sys.executable, "-m", "rmviz.cli", "battle-of-partners", "--screenshot", str(shot), "--after", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 0, result.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_app_refuses_a_bad_game_with_exit_2():
    result = subprocess.run(
        [sys.executable, "-m", "rmviz.cli", "no-such-game.nfg"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 2 and "no such file" in result.stderr


def test_the_installed_command_runs():
    result = subprocess.run(
        [sys.executable, "-m", "rmviz.cli", "solve", "matching-pennies", "-n", "100", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["game"] == "matching-pennies"


@pytest.mark.slow  # the default run stays under 5 minutes; .ci/run runs it
def test_bench_prints_side_by_side_ratios():
    import io

    from rmviz.bench import run_bench

    out = io.StringIO()
    assert run_bench(seconds=0.01, out=out, sizes=(20,), many_players=(3, 3, 3), tree_levels=(10,)) == 0
    text = out.getvalue()
    assert "speed-up" in text and "single-pass floor (float64)" in text and "rm float32" in text
    assert "rps-crash rm (expected)" in text and "3-player 3-action greedy-rm (sampled)" in text
    assert "rps-crash (3x3) greedy-rm / rm" in text and "leduc_poker greedy-cfr / cfr (simultaneous)" in text
    assert "random zero-sum 100x100 internal-rm / rm" in text and "CPU cost" in text
    assert "leduc_poker (OpenSpiel walk)" in text or "install open-spiel" in text
    assert "leduc_poker mccfr-outcome" in text
    assert "leduc_poker mccfr-external" in text.partition("beside LiteEFG")[2] or "install LiteEFG" in text
    assert "leduc_poker pcfr+" in text and "kuhn_poker pdcfr+" in text
    assert "2,047 histories, alternating, from 11" in text and "alt/sim" in text
    assert not sys.platform.startswith("linux") or ("the process: running" in text and ", held " in text)


def test_the_bundle_leaves_out_the_process_memory_lines(monkeypatch):
    """The bundle's executable is rmviz, not Python: no child can measure a tree's memory, so
    ``rmviz bench`` leaves those lines out there instead of failing (the smoke test runs it)."""
    from rmviz.bench_trees import process_bytes

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert process_bytes(3) is None


def test_solve_with_a_float32_matrix_and_blas_threads(capsys):
    """--dtype float32 reads a single-precision copy of the payoffs (the config says so);
    --threads sets the BLAS pools (tests/solvers/test_threads.py checks the limit)."""
    args = ("solve", "random:zero-sum:40x40:seed=2", "-n", "2000", "--json", "--threads", "1")
    code, out, _ = run(capsys, *args, "--dtype", "float32")
    single = json.loads(out)
    code64, out64, _ = run(capsys, *args)
    assert code == code64 == 0
    double = json.loads(out64)
    assert (single["config"]["dtype"], double["config"]["dtype"]) == ("float32", "float64")
    # RM's trajectory amplifies single-precision rounding: close, not equal, after 2000 steps
    assert single["exploitability"] == pytest.approx(double["exploitability"], abs=2e-3)


def test_solve_kuhn_json_is_keyed_by_infoset_and_move(capsys):
    code, out, _ = run(capsys, "solve", "kuhn", "--algorithm", "cfr+", "--iterations", "1000", "--json")
    report = json.loads(out)
    assert code == 0
    assert set(report["average_strategy"]["Qpb"]) == {"p", "b"}
    assert report["value"][0] == pytest.approx(-1 / 18, abs=1e-3)
    assert report["exploitability"] < 1e-3 and report["cce_gap"] >= report["exploitability"]  # zero-sum
    assert report["cce_gap"] <= report["efcce_gap"] <= report["efce_gap"]  # the deviation sets nest


def test_tree_errors_and_conversion(capsys, tmp_path):
    code, _, err = run(capsys, "solve", "kuhn", "-a", "rm")
    assert code == 2 and "for game trees use cfr" in err
    code, _, err = run(capsys, "solve", "kuhn", "--play", "sampled")
    assert code == 2 and "play does not apply to game trees (cfr)" in err
    code, _, _ = run(capsys, "convert", "kuhn", str(tmp_path / "kuhn.efg"))
    assert code == 0 and read_game_file(tmp_path / "kuhn.efg").infosets[0][0] == "J"


def test_export_renders_a_figure_headless(capsys, tmp_path):
    """The crash of issue 11 (strategies of rps-crash), at the size and DPI asked."""
    from PIL import Image

    out = tmp_path / "s.png"
    code, _, err = run(
        capsys,
        *("export", "rps-crash", "-a", "rm", "-n", "2000", "--figure", "strategies", "--out", str(out)),
        *("--size", "700x400", "--dpi", "100", "--style", "paper", "--data", str(tmp_path / "run.csv")),
    )
    assert code == 0, err
    assert Image.open(out).size == (700, 400) and round(Image.open(out).info["dpi"][0]) == 100
    rows = [line for line in (tmp_path / "run.csv").read_text().splitlines() if not line.startswith("#")]
    assert rows[-1].startswith("2000,")


@pytest.mark.parametrize("figure", ["gaps", "tree", "compare"])
def test_export_draws_game_trees(capsys, tmp_path, figure):
    out = tmp_path / f"k-{figure}.pdf"
    code, _, err = run(
        capsys, "export", "kuhn", "-a", "cfr+,cfr", "-n", "50", "--figure", figure, "--out", str(out)
    )
    if figure != "compare":  # several algorithms only for compare
        assert code == 2 and "compare only" in err
        code, _, err = run(
            capsys, "export", "kuhn", "-a", "cfr+", "-n", "50", "--figure", figure, "--out", str(out)
        )
    assert code == 0, err
    assert out.read_bytes().startswith(b"%PDF-")


def test_export_without_figure_draws_each_familys_default(capsys, tmp_path):
    """No --figure: the dashboard of a matrix game, the strategies of a tree (the dashboard
    is a matrix figure: every tree export without --figure failed)."""
    from rmviz.figures.registry import default_figure, figures_of

    assert default_figure("matrix") == "dashboard" and default_figure("tree") == "strategies"
    assert default_figure("tree") in figures_of("tree")
    for game in ("rps", "kuhn"):
        out = tmp_path / f"{game}.svg"
        code, _, err = run(capsys, "export", game, "-n", "20", "--out", str(out))
        assert code == 0, err
        assert out.read_text().startswith("<?xml")


def test_the_game_as_latex_from_export_and_convert(capsys, tmp_path):
    code, _, err = run(
        capsys, "export", "kuhn", "-n", "50", "--figure", "tikz", "--out", str(tmp_path / "k.tex")
    )
    assert code == 0, err
    assert "\\begin{tikzpicture}" in (tmp_path / "k.tex").read_text()
    code, _, err = run(capsys, "convert", "rps-crash", str(tmp_path / "rps.tex"))
    assert code == 0, err
    assert "\\cellcolor" in (tmp_path / "rps.tex").read_text()  # the known equilibrium's support


def test_a_size_too_small_says_the_dpi_at_which_its_pixels_fit():
    """A projector's 1920x1080 was refused for the dashboard at 150 DPI; the message gave
    the pixels needed at 150 DPI only, not that a lower DPI takes these pixels."""
    import re

    from rmviz.errors import RmvizError
    from rmviz.figures.registry import check_target

    for figure, family, width, height in (
        ("dashboard", "matrix", 1920, 1080),
        ("strategies", "tree", 900, 500),
    ):
        with pytest.raises(RmvizError) as refused:
            check_target(figure, family, "x.png", 150, "slides", (width / 150, height / 150))
        dpi = int(re.search(r"or these pixels at (\d+) DPI or lower$", str(refused.value))[1])
        check_target(figure, family, "x.png", dpi, "slides", (width / dpi, height / dpi))
        with pytest.raises(RmvizError):
            check_target(figure, family, "x.png", dpi + 1, "slides", (width / (dpi + 1), height / (dpi + 1)))
    # no DPI is offered at which the text could not be read (200x150: 18 DPI, 3-pixel text)
    with pytest.raises(RmvizError) as refused:
        check_target("simplex", "matrix", "x.png", 150, "slides", (200 / 150, 150 / 150))
    assert "DPI or lower" not in str(refused.value) and "at least" in str(refused.value)


def test_a_tree_algorithm_on_a_matrix_game_exports_the_tree_runs_figures(capsys, tmp_path):
    """``-a cfr`` runs a matrix game as a game tree: without --figure, the tree's default is
    drawn (the matrix default was refused as "not drawn for tree games"); a matrix figure
    asked for says why it is not drawn."""
    out = tmp_path / "cfr.png"
    code, _, err = run(capsys, "export", "rps-crash", "-a", "cfr", "-n", "10", "--out", str(out))
    assert code == 0 and out.stat().st_size > 0, err
    code, _, err = run(capsys, "export", "rps-crash", "-a", "cfr", "--figure", "dashboard", "--out", str(out))
    assert code == 2 and err.strip().endswith("(-a cfr runs rps-crash as a game tree)")


def test_export_size_is_checked(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["export", "rps", "--out", "x.png", "--size", "big"])
    assert exit_info.value.code == 2
    assert "is not a size like 1280x720" in capsys.readouterr().err


def test_solve_the_reduced_strategic_form_of_kuhn(capsys):
    code, out, err = run(capsys, "solve", "reduced:kuhn", "-a", "rm+", "-n", "20000", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["value"][0] == pytest.approx(-1 / 18, abs=2e-3)
    assert report["exploitability"] < 2e-3


def test_outcome_sampling_takes_its_exploration(capsys):
    """--exploration reaches outcome sampling's config (the panel's row: tests/ui/common);
    outside (0, 1] it is one line and exit 2, and matrix games refuse it."""
    code, out, _ = run(
        capsys, "solve", "kuhn", "-a", "mccfr-outcome", "--exploration", "0.3", "-n", "50", "--json"
    )
    assert code == 0 and json.loads(out)["config"]["exploration"] == 0.3
    code, _, err = run(capsys, "solve", "kuhn", "-a", "mccfr-outcome", "--exploration", "1.5")
    assert code == 2 and err.strip().splitlines() == ["rmviz: exploration must be in (0, 1]"]
    code, _, err = run(capsys, "solve", "rps-crash", "--exploration", "0.3")
    assert code == 2 and "exploration does not apply to matrix games" in err


def test_a_long_run_says_how_long_it_takes_once_its_pace_is_known(monkeypatch, capsys):
    """The pace is measured from the first chunk's end: that chunk may have compiled the
    kernels (EFR on a cold cache: "200 iterations at 0 it/s take about 28 minutes", done in
    15 s)."""
    from rmviz import cli

    clock = iter([0.0, 15.0, 16.0, 17.0, 18.0])
    monkeypatch.setattr(cli.time, "perf_counter", lambda: next(clock))
    progress = cli._Progress(10**10, enabled=False)  # stderr is not a terminal
    progress.update(1)  # after 15 s, compiling: no pace yet
    progress.update(300_001)  # 1 s later: too early to say
    progress.update(700_001)  # 2 s later: 350,000 it/s, about 7.9 hours in all
    progress.update(1_000_001)  # said once
    err = capsys.readouterr().err
    assert err == (
        "rmviz: 10,000,000,000 iterations at 350,000 it/s take about 7.9 hours "
        "(^C stops; -n asks for fewer)\n"
    )


@pytest.mark.slow  # ~40 s: a cold cache compiles (.ci/run's second step)
def test_a_first_run_says_it_compiles_the_kernels(tmp_path):
    """A cold kernel cache (a first run after an install or an update) compiles for up to a
    minute: rmviz solve said nothing meanwhile. With the cache warm, nothing is said."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    argv = [sys.executable, "-m", "rmviz", "solve", "rps-crash", "-a", "rm+", "-n", "3000"]
    first = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count(f"rmviz: {COMPILING}") == 1
    again = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env)
    assert again.returncode == 0 and again.stderr == ""


def test_a_short_run_says_nothing(capsys):
    code, _, err = run(capsys, "solve", "rps", "-n", "20000")
    assert code == 0 and err == ""
