"""What one ``step(1)`` call costs beside an iteration inside a long call.

    python tests/benchmarks/per_call.py

The app and notebooks often step one iteration at a time; a call's fixed cost (gathering
the kernel's arguments, numba's dispatch) is then the price of each iteration. Per solver
this prints the microseconds of a ``step(1)`` call and of one iteration inside ``step(100)``
(20,000 and 500 calls, best of 3, wall time). Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere

from rmviz.errors import RmvizError
from rmviz.games import catalog_game
from rmviz.games.trees import kuhn_poker, leduc_poker
from rmviz.solvers.matrix.config import preset
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.tree.config import preset as cfr_preset
from rmviz.solvers.tree.solver import CFRSolver


def microseconds_per_call(call: Callable[[], None], calls: int) -> float:
    call()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e6


def main() -> None:
    print(f"{'solver':<36}{'step(1) us':>12}{'in step(100) us':>18}")
    kuhn = kuhn_poker()
    solvers: list[tuple[str, CFRSolver | RegretMinimizer]] = [
        (f"kuhn {name}", CFRSolver(kuhn, cfr_preset(name)))
        for name in ("cfr", "cfr+", "greedy-cfr", "mccfr-external", "mccfr-outcome")
    ]
    solvers.append(("rps-crash rm", RegretMinimizer(catalog_game("rps-crash"), preset("rm"))))
    # Monte-Carlo CFR on a larger tree: its work arrays span the tree (allocated once now)
    leduc = leduc_poker()
    solvers += [
        (f"leduc {name}", CFRSolver(leduc, cfr_preset(name))) for name in ("mccfr-external", "mccfr-outcome")
    ]
    try:  # Liar's dice (294,883 histories), where the tree-sized work arrays cost most
        from rmviz.formats.openspiel import openspiel_game

        dice = openspiel_game("openspiel:liars_dice")
        solvers += [(f"liars_dice {name}", CFRSolver(dice, cfr_preset(name))) for name in ("mccfr-external",)]
    except RmvizError:  # open-spiel is not installed
        pass
    for label, solver in solvers:
        one = microseconds_per_call(
            lambda s=solver: s.step(1), 20_000 if "kuhn" in label or "rps" in label else 2_000
        )
        hundred = microseconds_per_call(lambda s=solver: s.step(100), 500) / 100
        print(f"{label:<36}{one:12.1f}{hundred:18.2f}", flush=True)


if __name__ == "__main__":
    main()
