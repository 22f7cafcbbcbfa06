"""What tracking the CE gap and the joint costs on small matrices, beside the single-pass floor.

    python tests/benchmarks/small_matrix_tracking.py [seconds per measurement, default 1.5]
        [--sizes 10,32,64,65] [--root CHECKOUT]

The rows of ``rmviz bench`` (:func:`rmviz.bench.bench_small_matrices`): random zero-sum
games, RM with expected play, tracked (the default up to 64 actions), untracked and the
floor measured in turn, best of two turns each; the tracking's price (tracked over
untracked) and the time per iteration over the floor's, in wall and thread CPU time.
``--root`` measures another checkout (a ``git worktree`` of an earlier commit) with this
file's rows, to compare two versions in turn. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=1.5)
    parser.add_argument("--sizes", default="10,32,64,65")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))  # the checkout measured
    from rmviz.bench import bench_small_matrices
    from rmviz.solvers.jit import load

    load()
    print(f"rmviz from {Path(sys.modules['rmviz'].__file__).parent}")
    bench_small_matrices(args.seconds, print, tuple(int(k) for k in args.sizes.split(",")))
