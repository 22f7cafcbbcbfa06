"""Monte-Carlo CFR's iterations per second on Kuhn and Leduc, beside OpenSpiel's C++
samplers and rmviz's NumPy reference: the Monte-Carlo section of ``rmviz bench`` alone.

    PYTHONPATH=$PWD python tests/benchmarks/monte_carlo_cfr.py [seconds per measurement]
"""

from __future__ import annotations

import sys

from rmviz.bench import bench_monte_carlo

if __name__ == "__main__":
    bench_monte_carlo(float(sys.argv[1]) if len(sys.argv) > 1 else 1.5, print)
