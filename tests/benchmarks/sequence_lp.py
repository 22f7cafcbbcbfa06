"""Time the sequence-form LP (rmviz.solvers.tree.sequence_lp) by tree size (issue 30).

Both players' LPs (SciPy HiGHS, sparse) and the NashConv check, on Kuhn and Leduc poker and
complete binary trees of 2^12 to 2^19 terminals (``rmviz.games.random_trees.binary_tree``),
each after one warm-up solve (imports, compilation). Printed per case: terminals, wall and
CPU seconds (the machine is shared: CPU time is the figure to compare), the value and the
equilibrium's NashConv. ``MAX_LP_TERMINALS`` and ``WINDOW_MAX_TERMINALS`` were set from it;
results and the command are in docs/performance.md ("The sequence-form LP").

With ``--correlated``: the best EFCE and EFCCE LPs (rmviz.solvers.tree.correlated_lp) on
Kuhn poker and binary trees of 9, 11 and 12 levels (512 to 4,096 reduced profiles), which set
its ``MAX_PROFILES``.

    python tests/benchmarks/sequence_lp.py [--largest LEVELS] [--correlated]
"""

from __future__ import annotations

import argparse
import time

from rmviz.games.catalog import catalog_game
from rmviz.games.random_trees import binary_tree
from rmviz.solvers.tree import sequence_lp
from rmviz.solvers.tree.compiled_tree import compile_tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--largest", type=int, default=19, help="binary trees up to this many levels")
    parser.add_argument("--correlated", action="store_true", help="time the EFCE and EFCCE LPs instead")
    args = parser.parse_args()
    if args.correlated:
        correlated()
        return
    sequence_lp.MAX_LP_TERMINALS = 2**30  # measure above the limit too
    sequence_lp.solve_zero_sum_tree(catalog_game("kuhn"))  # imports and compilation
    cases = [("kuhn", lambda: catalog_game("kuhn")), ("leduc", lambda: catalog_game("leduc"))]
    cases += [(f"binary_tree({n})", lambda n=n: binary_tree(n)) for n in range(12, args.largest + 1)]
    for name, build in cases:
        game = build()
        tree = compile_tree(game)
        terminals = int((tree.kind == 2).sum())
        wall, cpu = time.perf_counter(), time.process_time()
        solution = sequence_lp.solve_zero_sum_tree(game, tree)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"{name:17s} terminals {terminals:>9,}  wall {wall:7.3f} s  cpu {cpu:7.3f} s  "
            f"value {solution.value:+.6f}  NashConv {solution.nash_conv:.1e}",
            flush=True,
        )


def correlated() -> None:
    from rmviz.solvers.tree import correlated_lp

    correlated_lp.MAX_PROFILES = 2**30  # measure above the limit too
    correlated_lp.best_correlated_tree(catalog_game("signaling"))  # imports
    cases = [("kuhn", catalog_game("kuhn"))] + [(f"binary_tree({n})", binary_tree(n)) for n in (9, 11, 12)]
    for name, game in cases:
        for kind in correlated_lp.KINDS:
            wall, cpu = time.perf_counter(), time.process_time()
            best = correlated_lp.best_correlated_tree(game, kind)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            shape = "x".join(map(str, best.joint.shape))
            print(
                f"{name:17s} {kind:5s} profiles {shape:>7}  wall {wall:7.3f} s  cpu {cpu:7.3f} s", flush=True
            )


if __name__ == "__main__":
    main()
