"""What tracking a tree run's correlation gaps costs per iteration (docs/algorithms.md,
"Correlation gaps of a tree run"): CFR with ``track_correlation`` off and on, side by side in
one process, each run in turn three times (best of three), CPU time beside wall time; and
one metrics evaluation with and without the gaps.

The rule (issue 30): on by default where it costs under 2x an iteration; the default
(``correlation.tracked_by_default``) is a bound on the entries per node.

    python tests/benchmarks/correlation_cost.py
"""

from __future__ import annotations

import time

from rmviz.formats.openspiel import openspiel_game
from rmviz.games.catalog import catalog_game
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.random_trees import binary_tree
from rmviz.solvers.tree.config import preset
from rmviz.solvers.tree.solver import CFRSolver

WORK = 200_000  # nodes visited per timed call (iterations = WORK / nodes)


def games() -> dict[str, ExtensiveFormGame]:
    return {
        "kuhn": catalog_game("kuhn"),
        "leduc": catalog_game("leduc"),
        "kuhn, 3 players": openspiel_game("openspiel:kuhn_poker(players=3)"),
        "binary_tree(12)": binary_tree(12, 0),
        "goofspiel, 4 cards": openspiel_game("openspiel:goofspiel(num_cards=4,imp_info=True)"),
        "liars_dice, 1 die": openspiel_game("openspiel:liars_dice(numdice=1)"),
    }


def seconds(call, repeats: int) -> tuple[float, float]:
    """Best wall and CPU seconds of ``repeats`` calls."""
    wall, cpu = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        call()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return min(wall), min(cpu)


def sampled() -> None:
    """Monte-Carlo CFR (external sampling) with the gaps asked for: a full pass per iteration."""
    print("\n| game | mccfr-external: CPU per iteration off -> on | ratio CPU (wall) |")
    print("| --- | --- | --- |")
    for name in ("kuhn", "leduc"):
        game = catalog_game(name)
        on = CFRSolver(game, preset("mccfr-external", track_correlation=True))
        off = CFRSolver(game, preset("mccfr-external"))
        on.step(2), off.step(2)
        n = max(1, WORK // on.tree.n_nodes)
        best: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
        for _ in range(3):
            for label, solver in (("off", off), ("on", on)):
                best[label].append(seconds(lambda s=solver, n=n: s.step(n), 1))
        wall0, cpu0 = (min(x[k] for x in best["off"]) / n for k in (0, 1))
        wall1, cpu1 = (min(x[k] for x in best["on"]) / n for k in (0, 1))
        print(
            f"| {name} | {cpu0 * 1e6:.0f} -> {cpu1 * 1e6:.0f} us "
            f"| {cpu1 / cpu0:.1f}x ({wall1 / wall0:.1f}x) |"
        )


def main() -> None:
    print(
        "| game | updates | nodes | entries / node | CPU per iteration off -> on | ratio CPU (wall) |", end=""
    )
    print(" metrics off -> on |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, game in games().items():
        for updates in ("alternating", "simultaneous"):
            on = CFRSolver(game, preset("cfr", updates=updates, track_correlation=True))
            off = CFRSolver(game, preset("cfr", updates=updates, track_correlation=False))
            on.step(2), off.step(2), on.metrics(), off.metrics()  # compiled and loaded
            n = max(1, WORK // on.tree.n_nodes)
            best: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
            for _ in range(3):
                for label, solver in (("off", off), ("on", on)):
                    best[label].append(seconds(lambda s=solver, n=n: s.step(n), 1))
            wall0, cpu0 = (min(x[k] for x in best["off"]) / n for k in (0, 1))
            wall1, cpu1 = (min(x[k] for x in best["on"]) / n for k in (0, 1))
            m0, m1 = seconds(off.metrics, 5)[1], seconds(on.metrics, 5)[1]
            assert on.entries is not None
            ratio = on.entries.slot.size / on.tree.n_nodes
            print(
                f"| {name} | {updates} | {on.tree.n_nodes:,} | {ratio:.1f} "
                f"| {cpu0 * 1e6:.0f} -> {cpu1 * 1e6:.0f} us | {cpu1 / cpu0:.2f}x ({wall1 / wall0:.2f}x) "
                f"| {m0 * 1e3:.1f} -> {m1 * 1e3:.1f} ms |",
                flush=True,
            )


if __name__ == "__main__":
    main()
    sampled()
