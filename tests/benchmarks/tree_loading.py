"""Time loading and compiling big game trees, and their peak memory (issue 16).

Each case runs in a fresh Python process (so its peak RSS is its own): load the game (walk
OpenSpiel, read a .efg file, or build a tree of nodes with the test builders), then
``compile_tree`` (the flat arrays of the CFR kernels). Printed per case: histories, load and
compile seconds (wall, and CPU where the machine is shared), peak RSS above the process's
RSS after imports, and that in bytes per history.

Cases, about 10^4, 10^5 and 10^6 histories:

* ``os-*``: OpenSpiel walks (Leduc poker 9,457; Liar's dice with 5 and 6 sides 51,181 and
  294,883; goofspiel with 6 cards, imperfect information, descending points 969,523; Leduc
  poker with 3 players 1,831,601, the largest this small machine is asked to hold);
* ``efg-*``: the same games as .efg files (written once into ``--workdir``);
* ``gen-*``: complete binary trees of 16,383 / 131,071 / 1,048,575 nodes built as Node trees
  (tests/solvers/tree/builders.py: most of the load is the builder's own Python), and
  ``efg-gen-1m`` their .efg file; for these the CPU seconds of validating the built tree
  again (``ExtensiveFormGame(root, names)``, rmviz's part) are printed too;
* on request only (``--only``): ``efg-gen-8m`` and ``efg-gen-16m``, the .efg files of binary
  trees of 8,388,607 and 16,777,215 histories (0.7 and 1.4 GB, written line by line:
  :func:`write_binary_efg`), which need a few GB of memory to load.

    python tests/benchmarks/tree_loading.py [--only NAME ...] [--workdir DIR]

Before/after figures: run it with ``PYTHONPATH`` pointing at another checkout (the cases use
only public APIs: ``openspiel_game``, ``read_game_file``, ``compile_tree``). Results and the
command are recorded in docs/performance.md ("Loading big trees").
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOFSPIEL = "goofspiel(num_cards=6,imp_info=True,points_order=descending)"
OPENSPIEL = {
    "leduc": "leduc_poker",
    "liars5": "liars_dice(dice_sides=5)",
    "liars6": "liars_dice(dice_sides=6)",
    "goof6": GOOFSPIEL,
    "leduc3": "leduc_poker(players=3)",
}
LEVELS = {"16k": 13, "131k": 16, "1m": 19}
BIG_LEVELS = {"8m": 22, "16m": 23}  # .efg files written directly (no Node objects), on request
CASES = (
    [f"os-{k}" for k in OPENSPIEL]
    + [f"efg-{k}" for k in OPENSPIEL if k != "leduc3"]
    + [f"gen-{k}" for k in LEVELS]
    + ["efg-gen-1m"]
)
BIG_CASES = [f"efg-gen-{k}" for k in BIG_LEVELS]


def rss_mb() -> float:
    """The process's peak resident memory so far, in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024**2
    except OSError:
        return rss_mb()


def efg_path(workdir: Path, key: str) -> Path:
    """The .efg file of a case, written (once) from the game in a helper process."""
    path = workdir / f"{key}.efg"
    if not path.exists():
        subprocess.run([sys.executable, __file__, "--write", key, str(path)], check=True)
    return path


def write(key: str, path: str) -> None:
    if key.removeprefix("gen-") in BIG_LEVELS:
        write_binary_efg(BIG_LEVELS[key.removeprefix("gen-")], path)
        return
    from rmviz.formats import write_game_file

    write_game_file(build(key), path)


def write_binary_efg(levels: int, path: str) -> None:
    """The .efg file of ``binary_tree(levels)`` (tests/solvers/tree/builders.py) written as
    ``write_efg`` writes it, line by line in prefix order without building the game, so trees
    of 10^7 histories fit: the same text (checked against write_efg for small trees)."""
    import numpy as np

    from rmviz.formats.gambit_tokens import format_number

    payoffs = np.random.default_rng(0).uniform(-1.0, 1.0, 2**levels).tolist()
    numbers: list[dict[str, int]] = [{}, {}]  # each player's information sets, first met first
    leaf = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(f'EFG 2 R "binary tree {levels}" {{ "Player 1" "Player 2" }}\n""\n\n')
        stack = [(0, 0)]  # (level, index among the level's nodes)
        lines = []
        while stack:
            level, index = stack.pop()
            indent = "  " * min(level, 32)
            if level == levels:
                u = payoffs[leaf]
                leaf += 1
                lines.append(f'{indent}t "" {leaf} "" {{ {format_number(u)}, {format_number(-u)} }}\n')
            else:
                player = level % 2
                seen = "".join("ab"[(index >> (level - 1 - d)) & 1] for d in range(player, level, 2))
                label = f"{player}:{seen}"
                known = numbers[player].get(label)
                if known is None:
                    known = numbers[player][label] = len(numbers[player]) + 1
                    lines.append(f'{indent}p "" {player + 1} {known} "{label}" {{ "a" "b" }} 0\n')
                else:
                    lines.append(f'{indent}p "" {player + 1} {known} 0\n')
                stack.append((level + 1, 2 * index + 1))
                stack.append((level + 1, 2 * index))
            if len(lines) >= 1 << 16:
                out.write("".join(lines))
                lines.clear()
        out.write("".join(lines))


def build(key: str):
    if key in OPENSPIEL:
        from rmviz.formats.openspiel import openspiel_game

        return openspiel_game(OPENSPIEL[key], max_nodes=5_000_000)
    from tests.solvers.tree.builders import binary_tree

    return binary_tree(LEVELS[key.removeprefix("gen-")])


def measure(case: str, workdir: Path) -> dict:
    """Load and compile one case in this process."""
    from rmviz.formats import read_game_file
    from rmviz.formats.openspiel import openspiel_game
    from rmviz.solvers.tree.compiled_tree import compile_tree

    path = efg_path(workdir, case.removeprefix("efg-")) if case.startswith("efg-") else None
    import numpy  # noqa: F401  (imports outside the measurement)

    base = current_rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    if case.startswith("os-"):
        game = openspiel_game(OPENSPIEL[case.removeprefix("os-")], max_nodes=5_000_000)
    elif path is not None:
        game = read_game_file(path)
    else:
        game = build(case)
    load_wall, load_cpu = time.perf_counter() - wall, time.process_time() - cpu
    validate = None
    if case.startswith("gen-"):  # the builder's own work aside: rmviz's part of a Node tree
        from rmviz.games.extensive_form import ExtensiveFormGame

        started = time.process_time()
        ExtensiveFormGame(game.root, game.player_names)
        validate = time.process_time() - started
    wall, cpu = time.perf_counter(), time.process_time()
    tree = compile_tree(game)
    compile_wall, compile_cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = rss_mb() - base
    return {
        "case": case,
        "histories": tree.n_nodes,
        "file_mb": path.stat().st_size / 1024**2 if path is not None else None,
        "load_s": load_wall,
        "load_cpu_s": load_cpu,
        "compile_s": compile_wall,
        "compile_cpu_s": compile_cpu,
        "validate_cpu_s": validate,
        "peak_mb": peak,
        "bytes_per_history": peak * 1024**2 / tree.n_nodes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=CASES + BIG_CASES, action="append")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "rmviz-tree-loading")
    parser.add_argument("--case", help=argparse.SUPPRESS)  # one case, in this process (JSON line)
    parser.add_argument("--write", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        write(*args.write)
        return
    if args.case:
        print(json.dumps(measure(args.case, args.workdir)), flush=True)
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    print(
        f"{'case':<12}{'histories':>11}{'file MB':>9}{'load s':>9}{'(cpu)':>8}{'compile s':>11}"
        f"{'(cpu)':>8}{'total s':>9}{'peak MB':>9}{'B/hist':>8}",
        flush=True,
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH"), str(ROOT)) if p)
    for case in args.only or CASES:
        command = [sys.executable, __file__, "--case", case, "--workdir", str(args.workdir)]
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        if done.returncode:
            print(f"{case:<12} failed: {done.stderr.strip().splitlines()[-1:]}", flush=True)
            continue
        r = json.loads(done.stdout.strip().splitlines()[-1])
        size = f"{r['file_mb']:9.1f}" if r["file_mb"] is not None else f"{'':9}"
        print(
            f"{case:<12}{r['histories']:>11,}{size}{r['load_s']:9.2f}{r['load_cpu_s']:8.2f}"
            f"{r['compile_s']:11.2f}{r['compile_cpu_s']:8.2f}{r['load_s'] + r['compile_s']:9.2f}"
            f"{r['peak_mb']:9.0f}{r['bytes_per_history']:8.0f}"
            + (
                f"  (validate {r['validate_cpu_s']:.2f} s cpu)" if r.get("validate_cpu_s") is not None else ""
            ),
            flush=True,
        )


if __name__ == "__main__":
    sys.path.append(str(ROOT))  # the test builders (a PYTHONPATH checkout comes first)
    main()
