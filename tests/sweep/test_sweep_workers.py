"""A killed sweep takes its pool workers with it (issue 33: loky's workers lived on for 30 s
or more after ``kill -9`` of the sweep). Each worker watches the sweep's process and ends
within about half a second of it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("joblib")
pytest.importorskip("pandas")

CONFIG = """games = ["random:general-sum:12x12:seed={1..6}"]
algorithms = ["rm"]
seeds = [0]
iterations = [30000000]
"""


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return stat[0] != "Z"  # a zombie has ended


def wait_for(condition, seconds: float) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass (a deadline, not a sleep)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_workers_end_when_the_sweep_is_killed(tmp_path):
    config = tmp_path / "long.toml"
    config.write_text(CONFIG)
    command = [sys.executable, "-m", "rmviz.cli", "sweep", str(config), "--out", str(tmp_path / "r")]
    sweep = subprocess.Popen(
        [*command, "--jobs", "2", "--no-figures"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        assert wait_for(lambda: (tmp_path / "r" / "sweep.json").exists(), 120)
        # killed as soon as the pool is there: workers that took no task yet end too
        assert wait_for(lambda: len(children(sweep.pid)) >= 2, 120), "the pool never started"
        workers = children(sweep.pid)
        os.kill(sweep.pid, signal.SIGKILL)
        sweep.wait(timeout=30)
        # a worker watches from its first task on: under load its import of rmviz (numba, the
        # kernels) alone took over 20 s, and .ci/newest once failed on a 20 s deadline
        ended = wait_for(lambda: not any(alive(pid) for pid in workers), 120)
        assert ended, [p for p in workers if alive(p)]
    finally:
        if sweep.poll() is None:
            sweep.kill()
