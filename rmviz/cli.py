"""The command line: the same engine as the app, without a window.

    rmviz                       open the desktop app
    rmviz games                 list the catalog
    rmviz solve GAME [...]      run a solver and report strategies and equilibrium gaps
    rmviz convert GAME OUT      write a game as rmviz JSON or Gambit .nfg
    rmviz bench [...]           measure iterations per second side by side

Errors a person can cause print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from rmviz import __version__
from rmviz.errors import ConfigError, RmvizError
from rmviz.formats import load_game, write_game_file
from rmviz.games.catalog import CATALOG, known_equilibrium
from rmviz.games.extensive_form import ExtensiveFormGame
from rmviz.games.normal_form import NormalFormGame
from rmviz.games.trees import TREE_CATALOG, normal_form_tree
from rmviz.runner.record import FIGURES, record_run, write_run_data
from rmviz.solvers.cfr import CFR_PRESETS, CFRSolver, cfr_preset
from rmviz.solvers.config import PLAY_MODES, PRESETS, SCHEDULES, preset
from rmviz.solvers.regret_minimizer import RegretMinimizer

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with one readable line (its default, made explicit)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise SystemExit(f"rmviz: error: {message}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rmviz", description="Watch regret minimisation find equilibria.")
    parser.add_argument("--version", action="version", version=f"rmviz {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    commands.add_parser("games", help="list the built-in games")

    solve = commands.add_parser("solve", help="run a solver on a game")
    _add_run_arguments(solve)
    solve.add_argument("--trace", type=Path, help="write metrics every --every iterations (.csv or .json)")
    solve.add_argument("--every", type=_positive_int, default=None, help="trace interval (default n/100)")
    solve.add_argument("--json", action="store_true", help="print one JSON object on stdout")

    export = commands.add_parser("export", help="render a figure of a run headless (PNG, SVG or PDF)")
    _add_run_arguments(export)
    export.add_argument(
        "--figure", choices=FIGURES, default="dashboard", help="which view (default dashboard)"
    )
    export.add_argument("--out", "-o", type=Path, required=True, help="FILE.png, FILE.svg or FILE.pdf")
    export.add_argument("--size", type=_size, default=None, metavar="WxH", help="pixels (default per figure)")
    export.add_argument("--dpi", type=_positive_int, default=96, help="PNG resolution (default 96)")
    export.add_argument(
        "--data", type=Path, help="also write the run's trace with its config (.csv or .json)"
    )

    convert = commands.add_parser("convert", help="write a game as .json, .nfg or .efg")
    convert.add_argument("game")
    convert.add_argument("out", type=Path)

    bench = commands.add_parser("bench", help="iterations per second, measured side by side")
    bench.add_argument("--quick", action="store_true", help="short timings, skip 4000x4000")
    bench.add_argument("--seconds", type=float, default=None, help="time budget per measurement")
    return parser


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The game and solver arguments that ``solve`` and ``export`` share."""
    parser.add_argument("game", help="a catalog id, a file (.json, .nfg, .efg) or random:KIND:SHAPE[:seed=N]")
    parser.add_argument(
        "--algorithm",
        "-a",
        default=None,
        help=f"matrix games: {', '.join(PRESETS)} (default rm); "
        f"trees: {', '.join(CFR_PRESETS)} (default cfr)",
    )
    parser.add_argument("--iterations", "-n", type=_positive_int, default=1000)
    parser.add_argument(
        "--play", choices=PLAY_MODES, default=None, help="expected payoffs or sampled actions"
    )
    parser.add_argument("--updates", choices=SCHEDULES, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", choices=("auto", "cpu", "gpu"), default="auto")
    parser.add_argument("--alpha", type=float, help="discounted weighting: positive-regret exponent")
    parser.add_argument("--beta", type=float, help="discounted weighting: negative-regret exponent")
    parser.add_argument("--gamma", type=float, help="discounted weighting: averaging exponent")
    parser.add_argument(
        "--floor",
        type=float,
        dest="greedy_floor",
        help="greedy weights: weight floor as a fraction of the average weight",
    )
    parser.add_argument("--inertia", type=float, help="internal RM, sampled play: inertia (payoff units)")
    parser.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="PLAYER=P1,P2,...",
        help="fix a player's mixed strategy (1-based player), e.g. --fix 2=0.4,0.3,0.3",
    )


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1600x1000") from None
    if not (16 <= width <= 16000 and 16 <= height <= 16000):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be 16 to 16000 pixels")
    return width, height


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def _parse_fixed(game: NormalFormGame, specs: list[str]) -> dict[int, list[float]]:
    fixed: dict[int, list[float]] = {}
    for spec in specs:
        player, _, probabilities = spec.partition("=")
        try:
            index = int(player) - 1
            values = [float(p) for p in probabilities.split(",")]
        except ValueError:
            raise ConfigError(f"--fix {spec!r}: write PLAYER=P1,P2,... e.g. --fix 2=0.4,0.3,0.3") from None
        if not 0 <= index < game.n_players:
            raise ConfigError(f"--fix {spec!r}: players are numbered 1 to {game.n_players}")
        fixed[index] = values
    return fixed


# -- commands ------------------------------------------------------------------------------
def cmd_games(out: TextIO) -> int:
    width = max(len(game_id) for game_id in CATALOG)
    for game_id, entry in CATALOG.items():
        game = entry.build()
        out.write(f"{game_id:<{width}}  {game.n_players}p {game.shape_label:<6} {entry.description}\n")
    out.write(f"\ngame trees (algorithms: {', '.join(CFR_PRESETS)}):\n")
    for game_id, (description, build) in TREE_CATALOG.items():
        tree = build()
        counts = "+".join(str(len(labels)) for labels in tree.infosets) + " infosets"
        out.write(f"{game_id:<{width}}  {tree.n_players}p {counts:<14} {description}\n")
    out.write("\nrandom games: random:KIND:SHAPE[:seed=N], KIND zero-sum | general-sum | cooperative\n")
    return 0


def _solver(
    args: argparse.Namespace, game: NormalFormGame | ExtensiveFormGame
) -> RegretMinimizer | CFRSolver:
    """The solver the arguments ask for; a matrix game runs CFR as a tree when asked."""
    tree = isinstance(game, ExtensiveFormGame)
    algorithm = args.algorithm or ("cfr" if tree else "rm")
    if algorithm in CFR_PRESETS:
        for flag, value in (
            ("--play", args.play),
            ("--fix", args.fix),
            ("--inertia", args.inertia),
        ):
            if value:
                raise ConfigError(f"{flag} applies to matrix-game algorithms, not to {algorithm}")
        config = cfr_preset(
            algorithm,
            updates=args.updates,
            seed=args.seed,
            alpha=args.alpha,
            beta=args.beta,
            gamma=args.gamma,
            greedy_floor=args.greedy_floor,
            device="gpu" if args.device == "gpu" else None,
        )
        return CFRSolver(game if tree else normal_form_tree(game), config)
    if tree:
        raise ConfigError(f"{algorithm!r} solves matrix games; for game trees use {', '.join(CFR_PRESETS)}")
    config = preset(
        algorithm,
        play=args.play,
        updates=args.updates,
        seed=args.seed,
        device=args.device,
        alpha=args.alpha,
        beta=args.beta,
        gamma=args.gamma,
        greedy_floor=args.greedy_floor,
        inertia=args.inertia,
        fixed_strategies=_parse_fixed(game, args.fix),
    )
    return RegretMinimizer(game, config)


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    game = load_game(args.game)
    solver = _solver(args, game)
    every = args.every or max(1, args.iterations // 100)
    rows: list[dict[str, Any]] = []
    progress = _Progress(args.iterations, enabled=sys.stderr.isatty() and not args.json)
    solver.step(0)  # load the compiled kernel (numba's cache) before the clock starts
    start = time.perf_counter()
    done = 0
    chunk = every if args.trace else max(1, min(args.iterations, 100_000))
    while done < args.iterations:
        count = min(chunk, args.iterations - done)
        solver.step(count)
        done += count
        if args.trace:
            rows.append(_trace_row(solver.snapshot(metrics=True), solver))
        progress.update(done)
    seconds = time.perf_counter() - start
    progress.close()
    snap = solver.snapshot(metrics=True)
    if args.trace:
        _write_trace(args.trace, rows)
    report = _report(args.game, solver, snap, seconds)
    if args.json:
        out.write(json.dumps(report) + "\n")
    elif isinstance(solver, CFRSolver):
        _print_tree_summary(report, out)
    else:
        _print_summary(report, solver.game, out)
    return 0


def _report(spec: str, solver: RegretMinimizer | CFRSolver, snap: Any, seconds: float) -> dict[str, Any]:
    metrics = snap.metrics
    assert metrics is not None
    config, game = solver.config, solver.game
    common = {
        "game": spec,
        "title": game.title,
        "algorithm": config.algorithm,
        "iterations": snap.iteration,
        "players": list(game.player_names),
    }
    timing = {
        "exploitability_convention": "NashConv / number of players",
        "seconds": seconds,
        "iterations_per_second": snap.iteration / seconds if seconds > 0 else None,
    }
    if isinstance(solver, CFRSolver):
        return {
            **common,
            "average_strategy": solver.strategy_table(snap.average_strategy),
            "current_strategy": solver.strategy_table(snap.current_strategy),
            **metrics.as_dict(),
            **timing,
            "device": "cpu",
            "config": {
                "updates": config.updates,
                "weighting": config.weighting,
                "averaging": config.averaging or config.weighting,
                "plus": config.plus,
                "sampling": config.sampling,
                "seed": config.seed,
                "greedy_floor": solver.greedy_floor if config.weighting == "greedy" else None,
            },
        }
    return {
        **common,
        "actions": [list(a) for a in game.action_names],
        "average_strategy": [s.tolist() for s in snap.average_strategy],
        "current_strategy": [s.tolist() for s in snap.current_strategy],
        **metrics.as_dict(),
        **timing,
        "device": solver.backend.describe(),
        "config": {
            "play": config.play,
            "updates": config.updates,
            "regret": config.regret,
            "weighting": config.weighting,
            "averaging": config.averaging or config.weighting,
            "plus": config.plus,
            "predictive": config.predictive,
            "seed": config.seed,
            "greedy_floor": solver.greedy_floor if config.weighting == "greedy" else None,
            "fixed": {str(i + 1): s.tolist() for i, s in solver.fixed.items()},
        },
    }


def _trace_row(snap: Any, solver: RegretMinimizer | CFRSolver) -> dict[str, Any]:
    metrics = snap.metrics
    assert metrics is not None
    row: dict[str, Any] = {"iteration": snap.iteration, "seconds": round(snap.seconds, 6)}
    row.update({k: v for k, v in metrics.as_dict().items() if k != "value"})
    game = solver.game
    if isinstance(solver, CFRSolver):  # per-infoset strategies are in --json, not the trace
        for i, name in enumerate(game.player_names):
            row[f"value[{name}]"] = metrics.value[i]
        return row
    for i, (name, actions) in enumerate(zip(game.player_names, game.action_names, strict=True)):
        row[f"value[{name}]"] = metrics.value[i]
        for a, action in enumerate(actions):
            row[f"average[{name}][{action}]"] = float(snap.average_strategy[i][a])
    return row


def _write_trace(path: Path, rows: list[dict[str, Any]]) -> None:
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise RmvizError(f"--trace {path}: write a .csv or a .json file")
    try:
        with path.open("w", newline="", encoding="utf-8") as handle:
            if suffix == ".json":
                json.dump(rows, handle, indent=1)
            else:
                writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
    except OSError as error:
        raise RmvizError(f"--trace {path}: cannot write ({error.strerror})") from None


def _print_summary(report: dict[str, Any], game: NormalFormGame, out: TextIO) -> None:
    out.write(f"{report['title']}  ({report['game']}, {game.n_players} players, {game.shape_label})\n")
    rate = report["iterations_per_second"]
    out.write(
        f"{report['algorithm']}: {report['iterations']} iterations in {report['seconds']:.3f} s"
        f" ({rate:,.0f} it/s) on {report['device']}\n\n"
    )
    for i, (name, actions) in enumerate(zip(game.player_names, game.action_names, strict=True)):
        out.write(f"{name}  (payoff of the average profile {report['value'][i]:.6g})\n")
        width = max(len(a) for a in actions)
        shown = list(enumerate(actions))[:12]
        for a, action in shown:
            avg = report["average_strategy"][i][a]
            cur = report["current_strategy"][i][a]
            bar = "#" * round(avg * 30)
            out.write(f"  {action:<{width}}  average {avg:8.4f}  current {cur:8.4f}  {bar}\n")
        if len(actions) > len(shown):
            out.write(f"  ... {len(actions) - len(shown)} more actions (use --json)\n")
    out.write("\n")
    rows = [
        ("exploitability (NashConv/n)", report["exploitability"]),
        ("NashConv", report["nash_conv"]),
        ("CCE gap", report["cce_gap"]),
        ("CE gap", report["ce_gap"]),
        ("regret bound 2 max R / T", report["eps_bound"]),
        ("social welfare", report["welfare"]),
    ]
    scale = max(1.0, float(np.abs(game.payoffs).max()))
    for label, value in rows:
        if value is None:
            text = "not tracked (large game, expected play)"
        else:  # rounding noise (1e-19 in a zero-sum game) prints as 0
            text = f"{value if abs(value) > 1e-12 * scale else 0.0:.6g}"
        out.write(f"  {label:<28} {text}\n")


def _print_tree_summary(report: dict[str, Any], out: TextIO) -> None:
    rate = report["iterations_per_second"]
    out.write(f"{report['title']}  ({report['game']}, {len(report['players'])} players)\n")
    out.write(
        f"{report['algorithm']}: {report['iterations']} iterations in {report['seconds']:.3f} s"
        f" ({rate:,.0f} it/s) on cpu\n\n"
    )
    table = report["average_strategy"]
    shown = list(table)[:24]
    width = max(len(label) for label in shown)
    out.write(f"  {'information set':<{width}}  average strategy\n")
    for label in shown:
        moves = "  ".join(f"{move} {p:.4f}" for move, p in table[label].items())
        out.write(f"  {label:<{width}}  {moves}\n")
    if len(table) > len(shown):
        out.write(f"  ... {len(table) - len(shown)} more information sets (use --json)\n")
    values = ", ".join(f"{n} {v:.6g}" for n, v in zip(report["players"], report["value"], strict=True))
    out.write("\n")
    for label, text in (
        ("value of the average profile", values),
        ("exploitability (NashConv/n)", f"{report['exploitability']:.6g}"),
        ("NashConv", f"{report['nash_conv']:.6g}"),
        ("regret bound sum_I R+/T", f"{report['eps_bound']:.6g}"),
    ):
        out.write(f"  {label:<30} {text}\n")


class _Progress:
    """A one-line progress bar on stderr when it is a terminal."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.start = total, enabled, time.perf_counter()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        fraction = done / self.total
        elapsed = time.perf_counter() - self.start
        rate = done / elapsed if elapsed > 0 else math.inf
        bar = "#" * int(fraction * 30)
        sys.stderr.write(f"\r[{bar:<30}] {done}/{self.total} {rate:,.0f} it/s")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def cmd_export(args: argparse.Namespace) -> int:
    """Run a matrix game headless and write one figure (and optionally its data)."""
    if args.out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise RmvizError(f"--out {args.out}: figures are written as .png, .svg or .pdf")
    if args.data is not None and args.data.suffix.lower() not in (".csv", ".json"):
        raise RmvizError(f"--data {args.data}: run data is written as .csv or .json")
    game = load_game(args.game)
    if not isinstance(game, NormalFormGame):
        raise ConfigError("rmviz export draws matrix games; game trees are solved with rmviz solve")
    solver = _solver(args, game)
    assert isinstance(solver, RegretMinimizer)
    trace = record_run(solver, args.iterations)
    columns = {name: trace.column(name) for name in trace.names}
    if args.data is not None:
        write_run_data(args.data, game, solver.config, trace.iterations(), columns)
    from rmviz.ui.figures import RunData, render_figure

    data = RunData(game, known_equilibrium(game), trace.iterations(), columns, solver.snapshot().joint)
    render_figure(args.figure, data, args.out, args.size, args.dpi)
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    write_game_file(game, args.out)
    return 0


COMMANDS = ("games", "solve", "export", "convert", "bench")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``rmviz`` command: a subcommand, or the desktop app."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        from rmviz.ui.app import main as open_app

        return open_app(argv)
    args = build_parser().parse_args(argv)
    try:
        if args.command is None:
            return 0
        if args.command == "games":
            return cmd_games(sys.stdout)
        if args.command == "solve":
            return cmd_solve(args, sys.stdout)
        if args.command == "export":
            return cmd_export(args)
        if args.command == "convert":
            return cmd_convert(args)
        if args.command == "bench":
            from rmviz.bench import run_bench

            return run_bench(quick=args.quick, seconds=args.seconds, out=sys.stdout)
    except RmvizError as error:
        sys.stderr.write(f"rmviz: {error}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("rmviz: interrupted\n")
        return 130
    except BrokenPipeError:  # the reader closed the pipe (rmviz solve ... | head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
