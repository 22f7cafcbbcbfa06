"""What internal regret matching with expected play costs per iteration, beside RM.

    python tests/benchmarks/internal_cost.py [seconds per measurement, default 1.5]

The rows of ``rmviz bench`` (:func:`rmviz.bench.bench_internal`): random zero-sum games of
10, 50 and 100 actions, RM and internal RM (Hart & Mas-Colell 2000; the stationary
distribution of ``rmviz/solvers/stationary.py``) measured in turn after 1,000
iterations, best of two turns each; the cost (internal RM's time per iteration over RM's)
in wall time and in CPU time of this thread. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.bench import bench_internal

if __name__ == "__main__":
    bench_internal(float(sys.argv[1]) if len(sys.argv) > 1 else 1.5, print)
