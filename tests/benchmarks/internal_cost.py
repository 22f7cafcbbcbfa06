"""What internal regret matching with expected play costs per iteration, beside RM.

    python tests/benchmarks/internal_cost.py [--rounds 7]

Internal RM (Hart & Mas-Colell 2000; Blum & Mansour 2007) keeps a k x k regret matrix per
player and plays the stationary distribution of the chain its positive part defines
(``rmviz/solvers/matrix/stationary.py``: the closed classes, then Grassmann-Taksar-Heyman
elimination, O(k^3)). Per game this prints the iterations per second of RM and of internal
RM (expected play, simultaneous updates, the compiled kernels) and their ratio: the cost of
one internal-RM iteration in RM iterations. CPU time of this thread, best of ``--rounds``,
measured in turn (see ``greedy_cost.py``). Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parent))

from greedy_cost import compare

from rmviz.games import catalog_game, random_game
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print(f"{'case':<44}{'rm it/s':>14}{'internal it/s':>14}{'cost':>10}")
    cases = [("rps-crash (3x3)", catalog_game("rps-crash"))]
    cases += [(f"zero-sum {k}x{k}", random_game("zero-sum", (k, k), seed=0)) for k in (10, 30, 100)]
    cases += [("general-sum 30x30", random_game("general-sum", (30, 30), seed=0))]
    for label, game in cases:
        n = max(200, 300_000 // game.num_actions[0] ** 2)
        warm = RegretMinimizer(game, preset("internal-rm"))
        warm.step(1_000)  # past the first iterations, where the chains are small and sparse
        compare(label, RegretMinimizer(game, preset("rm")).step, warm.step, n, args.rounds)


if __name__ == "__main__":
    main()
