"""The wheel as a user gets it (issue 27): built with ``pip wheel``, it holds the LICENSE, the
example games, sweep configs and notebooks and the icon; installed outside the checkout,
``rmviz examples`` finds them there and ``rmviz sweep --example`` runs one."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import rmviz
from rmviz.examples import examples

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow  # 6 s for the wheel on an idle 2-core machine; 63 s with the sweep task, loaded
def test_the_wheel_ships_the_license_and_the_examples_and_they_work_installed(tmp_path):
    _run(
        sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path), cwd=tmp_path
    )
    (wheel,) = tmp_path.glob("rmviz-*.whl")
    version = rmviz.__version__
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = archive.read(f"rmviz-{version}.dist-info/METADATA").decode()
    assert f"rmviz-{version}.dist-info/licenses/LICENSE" in names
    assert "License-Expression: MIT" in info and "License-File: LICENSE" in info
    shipped = {f"rmviz/examples/{e.kind}/{e.filename}" for e in examples()}
    assert len(shipped) >= 14 and shipped <= names, sorted(shipped - names)
    assert "rmviz/resources/icons/rmviz-256.png" in names

    # installed outside the checkout (its dependencies are this environment's), run from elsewhere
    target = tmp_path / "site"
    _run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "-q",
        "--no-deps",
        "--target",
        str(target),
        str(wheel),
        cwd=tmp_path,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = _run(
        sys.executable, "-c", "import rmviz; print(rmviz.__file__, rmviz.__version__)", cwd=tmp_path, env=env
    )
    assert where.split() == [str(target / "rmviz" / "__init__.py"), version]
    listing = _run(sys.executable, "-m", "rmviz", "examples", cwd=tmp_path, env=env)
    for example in examples():
        assert str(target / "rmviz" / "examples" / example.kind / example.filename) in listing
    _run(sys.executable, "-m", "rmviz", "examples", "--copy", "copied", cwd=tmp_path, env=env)
    assert (tmp_path / "copied" / "sweeps" / "zero-sum-10x10.toml").is_file()
    # one task of the ten (the whole sweep takes a minute on two cores: docs/research.md)
    report = _run(
        sys.executable, "-m", "rmviz", "sweep", "--example", "zero-sum-10x10", "--out", "results",
        "--shard", "1/10", "--jobs", "1", cwd=tmp_path, env=env,
    )  # fmt: skip
    assert (
        report.startswith("1 tasks run") and (tmp_path / "results" / "tasks" / "task-00000.parquet").is_file()
    )
