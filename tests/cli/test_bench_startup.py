"""`rmviz bench`'s start-up rows: whole commands timed in new processes beside the baseline,
the CPU time the operating system accounts to each finished child."""

from __future__ import annotations

import os
import sys

import pytest

from rmviz import bench_startup

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="getrusage is POSIX")


def test_a_childs_cpu_time_is_its_own():
    busy = (
        sys.executable,
        "-c",
        "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass",
    )
    cpu, wall, status = bench_startup.child_cost(busy, dict(os.environ))
    assert status == 0 and cpu >= 0.3 and wall >= 0.3
    idle = (sys.executable, "-c", "import time; time.sleep(0.3)")
    cpu, wall, status = bench_startup.child_cost(idle, dict(os.environ))
    assert status == 0 and cpu < 0.25 <= wall  # sleeping costs no CPU


def test_side_by_side_gives_medians_and_the_median_pair_ratio(monkeypatch):
    costs = iter([(1.0, 1.0, 0), (1.0, 1.0, 0)] + [(c, 2 * c, 0) for c in (3.0, 1.0, 8.0, 2.0, 6.0, 3.0)])
    monkeypatch.setattr(bench_startup, "child_cost", lambda argv, env: next(costs))
    m = bench_startup.side_by_side(("a",), 3, {})
    assert m["cpu"] == 6.0 and m["base_cpu"] == 2.0 and m["wall"] == 12.0 and m["base_wall"] == 4.0
    assert m["ratio"] == 3.0  # the pairs' ratios 3, 4, 2


def test_a_failing_command_is_said_not_timed(monkeypatch):
    monkeypatch.setattr(bench_startup, "child_cost", lambda argv, env: (0.1, 0.1, 2))
    with pytest.raises(RuntimeError, match="failed"):
        bench_startup.side_by_side(("rmviz", "nonsense"), 3, {})


@pytest.mark.slow  # 10-16 s: each row starts its commands (.ci/run runs it)
def test_the_rows_print_the_solve_command_beside_the_baseline():
    lines: list[str] = []
    bench_startup.bench_startup(lines.append, runs=1)
    row = next(line for line in lines if line.startswith("rmviz solve rps-crash -n 1000"))
    assert "not measured" not in row, row
    cpu, wall, base_cpu, base_wall, ratio = row.split()[-5:]
    assert min(float(cpu), float(wall), float(base_cpu), float(base_wall)) > 0 and ratio.endswith("x")
    assert any("import numpy" in line for line in lines)
