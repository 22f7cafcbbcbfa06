"""``rmviz examples`` and ``rmviz sweep --example NAME``: the example games, sweep configs and
notebooks shipped as package data (rmviz.examples), listed, copied out and run (issue 27).
tests/packaging/test_wheel.py checks the same from an installed wheel."""

from __future__ import annotations

from pathlib import Path

import pytest

from rmviz.cli import main
from rmviz.examples import DECKS, GAMES, KINDS, NOTEBOOKS, SWEEPS, examples, folder, sweep_example
from rmviz.sweep.config import load_config

SHIPPED = {
    GAMES: {"rps.nfg", "rps-crash.nfg", "shapley.nfg", "kuhn.efg", "three-player-pennies.json"},
    SWEEPS: {"zero-sum-10x10.toml", "welfare-7p.toml"},
    NOTEBOOKS: {"regret-matching.ipynb", "kuhn-cfr.ipynb"},
    DECKS: {"seeds.toml"},
}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_file_in_the_example_folders_is_listed_and_described():
    listed = {kind: {e.filename for e in examples(kind)} for kind in KINDS}
    for kind in KINDS:
        on_disk = {path.name for path in Path(str(folder(kind))).iterdir() if path.is_file()}
        assert listed[kind] == on_disk, kind
        assert listed[kind] >= SHIPPED[kind]
    for example in examples():
        assert example.description and "\n" not in example.description, example.filename


def test_rmviz_examples_lists_each_file_with_its_line_and_its_path(capsys):
    code, out, err = run(capsys, "examples")
    assert code == 0 and err == ""
    for example in examples():
        assert f"  {example.listed_as}  " in out
        assert example.description in out
        path = Path(str(example.file))
        assert path.is_file() and f"  {path}\n" in out
    assert "rmviz sweep --example NAME" in out
    assert "  zero-sum-10x10  " in out  # the name --example takes


def test_rmviz_examples_copy_writes_every_file_once(capsys, tmp_path):
    target = tmp_path / "new" / "folder"
    code, out, err = run(capsys, "examples", "--copy", str(target))
    assert code == 0 and err == ""
    assert out.startswith(f"{len(examples())} example files copied into {target}")
    for example in examples():
        copied = target / example.kind / example.filename
        assert copied.read_bytes() == example.file.read_bytes()
    # a second copy would overwrite the person's edits: refused, one line, nothing written
    edited = target / SWEEPS / "zero-sum-10x10.toml"
    edited.write_text("# mine\n", encoding="utf-8")
    code, out, err = run(capsys, "examples", "--copy", str(target))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "exists" in err
    assert edited.read_text(encoding="utf-8") == "# mine\n"


def test_rmviz_examples_copy_onto_a_file_is_refused(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code, out, err = run(capsys, "examples", "--copy", str(blocker))
    assert code == 2 and out == "" and err.count("\n") == 1 and "a file is in the way" in err


def test_a_copied_example_game_opens_and_solves(capsys, tmp_path):
    assert run(capsys, "examples", "--copy", str(tmp_path))[0] == 0
    code, out, _ = run(capsys, "solve", str(tmp_path / GAMES / "rps-crash.nfg"), "-n", "200")
    assert code == 0 and "Rock" in out


@pytest.mark.parametrize("name", ["zero-sum-10x10", "zero-sum-10x10.toml"])
def test_sweep_example_runs_the_shipped_config(capsys, tmp_path, monkeypatch, name):
    """The run itself is the sweep's (tests/sweep; a real shard of an example in
    tests/packaging/test_wheel.py): here, that --example hands it the shipped file."""
    import rmviz.sweep.run as sweep_run

    given = {}

    def fake_run_sweep(config, out, **options):
        given["config"] = Path(config)
        given["sweep"] = sweep = load_config(config)
        return sweep_run.SweepReport(sweep, ran=0, skipped=0, pending=1, seconds=0.0, table=None, files=())

    monkeypatch.setattr(sweep_run, "run_sweep", fake_run_sweep)
    code, out, err = run(capsys, "sweep", "--example", name, "--out", str(tmp_path / "r"), "--jobs", "1")
    assert code == 0, err
    assert out.startswith("0 tasks run")
    assert given["config"] == Path(str(sweep_example("zero-sum-10x10").file))
    assert given["sweep"].name == "2p zero-sum 10x10, sampled play"
    assert len(given["sweep"].tasks()) == 10


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--example", "nope"], "no such sweep config; there are welfare-7p, zero-sum-10x10"),
        (["--example", "zero-sum-10x10", "my.toml"], "not allowed with"),
        ([], "one of the arguments config --example is required"),
    ],
)
def test_sweep_example_mistakes_are_one_line(capsys, tmp_path, argv, message):
    try:  # argparse's mistakes exit; the command's return 2
        code = main(["sweep", *argv, "--out", str(tmp_path / "r")])
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "r").exists()
