"""A sweep on a Dask cluster started from the shell (issue 32): ``dask scheduler`` and two
``dask worker`` processes (no nanny, so a killed worker stays dead); one worker is killed with
SIGKILL while the sweep runs and the sweep still finishes with the serial table. A third
worker whose installed rmviz says another version (a ``rmviz-0.0.1.dist-info`` first on its
``PYTHONPATH``: the same sources, another installed version) then makes ``rmviz sweep``
refuse in one line, exit 2, writing nothing. Slow: a minute or more on the shared machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rmviz.sweep import read_results, run_sweep
from rmviz.version import version

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
distributed = pytest.importorskip("distributed")

CONFIG = """name = "killed worker"
games = ["random:zero-sum:10x10:seed={0..7}"]
algorithms = ["rm", "rm+"]
seeds = 2
iterations = [1000, 1000000]
metrics = ["exploitability"]
[options]
play = "sampled"
"""


def wait_for(condition, seconds: float, every: float = 0.1) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass (a deadline, not a sleep)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


def dask_command() -> list[str]:
    return [str(Path(sys.executable).with_name("dask"))]


@pytest.fixture
def shell(tmp_path):
    """Start processes from the shell's commands; each is killed (by its id) at the end."""
    started: list[subprocess.Popen] = []

    def start(arguments: list[str], log: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        with open(tmp_path / log, "w") as output:
            process = subprocess.Popen(
                arguments, stdout=output, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
            )
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


@pytest.mark.slow
def test_a_killed_worker_leaves_the_serial_table_and_another_version_is_refused(tmp_path, shell):
    config = tmp_path / "sweep.toml"
    config.write_text(CONFIG)
    serial = run_sweep(config, tmp_path / "serial", jobs=1, figures=False).table

    dask = dask_command()
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = [*dask, "scheduler", "--port", "0", "--no-dashboard"]
    shell([*scheduler, "--scheduler-file", str(scheduler_file)], "s.log")
    assert wait_for(scheduler_file.exists, 120), (tmp_path / "s.log").read_text()
    address = json.loads(scheduler_file.read_text())["address"]
    worker = [*dask, "worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1", "--no-nanny"]
    workers = [shell([*worker, "--name", f"w{k}"], f"w{k}.log") for k in (1, 2)]
    with distributed.Client(address, timeout="60s") as client:
        client.wait_for_workers(2, timeout=180)

    out = tmp_path / "dask"
    command = [sys.executable, "-m", "rmviz.cli", "sweep", str(config), "--out", str(out), "--no-figures"]
    sweep = shell([*command, "--dask", address], "sweep.log")
    tasks = out / "tasks"
    assert wait_for(lambda: tasks.is_dir() and any(tasks.glob("task-*.parquet")), 300), (
        tmp_path / "sweep.log"
    ).read_text()
    finished_when_killed = len(list(tasks.glob("task-*.parquet")))
    os.kill(workers[0].pid, signal.SIGKILL)  # midway: the other worker takes over its task
    assert sweep.wait(timeout=600) == 0, (tmp_path / "sweep.log").read_text()
    assert finished_when_killed < 8
    table = read_results(out)
    pd.testing.assert_frame_equal(table.drop(columns="seconds"), serial.drop(columns="seconds"))
    log = (tmp_path / "sweep.log").read_text()
    assert "Dask: 2 workers, each with rmviz" in log and "kernels compiled or loaded" in log

    fake = tmp_path / "other-install"
    metadata = fake / "rmviz-0.0.1.dist-info" / "METADATA"
    metadata.parent.mkdir(parents=True)
    metadata.write_text("Metadata-Version: 2.1\nName: rmviz\nVersion: 0.0.1\n")
    path = os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    shell([*worker, "--name", "old"], "old.log", env={"PYTHONPATH": path})
    with distributed.Client(address, timeout="60s") as client:
        client.wait_for_workers(2, timeout=180)  # w2 and the old one
    refused = subprocess.run(
        [*command[:-3], "--out", str(tmp_path / "refused"), "--dask", address],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "runs rmviz 0.0.1" in refused.stderr and f"this client rmviz {version()}" in refused.stderr
    assert not (tmp_path / "refused").exists()
