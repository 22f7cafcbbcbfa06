"""The memory a big tree's CFR run holds, per history: the process lines of ``rmviz
bench``'s big-tree section alone (:func:`rmviz.bench_trees.process_bytes`: a child process
builds a binary tree, its CFR solver and a snapshot with metrics).

    python tests/benchmarks/tree_memory.py [--levels 20 22] [--root CHECKOUT]

``--root`` measures another checkout (a ``git worktree`` of an earlier commit) with the same
child. Results and the command are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.bench_trees import process_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[20, 22])
    parser.add_argument("--root", type=Path, default=None, help="the checkout to measure")
    args = parser.parse_args()
    print(f"{'histories':>12}{'running B/h':>13}{'held B/h':>10}{'peak B/h':>10}{'traced B/h':>12}")
    for levels in args.levels:
        row = process_bytes(levels, args.root)
        if row is None:
            sys.exit("the resident set is read from /proc: Linux only")
        n = row["histories"]
        print(
            f"{n:>12,}{row['running'] / n:13.1f}{row['held'] / n:10.1f}{row['peak'] / n:10.1f}"
            f"{row['traced'] / n:12.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
