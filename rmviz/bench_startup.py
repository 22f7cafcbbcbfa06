"""``rmviz bench``'s start-up rows: whole commands in new processes, beside a baseline process.

Each command runs ``runs`` times in turn with the baseline (``python -c "import numpy"``:
the interpreter and NumPy, which every command needs), after one warm-up run each; a run's
CPU time is the user plus system time the operating system accounts to the finished child
(``getrusage(RUSAGE_CHILDREN)`` before and after), its wall time the clock around it. The
rows give medians and the median of the per-pair CPU ratios, so a machine whose speed drifts
skews both sides alike. The children write their bytecode to a folder of their own
(``PYTHONPYCACHEPREFIX``, ``PYTHONDONTWRITEBYTECODE`` unset): an installed rmviz starts
from cached bytecode, and a checkout that never caches it would time the compiler.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BASELINE = (sys.executable, "-c", "import numpy")


def child_cost(argv: tuple[str, ...], env: dict[str, str]) -> tuple[float, float, int]:
    """``(cpu, wall, exit status)`` of one run of ``argv`` in a new process."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode


def side_by_side(
    argv: tuple[str, ...], runs: int, env: dict[str, str], baseline: tuple[str, ...] = BASELINE
) -> dict[str, float]:
    """Medians of ``argv``'s and ``baseline``'s CPU and wall seconds over ``runs`` runs in
    turn (one warm-up each first), and the median of the per-pair CPU ratios."""
    for command in (argv, baseline):
        if child_cost(command, env)[2] != 0:
            raise RuntimeError(f"{' '.join(command)} failed")
    samples: dict[str, list[float]] = {"cpu": [], "wall": [], "base_cpu": [], "base_wall": [], "ratio": []}
    for _ in range(runs):
        cpu, wall, _status = child_cost(argv, env)
        base_cpu, base_wall, _status = child_cost(baseline, env)
        for name, value in zip(
            samples, (cpu, wall, base_cpu, base_wall, cpu / max(base_cpu, 1e-9)), strict=True
        ):
            samples[name].append(value)
    return {name: statistics.median(values) for name, values in samples.items()}


def bench_startup(line: Callable[[str], None], runs: int = 5) -> None:
    """The CPU and wall time of ``rmviz solve rps-crash -n 1000`` (issue 34's target: at most
    0.35 s of CPU) and of the matrix window up to its first screenshot (offscreen, a warm
    kernel cache; target 1.5 s), each beside the baseline."""
    if sys.platform == "win32":  # no getrusage
        return
    from rmviz.solvers import precompile

    rmviz = (sys.executable, "-m", "rmviz")
    with tempfile.TemporaryDirectory(prefix="rmviz-bench-") as folder:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=str(Path(folder) / "bytecode"), QT_QPA_PLATFORM="offscreen")
        shot = str(Path(folder) / "window.png")
        cases = [("rmviz solve rps-crash -n 1000", (*rmviz, "solve", "rps-crash", "-n", "1000"))]
        if precompile.current():  # otherwise the window compiles kernels in the background
            window = (*rmviz, "rps-crash", "--screenshot", shot, "--after", "0")
            cases.append(("window rps-crash to its first screenshot", window))
        line("")
        line(f"{'start-up, a new process (median of ' + str(runs) + ')':<44}{'CPU s':>8}{'wall s':>8}"
             f"{'baseline CPU s':>16}{'wall s':>8}{'CPU ratio':>11}")  # fmt: skip
        for label, argv in cases:
            try:
                m = side_by_side(argv, runs, env)
            except (OSError, RuntimeError) as error:
                line(f"{label:<44}  not measured: {error}")
                continue
            line(f"{label:<44}{m['cpu']:8.3f}{m['wall']:8.3f}{m['base_cpu']:16.3f}{m['base_wall']:8.3f}"
                 f"{m['ratio']:10.2f}x")  # fmt: skip
        if len(cases) == 1:
            line("  (the window's row needs a warm kernel cache: rmviz precompile)")
        line('  baseline: python -c "import numpy"; CPU = user + system time of the finished process')
