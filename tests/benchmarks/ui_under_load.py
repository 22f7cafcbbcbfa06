"""Do the UI tests hold on a busy machine?

Runs the UI tests (``tests/ui``, offscreen) ``--runs`` times in a row while ``--busy``
processes spin on the CPU (two on a 2-core machine: every core taken before the tests
start), and prints each run's outcome and time, then a summary. Exit status 0 when every
run passed. Timing races in UI tests (asserting a label before the redraw timer caught up)
show up here, not on an idle machine.

    python tests/benchmarks/ui_under_load.py [--runs 20] [--busy 2] [--workers 2] [--tests tests/ui]

``--workers N`` runs each pass as the README's test command does (``pytest -n N``, pytest-xdist):
two windows' tests side by side, beside the busy processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def spin() -> None:  # pragma: no cover - a busy process, killed at the end
    x = 0
    while True:
        x = (x * 1_103_515_245 + 12_345) % 2**31


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound processes beside the tests")
    parser.add_argument("--tests", default="tests/ui")
    parser.add_argument("--workers", type=int, default=0, help="pytest-xdist workers (0: one process)")
    args = parser.parse_args()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for process in busy:
        process.start()
    outcomes = []
    try:
        for run in range(1, args.runs + 1):
            started = time.perf_counter()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "-n",
                    str(args.workers),
                    args.tests,
                ],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
            )
            seconds = time.perf_counter() - started
            last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
            outcomes.append(done.returncode == 0)
            load = os.getloadavg()[0]
            print(
                f"run {run:2d}: {'passed' if done.returncode == 0 else 'FAILED'} in {seconds:4.0f} s, "
                f"load {load:.1f}: {last}",
                flush=True,
            )
            if done.returncode != 0:
                print(done.stdout[-4000:], flush=True)
    finally:
        for process in busy:
            process.kill()
    workers = f", {args.workers} pytest workers" if args.workers else ""
    print(f"{sum(outcomes)} of {len(outcomes)} runs passed with {args.busy} busy processes{workers}")
    return 0 if all(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
