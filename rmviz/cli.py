"""The command line: the same engine as the app, without a window.

    rmviz [GAME] [...]          open the desktop app (rmviz.ui.app; options in rmviz.ui.options)
    rmviz games                 list the catalog
    rmviz solve GAME [...]      run a solver and report strategies and equilibrium gaps
    rmviz step GAME [...]       regret matching iteration by iteration, every number shown
    rmviz equilibria GAME [...] check a joint distribution's CE and CCE constraints; the best
                                CE and CCE (and a zero-sum game's value) by linear programming;
                                a zero-sum tree's value and equilibrium (sequence-form LP)
    rmviz export GAME [...]     draw a run's figure (PNG, SVG, PDF) or the game as LaTeX
    rmviz convert GAME OUT      write a game as rmviz JSON, Gambit .nfg/.efg, or LaTeX
    rmviz bench [...]           measure iterations per second side by side
    rmviz sweep CONFIG --out R  games x algorithms x seeds on all cores or Dask, into a table
                                (--example NAME: a sweep config shipped with rmviz)
    rmviz deck LECTURE.toml     a lecture deck: slides of runs, PageDown / PageUp (rmviz.ui.deck)
    rmviz examples [--copy DIR] the example games, sweep configs and notebooks shipped with
                                rmviz (rmviz.examples), and where they are; or a copy of them

Errors a person can cause print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
import time
import warnings
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from rmviz.arguments import EXIT_USAGE, GAME_HELP, Parser, finite_float, length_inches, whole_number
from rmviz.atomic import atomic_write_text
from rmviz.crash import EXIT_BUG, bug_line, memory_line, output_line
from rmviz.errors import ConfigError, RmvizError, one_line
from rmviz.formats import write_game_file
from rmviz.games.catalog import CATALOG
from rmviz.games.generators import MAX_SEED
from rmviz.games.normal_form import NormalFormGame
from rmviz.loading import load_with_progress
from rmviz.numbers import plain_zeros
from rmviz.present.definitions import FIGURE_NAMES
from rmviz.present.number_text import duration
from rmviz.present.summaries import SUMMARIES
from rmviz.present.tree_labels import FRAME_WIDTH_CM, no_such_infoset
from rmviz.runner.record import record_run, record_traces, write_run_data
from rmviz.runner.session import Session, View, session_config, session_path, write_session
from rmviz.runner.trace import SavedRun, Trace
from rmviz.solvers.family import DEVIATIONS, EXPLORATION, PLAY_MODES, SCHEDULES, Family
from rmviz.solvers.jit import COMPILING, announce_compiles, prepare
from rmviz.solvers.jit import loaded as kernels_loaded
from rmviz.solvers.matrix.config import DTYPES
from rmviz.solvers.matrix.start import default_start_note, parse_probability
from rmviz.solvers.protocol import Solver
from rmviz.solvers.registry import (
    FAMILIES,
    MATRIX,
    TREE,
    compared_options,
    family_of,
    family_of_algorithm,
    make_solver,
)
from rmviz.solvers.threads import DEFAULT_THREADS, THREADS_VARIABLE, set_threads
from rmviz.ui import options as window_options
from rmviz.version import version

# each subcommand's function of the parsed arguments (its output goes to standard output);
# the functions are looked up when called, so they may be defined below
ESTIMATE_AFTER = 2.0  # seconds of a run before its pace estimates the rest
ESTIMATE_ABOVE = 60.0  # seconds: a longer run says how long it takes

HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "games": lambda args: cmd_games(sys.stdout),
    "solve": lambda args: cmd_solve(args, sys.stdout),
    "step": lambda args: cmd_step(args, sys.stdout),
    "equilibria": lambda args: cmd_equilibria(args, sys.stdout),
    "export": lambda args: cmd_export(args),
    "convert": lambda args: cmd_convert(args),
    "bench": lambda args: _bench(args),
    "sweep": lambda args: cmd_sweep(args, sys.stdout),
    "deck": lambda args: cmd_deck(args),
    "examples": lambda args: cmd_examples(args, sys.stdout),
    "precompile": lambda args: cmd_precompile(args, sys.stdout),
}
COMMANDS = tuple(HANDLERS)


USAGE = f"""{window_options.USAGE}   open the desktop app (the default)
       rmviz COMMAND [options]         {", ".join(COMMANDS)} (rmviz COMMAND --help)
       rmviz --version"""


def _add_threads_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threads",
        type=_positive_int,
        default=None,
        metavar="N",
        help=f"BLAS/OpenMP threads, and those that walk a big game tree's subtrees in CFR "
        f"(default ${THREADS_VARIABLE}, else {DEFAULT_THREADS}; docs/performance.md)",
    )


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: comma-separated sizes of at least 2, e.g. 100,1000")
    return sizes


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="rmviz",
        usage=USAGE,
        description="Watch regret minimisation find equilibria. Plain rmviz opens the desktop app\n"
        f"on GAME (default {window_options.DEFAULT_GAME}); the commands run the same engine "
        "without a window.\n\n" + textwrap.fill(f"GAME: {GAME_HELP}.", 79),
        epilog=window_options.window_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"rmviz {version()}")
    commands = parser.add_subparsers(
        dest="command", parser_class=Parser, title="commands", metavar="COMMAND", prog="rmviz"
    )

    commands.add_parser("games", help="list the built-in games")

    solve = commands.add_parser("solve", help="run a solver on a game")
    _add_run_arguments(solve)
    solve.add_argument("--trace", type=Path, help="write metrics every --every iterations (.csv or .json)")
    solve.add_argument("--every", type=_positive_int, default=None, help="trace interval (default n/100)")
    solve.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    solve.add_argument(
        "--save-session",
        type=Path,
        metavar="FILE",
        help="also save the run as a session the window reopens at once and goes on with "
        "(the window's settings: a report of a large game may lack the joint)",
    )

    step = commands.add_parser(
        "step",
        help="a run iteration by iteration: utilities, regrets, next strategy (game trees: "
        "CFR at each information set)",
    )
    _add_run_arguments(step)
    step.set_defaults(iterations=1)
    step.add_argument(
        "--actions",
        default=None,
        metavar="A,B;C,D;...",
        help="sampled play: the profile each iteration draws (action names, 1-based numbers or "
        "draw, players separated by commas, iterations by semicolons); later iterations draw at random",
    )
    step.add_argument(
        "--infoset",
        action="append",
        default=[],
        metavar="LABEL",
        help="game trees: the information set explained (repeatable; default every one)",
    )
    step.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    step.add_argument(
        "--latex", action="store_true", help="matrix games: each iteration as a booktabs LaTeX tabular"
    )

    equilibria = commands.add_parser(
        "equilibria",
        help="a joint distribution's CE and CCE constraints, the welfare-maximising CE and CCE (LP); "
        "a zero-sum game tree's value and equilibrium (sequence-form LP)",
    )
    equilibria.add_argument("game", help=GAME_HELP)
    equilibria.add_argument(
        "--joint",
        default=None,
        metavar="P1,P2,...",
        help="one probability per action profile in table order (the first player's action "
        'slowest; fractions allowed), e.g. --joint "2/9,4/9,1/9,2/9"; weights are normalised',
    )
    equilibria.add_argument("--no-lp", action="store_true", help="skip the linear programmes")
    equilibria.add_argument("--json", action="store_true", help="print one JSON object on stdout")

    export = commands.add_parser(
        "export", help="render a figure of a run headless (PNG, SVG, PDF; the game as LaTeX: .tex)"
    )
    _add_run_arguments(export)
    export.add_argument(
        "--figure",
        choices=FIGURE_NAMES,
        help="which figure (default: dashboard for matrix games, strategies for trees, which "
        "draw strategies, gaps, compare, tree, tikz); compare runs each algorithm of -a A,B,... "
        "(default: compare mode's choice)",
    )
    export.add_argument(
        "--out", "-o", type=Path, required=True, help="FILE.png, .svg or .pdf (tikz: FILE.tex)"
    )
    export.add_argument(
        "--style", choices=("paper", "slides"), default="slides", help="fonts and lines (default slides)"
    )
    export.add_argument(
        "--size", type=_size, default=None, metavar="WxH", help="pixels at --dpi (default per figure)"
    )
    export.add_argument("--dpi", type=_positive_int, default=150, help="dots per inch (default 150)")
    export.add_argument(
        "--width",
        type=length_inches,
        default=None,
        metavar="LENGTH",
        help=f"the tree figure's and the TikZ tree's width (default {FRAME_WIDTH_CM:g}cm, a beamer "
        "frame's text width; cm, mm, in or pt)",
    )
    export.add_argument(
        "--data", type=Path, help="also write the run's trace with its config (.csv or .json)"
    )
    export.add_argument(
        "--field",
        action="store_true",
        help="simplex and dashboard: draw the vector field of the algorithm's continuous-time "
        "dynamic under the paths (replicator for Hedge, BNN for RM, best response for FP...)",
    )
    export.add_argument(
        "--field-step",
        type=_field_step,
        default=None,
        metavar="ETA",
        help="with --field: from the newest point, the algorithm's steps of size ETA (per unit of "
        "payoff range) beside the flow's trajectory, over the same time",
    )

    convert = commands.add_parser("convert", help="write a game as .json, .nfg, .efg, or LaTeX (.tex)")
    convert.add_argument("game", help=GAME_HELP)
    convert.add_argument("out", type=Path)

    bench = commands.add_parser("bench", help="iterations per second, measured side by side")
    bench.add_argument("--quick", action="store_true", help="short timings, skip 4000x4000")
    bench.add_argument("--seconds", type=_positive_float, default=None, help="time budget per measurement")
    bench.add_argument(
        "--sizes",
        type=_sizes,
        default=None,
        metavar="N,N,...",
        help="the square zero-sum games (default 100,1000,4000; --quick 100,1000); 8000 needs ~1.5 GB",
    )
    bench.add_argument(
        "--device",
        choices=("cpu", "gpu"),
        default="cpu",
        help="gpu: add the GPU's rows (large RM, batched games) beside the CPU's (needs CuPy)",
    )
    _add_threads_argument(bench)

    precompile = commands.add_parser(
        "precompile",
        help="compile the solver kernels now, in parallel, so that a first run starts at once "
        "(after installing or upgrading)",
    )
    precompile.add_argument(
        "--jobs", type=_positive_int, default=None, help="processes (default: one per CPU core)"
    )

    sweep = commands.add_parser(
        "sweep", help="run a grid of games x algorithms x seeds into one table and figures (rmviz.sweep)"
    )
    config = sweep.add_mutually_exclusive_group(required=True)
    config.add_argument("config", nargs="?", type=Path, help="the sweep's TOML file (docs/research.md)")
    config.add_argument(
        "--example", metavar="NAME", help="a sweep config shipped with rmviz (rmviz examples lists them)"
    )
    sweep.add_argument("--out", "-o", type=Path, required=True, help="results folder (resumed if it exists)")
    where = sweep.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs", "-j", type=_positive_int, default=None, help="local processes (default: all cores)"
    )
    where.add_argument("--dask", metavar="ADDRESS", help="run the tasks on this Dask scheduler instead")
    sweep.add_argument("--shard", metavar="I/N", help="run part I of N of the grid (1-based)")
    sweep.add_argument("--csv", action="store_true", help="also write results.csv")
    sweep.add_argument("--no-figures", action="store_true", help="skip the figure per metric")
    sweep.add_argument(
        "--granularity",
        choices=("game", "cell"),
        help="one task per game (default) or per game x algorithm x seed (cell); the same table",
    )
    sweep.add_argument(
        "--retries", type=int, metavar="N", help="on Dask, run a failed task up to N times more (default 0)"
    )

    deck = commands.add_parser(
        "deck", help="open a lecture deck: slides of runs in presentation mode (docs/deck-format.md)"
    )
    deck.add_argument("deck", type=Path, metavar="FILE", help="the deck's TOML file")
    deck.add_argument(
        "--screenshot",
        type=window_options.screenshot_file,
        metavar="FILE",
        help="save each slide as FILE with -01, -02, ... before its suffix once its run is there, then quit",
    )
    deck.add_argument(
        "--size",
        type=window_options.window_size,
        metavar="WxH",
        help="the slides' size, e.g. 1920x1080 (default: full screen; with --screenshot, "
        f"{window_options.HEADLESS_SIZE[0]}x{window_options.HEADLESS_SIZE[1]})",
    )
    deck.add_argument("--slide", type=_positive_int, metavar="N", help="the slide to start on (from 1)")

    examples = commands.add_parser(
        "examples", help="the example games, sweep configs and notebooks shipped with rmviz, and where"
    )
    examples.add_argument(
        "--copy",
        type=Path,
        metavar="DIR",
        help="copy them all into DIR/games, DIR/sweeps, DIR/notebooks, DIR/decks",
    )
    return parser


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The game and solver arguments that ``solve`` and ``export`` share."""
    parser.add_argument("game", help=GAME_HELP)
    parser.add_argument(
        "--algorithm",
        "-a",
        default=None,
        help="; ".join(
            f"{family.title}: {', '.join(family.presets)} (default {family.default_algorithm})"
            for family in FAMILIES
        ),
    )
    parser.add_argument(
        "--iterations", "-n", type=_iterations, default=1000, help="iterations to run (default 1000)"
    )
    parser.add_argument(
        "--play", choices=PLAY_MODES, default=None, help="expected payoffs or sampled actions"
    )
    parser.add_argument(
        "--updates",
        choices=SCHEDULES,
        default=None,
        help="both players at once, or in turn (default: the algorithm's)",
    )
    parser.add_argument(
        "--deviations",
        choices=DEVIATIONS,
        default=None,
        help="efr: the deviation set (default causal; docs/algorithms.md maps them to OpenSpiel's)",
    )
    parser.add_argument("--seed", type=_seed, default=0, help="random seed, 0 to 2^63-1 (default 0)")
    parser.add_argument(
        "--device",
        choices=("auto", "cpu", "gpu"),
        default="auto",
        help="auto (the default): an NVIDIA GPU for a large game where CuPy finds one, else the CPU",
    )
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
        "--step-size",
        type=float,
        dest="step_size",
        help="hedge, optimistic-hedge, ftrl: a constant learning rate per unit of the payoff range, "
        "up to 1e6 (default: the preset's: the anytime schedule ~1/sqrt(t); optimistic-hedge 0.25)",
    )
    parser.add_argument(
        "--last-iterate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also measure the current profile's distances (last_* in --json, traces, figures): "
        "on by default for matrix games, off for trees (a second best-response pass)",
    )
    parser.add_argument(
        "--exploration",
        type=float,
        help=f"outcome-sampling MCCFR: the traverser's share of uniform exploration, in (0, 1] "
        f"(default {EXPLORATION:g})",
    )
    parser.add_argument(
        "--dtype",
        choices=DTYPES,
        default=None,
        help="matrix games, two players, expected play: precision of the payoff matrix the "
        "compiled products read (float32 halves the memory traffic; default float64)",
    )
    _add_threads_argument(parser)
    parser.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="PLAYER=P1,P2,...",
        help="fix a player's mixed strategy (1-based player), e.g. --fix 2=0.4,0.3,0.3",
    )
    parser.add_argument(
        "--start",
        action="append",
        default=[],
        metavar="PLAYER=P1,P2,...",
        help="a player's strategy at iteration 1 (1-based player; fractions allowed), e.g. "
        "--start 1=1/2,1/4,1/4; players not named start uniform (default: uniform, or the "
        "catalog game's documented start)",
    )


_size = window_options.pixel_size(16, 16000)


def _positive_int(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


MAX_ITERATIONS = 2**53  # iteration counts stay exact in the float weights t, t^gamma


def _iterations(text: str) -> int:
    value = _positive_int(text)
    if value > MAX_ITERATIONS:
        raise argparse.ArgumentTypeError(f"{text[:40]} is more than 2^53 iterations")
    return value


def _seed(text: str) -> int:
    value = whole_number(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text[:40]} is not a seed from 0 to 2^63-1")
    return value


def _field_step(text: str) -> float:
    """``--field-step``: a step the simplex figure can draw (:func:`check_drawn_step`)."""
    from rmviz.present.dynamics import check_drawn_step

    try:
        return check_drawn_step(finite_float(text))
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _positive_float(text: str) -> float:
    value = finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value:g} must be positive")
    return value


def _parse_profile(game: NormalFormGame, specs: list[str], flag: str) -> dict[int, list[float]]:
    """``--fix``/``--start`` ``PLAYER=P1,P2,...`` (1-based player; decimals or fractions such as
    1/3) as ``{player index: probabilities}``; the solver checks the probabilities."""
    strategies: dict[int, list[float]] = {}
    for spec in specs:
        player, _, probabilities = spec.partition("=")
        try:
            index = int(player) - 1
            values = [parse_probability(p) for p in probabilities.split(",")]
        except (ValueError, ZeroDivisionError):
            raise ConfigError(f"{flag} {spec!r}: write PLAYER=P1,P2,... e.g. {flag} 2=0.4,0.3,0.3") from None
        if not 0 <= index < game.n_players:
            raise ConfigError(f"{flag} {spec!r}: players are numbered 1 to {game.n_players}")
        strategies[index] = values
    return strategies


# -- commands ------------------------------------------------------------------------------
def cmd_games(out: TextIO) -> int:
    """The catalog, a game a line: its id, players and size, description (each column as wide
    as its widest entry, so the descriptions line up: Leduc's "468+468 infosets" ran past)."""
    width = max(len(e.id) for e in CATALOG.values())

    def lines(rows: list[tuple[str, str, str]]) -> None:
        size = max(len(r[1]) for r in rows)
        for name, shape, description in rows:
            out.write(f"{name:<{width}}  {shape:<{size}}  {description}\n")

    matrices = [(e, e.build()) for e in CATALOG.values() if not e.is_tree]
    lines([(e.id, f"{g.n_players}p {g.shape_label}", e.description) for e, g in matrices])
    tree_algorithms = ", ".join(TREE.presets)
    out.write(f"\ngame trees (algorithms: {tree_algorithms}):\n")
    trees = [(e, e.build()) for e in CATALOG.values() if e.is_tree]
    counts = ["+".join(str(len(labels)) for labels in t.infosets) for _, t in trees]
    lines(
        [
            (e.id, f"{t.n_players}p {c} infosets", e.description)
            for (e, t), c in zip(trees, counts, strict=True)
        ]
    )
    out.write("\nrandom games: random:KIND:SHAPE[:seed=N], KIND zero-sum | general-sum | cooperative\n")
    from rmviz.formats.openspiel import fitting_games

    names = fitting_games()
    if names:  # OpenSpiel installed: its games that walk into a tree here
        out.write(
            "\nOpenSpiel games: openspiel:NAME[(PARAM=VALUE,...)], e.g. "
            "openspiel:goofspiel(num_cards=4,imp_info=True); NAME one of\n"
        )
        out.write(textwrap.fill(", ".join(names), width=100) + "\n")
    return 0


def _solver(
    args: argparse.Namespace, game: Any, report: bool = False, algorithm: str | None = None
) -> Solver:
    """The solver the arguments ask for (:func:`~rmviz.solvers.registry.make_solver`; another
    ``algorithm`` than ``--algorithm`` if given); ``report``: it also tracks what ``--json``
    reports (the joint distribution)."""
    return make_solver(game, algorithm or args.algorithm, report=report, **_options(args, game))


def _options(args: argparse.Namespace, game: Any) -> dict[str, Any]:
    """The solver options of the arguments (those of ``make_solver``)."""
    return dict(
        play=args.play,
        updates=args.updates,
        deviations=args.deviations,
        seed=args.seed,
        device=None if args.device == "auto" else args.device,
        alpha=args.alpha,
        beta=args.beta,
        gamma=args.gamma,
        greedy_floor=args.greedy_floor,
        inertia=args.inertia,
        step_size=args.step_size,
        exploration=args.exploration,
        dtype=args.dtype,
        fixed_strategies=_parse_profile(game, args.fix, "--fix") if args.fix else None,
        start=_parse_profile(game, args.start, "--start") if args.start else None,
        last_iterate=args.last_iterate,
    )


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    if args.trace is not None and args.trace.suffix.lower() not in (".csv", ".json"):
        raise RmvizError(f"--trace {args.trace}: write a .csv or a .json file")
    session = None if args.save_session is None else session_path(args.save_session)
    if session is not None and not session.parent.is_dir():
        raise RmvizError(f"--save-session {args.save_session}: there is no folder {session.parent}")
    game = load_with_progress(args.game)
    solver = _solver(args, game, report=args.json)
    if session is not None:  # the run the window reopens: its settings, its trace grid
        tracked = solver.last_iterate
        solver = family_of(solver.game).solver(solver.game, session_config(solver.game, solver.config))
        solver.last_iterate = tracked
    prepare(args.iterations)  # import numba if this run uses its kernels (a short one need not)
    announce_compiles(lambda: sys.stderr.write(f"rmviz: {COMPILING}\n"))  # not a silent minute
    solver.step(0)  # load the compiled kernel (numba's cache) before the clock starts
    # the pace is measured from here: a first run's compilation (30 s and more) once made
    # 100,000 iterations of rps "take about 28.8 days"
    progress = _Progress(args.iterations, enabled=sys.stderr.isatty() and not args.json)
    start = time.perf_counter()
    every = args.every or max(1, args.iterations // 100)
    trace = Trace(solver.columns, every=every)
    shown = Trace(solver.columns, Session.points_per_decade)
    if args.trace or session:
        traces = [trace] * bool(args.trace) + [shown] * bool(session)
        record_traces(solver, args.iterations, traces, progress.update)
    else:
        chunk = 1  # doubled while a chunk takes under a tenth of a second: progress stays live
        while solver.iteration < args.iterations:
            began = time.perf_counter()
            solver.step(min(chunk, args.iterations - solver.iteration))
            progress.update(solver.iteration)
            if time.perf_counter() - began < 0.1:
                chunk = min(2 * chunk, 10_000_000)
    seconds = time.perf_counter() - start
    progress.close()
    snap = solver.snapshot(metrics=True)
    if args.trace:
        write_run_data(args.trace, solver, trace.data())
    if session is not None:
        saved = SavedRun(solver.checkpoint(), *shown.kept())
        view = View(last_iterate=args.last_iterate)  # the window tracks it as the run did
        write_session(Session(solver.game, solver.config, solver.iteration, view=view, saved=saved), session)
    report = _report(args.game, solver, snap, seconds)
    if args.json:
        out.write(json.dumps(plain_zeros(report), allow_nan=False) + "\n")
    else:
        out.write(SUMMARIES[family_of(solver.game)](report, solver.game))
    return 0


def cmd_step(args: argparse.Namespace, out: TextIO) -> int:
    """``rmviz step``: each iteration's numbers, in the step mode of the game's family
    (:data:`STEPS`)."""
    game = load_with_progress(args.game)
    family = family_of(game)
    if family not in STEPS:
        explained = " and ".join(known.title for known in STEPS)
        raise ConfigError(f"rmviz step explains {explained}, not {family.title}")
    return STEPS[family](args, game, family, out)


def _step_matrix(args: argparse.Namespace, game: Any, family: Family, out: TextIO) -> int:
    """``rmviz step`` on a matrix game: each iteration's numbers
    (:mod:`rmviz.solvers.matrix.explain`, written by :mod:`rmviz.present.step_text`)."""
    from rmviz.present.step_latex import step_tabular
    from rmviz.present.step_text import format_step
    from rmviz.solvers.matrix.explain import step_explained
    from rmviz.solvers.matrix.script import parse_script

    if args.infoset:
        raise ConfigError("--infoset chooses information sets of game trees; this is a matrix game")
    if args.algorithm is not None and family_of_algorithm(args.algorithm) is not family:
        raise ConfigError(f"rmviz step explains matrix-game algorithms, not {args.algorithm!r}")
    if args.actions is not None and args.play == "expected":
        raise ConfigError("--actions scripts the draws of sampled play: leave out --play expected")
    if args.device == "gpu":
        raise ConfigError("rmviz step runs on the CPU (leave out --device gpu)")
    options = _options(args, game)
    options["device"] = "cpu"
    if args.actions is not None:
        options["play"] = "sampled"
    solver = make_solver(game, args.algorithm, **options)
    try:
        scripted = parse_script(game, args.actions) if args.actions is not None else []
    except ConfigError as error:
        raise ConfigError(f"--actions, {error}") from None
    steps = []
    for t in range(args.iterations):
        try:
            steps.append(step_explained(solver, scripted[t] if t < len(scripted) else None))
        except ConfigError as error:
            raise ConfigError(f"--actions, iteration {t + 1}: {error}") from None
    if args.json:
        actions = [list(a) for a in game.action_names]
        iterations = [step.as_dict() for step in steps]
        return _step_report(args, game, solver, out, actions=actions, iterations=iterations)
    if args.latex:
        out.write("\n".join(step_tabular(step) for step in steps))
        return 0
    description = family.describe(solver.config)
    config = solver.config
    updates = "; alternating updates" if config.updates == "alternating" else ""
    run = f"{config.algorithm}, {description}; {config.play} play{updates}"
    out.write(f"{game.title}  ({args.game}): {run}\n")
    note = None if args.start else default_start_note(game, list(options["fixed_strategies"] or ()))
    if note is not None:  # a catalog game's pi^1 is not uniform: say why (--start chooses another)
        out.write(f"pi^1: {note} (--start chooses another)\n")
    for step in steps:
        out.write("\n" + format_step(step) + "\n")
    return 0


def _step_report(args: argparse.Namespace, game: Any, solver: Solver, out: TextIO, **fields: Any) -> int:
    """``rmviz step --json``: the game, the algorithm and the players, then ``fields``."""
    report = {
        "game": args.game,
        "title": game.title,
        "algorithm": solver.config.algorithm,
        "players": list(game.player_names),
        **fields,
    }
    out.write(json.dumps(plain_zeros(report), allow_nan=False) + "\n")
    return 0


def _step_tree(args: argparse.Namespace, game: Any, family: Family, out: TextIO) -> int:
    """``rmviz step`` on a game tree: each CFR iteration at the chosen information sets, the
    tree window's explanation as text (:mod:`rmviz.present.tree_explain`)."""
    from rmviz.present.tree_explain import explanation_text
    from rmviz.solvers.tree.explain import explain_infoset

    if args.actions is not None:
        raise ConfigError("--actions scripts matrix-game draws; game trees sample with --seed")
    if args.latex:
        raise ConfigError("--latex writes matrix-game step tables; game trees have none")
    if args.algorithm is not None and family_of_algorithm(args.algorithm) is not family:
        raise ConfigError(
            f"{args.algorithm!r} is a matrix-game algorithm; game trees run CFR and its variants"
        )
    if args.device == "gpu":
        raise ConfigError("rmviz step runs on the CPU (leave out --device gpu)")
    options = _options(args, game)
    options["device"] = "cpu"
    solver = make_solver(game, args.algorithm, **options)
    tree = solver.tree
    labels = list(tree.infoset_label)
    for label in args.infoset:
        if label not in labels:
            raise ConfigError(no_such_infoset(label, labels))
    chosen = [j for j, label in enumerate(labels) if not args.infoset or label in args.infoset]
    iterations = []
    for _ in range(args.iterations):
        record = solver.step_recorded()
        iterations.append(
            [explain_infoset(tree, solver.config, game.player_names, record, j) for j in chosen]
        )
    if args.json:
        shown = [
            {"iteration": t, "infosets": [step.as_dict() for step in steps]}
            for t, steps in enumerate(iterations, start=1)
        ]
        return _step_report(args, game, solver, out, iterations=shown)
    description = family.describe(solver.config)
    config = solver.config
    out.write(f"{game.title}  ({args.game}): {config.algorithm}, {description}; {config.updates} updates\n")
    for steps in iterations:
        for step in steps:
            out.write("\n" + explanation_text(step) + "\n")
    return 0


# the step mode of each family that has one
STEPS: dict[Family, Callable[[argparse.Namespace, Any, Family, TextIO], int]] = {
    MATRIX: _step_matrix,
    TREE: _step_tree,
}


def cmd_equilibria(args: argparse.Namespace, out: TextIO) -> int:
    """``rmviz equilibria``: the CE checker and the exact references
    (:mod:`rmviz.solvers.matrix.correlated`, :func:`rmviz.solvers.exact.zero_sum_solution`)."""
    from rmviz.present.correlated_text import format_check, format_optimum, format_zero_sum
    from rmviz.solvers.exact import zero_sum_solution
    from rmviz.solvers.matrix.correlated import best_correlated, check_joint, parse_joint, profile_label

    game = load_with_progress(args.game)
    if not family_of(game).correlated:
        return _equilibria_tree(args, game, out)
    check = check_joint(game, parse_joint(args.joint)) if args.joint is not None else None
    if check is None and args.no_lp:
        raise ConfigError("nothing to do: give --joint, or leave out --no-lp")
    zero_sum, optima, skipped = None, [], None
    if not args.no_lp:
        try:
            if game.n_players == 2 and game.is_constant_sum():
                zero_sum = zero_sum_solution(game)
            optima = [best_correlated(game, kind) for kind in ("CE", "CCE")]
        except RmvizError as error:
            if check is None:
                raise
            skipped = str(error)
    if args.json:
        report: dict[str, Any] = {
            "game": args.game,
            "title": game.title,
            "players": list(game.player_names),
            "actions": [list(a) for a in game.action_names],
            "profiles": [profile_label(game, s) for s in np.ndindex(*game.num_actions)],
            "check": check.as_dict() if check is not None else None,
            "zero_sum": None,
            "lp_skipped": skipped,
        }
        if zero_sum is not None:
            report["zero_sum"] = {
                "values": [float(v) for v in zero_sum.values],
                "values_exact": [str(v) for v in zero_sum.values] if zero_sum.exact else None,
                "equilibrium": [list(s) for s in zero_sum.equilibrium],
                "exact": zero_sum.exact,
            }
        for optimum in optima:
            report[f"best_{optimum.kind.lower()}"] = {
                "welfare": float(optimum.welfare),
                "welfare_exact": str(optimum.welfare) if optimum.exact else None,
                "joint": [float(p) for p in optimum.joint.ravel()],
                "joint_exact": [str(p) for p in optimum.joint.ravel()] if optimum.exact else None,
                "exact": optimum.exact,
            }
        out.write(json.dumps(plain_zeros(report), allow_nan=False) + "\n")
        return 0
    out.write(f"{game.title}  ({args.game}, {game.n_players} players, {game.shape_label})\n")
    if check is not None:
        out.write("\n" + format_check(check) + "\n")
    if zero_sum is not None:
        out.write("\n" + format_zero_sum(game, zero_sum) + "\n")
    for optimum in optima:
        out.write("\n" + format_optimum(optimum) + "\n")
    if skipped is not None:
        out.write(f"\nBest CE and CCE not computed: {skipped}\n")
    return 0


def _equilibria_tree(args: argparse.Namespace, game: Any, out: TextIO) -> int:
    """``rmviz equilibria TREE``: the value and an equilibrium of a two-player zero-sum tree
    by the sequence-form LP (:mod:`rmviz.solvers.tree.sequence_lp`); the welfare-maximising
    EFCE and EFCCE of a small two-player tree (:mod:`rmviz.solvers.tree.correlated_lp`)."""
    from rmviz.present.tree_reference_text import (
        correlated_report,
        format_tree_correlated,
        format_tree_zero_sum,
    )
    from rmviz.solvers.tree.compiled_tree import compile_tree, strategy_table
    from rmviz.solvers.tree.correlated_lp import KINDS, best_correlated_tree
    from rmviz.solvers.tree.sequence_lp import refusal, solve_zero_sum_tree

    if args.joint is not None:
        raise ConfigError("--joint lists a matrix game's action profiles; a game tree has none")
    if args.no_lp:
        raise ConfigError("nothing to do: a game tree's references are linear programmes (leave out --no-lp)")
    tree = compile_tree(game)
    why = refusal(game, tree)
    solution = solve_zero_sum_tree(game, tree, exact=True) if why is None else None
    optima, skipped = [], None
    if game.n_players == 2:
        try:
            optima = [best_correlated_tree(game, kind) for kind in KINDS]
        except RmvizError as error:  # too large for the reduced strategic form
            skipped = str(error)
    if solution is None and not optima:
        raise ConfigError(f"{why}; {skipped}" if skipped else str(why))
    if args.json:
        report: dict[str, Any] = {
            "game": args.game,
            "title": game.title,
            "players": list(game.player_names),
            "zero_sum": None,
            "correlated_skipped": skipped,
        }
        if solution is not None:
            report["zero_sum"] = {
                "values": list(solution.values),
                "values_exact": None
                if solution.exact_value is None
                else [str(solution.exact_value), str(-solution.exact_value)],
                "nash_conv": solution.nash_conv,
                "seconds": solution.seconds,
                "equilibrium": strategy_table(tree, game.player_names, solution.strategy),
            }
        for optimum in optima:
            report[f"best_{optimum.kind.lower()}"] = correlated_report(optimum)
        out.write(json.dumps(plain_zeros(report), allow_nan=False) + "\n")
        return 0
    sizes = f"{tree.n_nodes:,} histories, {tree.n_infosets:,} information sets"
    out.write(f"{game.title}  ({args.game}, {game.n_players} players, {sizes})\n")
    if solution is not None:
        out.write("\n" + format_tree_zero_sum(game, tree, solution) + "\n")
    for optimum in optima:
        out.write("\n" + format_tree_correlated(game, optimum) + "\n")
    if skipped is not None:
        out.write(f"\nBest EFCE and EFCCE not computed: {skipped}\n")
    return 0


def _report(spec: str, solver: Solver, snap: Any, seconds: float) -> dict[str, Any]:
    metrics = snap.metrics
    assert metrics is not None
    game = solver.game
    return {
        "game": spec,
        "title": game.title,
        "algorithm": solver.config.algorithm,
        "iterations": snap.iteration,
        "players": list(game.player_names),
        **metrics.as_dict(),
        "exploitability_convention": "NashConv / number of players",
        "seconds": seconds,
        "iterations_per_second": snap.iteration / seconds if seconds > 0 else None,
        "compiled": kernels_loaded(),  # False: a short run took the array code (jit.SHORT_RUN)
        **solver.report(snap),
    }


class _Progress:
    """A one-line progress bar on stderr when it is a terminal, with the time left; elsewhere
    one line saying how long a run will take, once its pace is known, when that is longer
    than :data:`ESTIMATE_ABOVE` seconds (a run of 10^10 iterations says so as it starts).
    The pace is measured from the first update on: the first chunk may have compiled kernels
    (EFR's first iteration: "200 iterations at 0 it/s take about 28 minutes", done in 15 s)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.start = total, enabled, time.perf_counter()
        self.estimated = False
        self.first: tuple[float, int] | None = None  # when the first update came, and its count

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if self.first is None:
            self.first = (now, done)
        since, before = self.first
        elapsed = now - since
        rate = (done - before) / elapsed if elapsed > 0 else None
        left = (self.total - done) / rate if rate else math.inf
        known = rate is not None and elapsed >= ESTIMATE_AFTER and done < self.total
        if self.enabled:
            bar = "#" * int(done / self.total * 30)
            pace = f" {rate:,.0f} it/s" if rate is not None else ""
            about = f", about {duration(left)} left" if known else ""
            sys.stderr.write(f"\r[{bar:<30}] {done:,}/{self.total:,}{pace}{about}   ")
            sys.stderr.flush()
        elif not self.estimated and known and left > ESTIMATE_ABOVE:
            self.estimated = True
            sys.stderr.write(
                f"rmviz: {self.total:,} iterations at {rate:,.0f} it/s take about "
                f"{duration(now - self.start + left)} (^C stops; -n asks for fewer)\n"
            )

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def cmd_export(args: argparse.Namespace) -> int:
    """Run a game headless and write one figure of the run (and optionally its data); the
    compare figure runs each algorithm of ``-a A,B,...`` (default: compare mode's choice)."""
    from rmviz.figures.registry import FIGURES, check_target, default_figure, save_figure, sized_by_width
    from rmviz.figures.run import RunData, compared_with

    if args.data is not None and args.data.suffix.lower() not in (".csv", ".json"):
        raise RmvizError(f"--data {args.data}: run data is written as .csv or .json")
    game = load_with_progress(args.game)
    figure = args.figure or default_figure(family_of(game))
    if args.width is not None and not sized_by_width(figure):  # it was taken and ignored
        widths = " and ".join(name for name in FIGURES if sized_by_width(name))
        raise ConfigError(f"--width sizes the {widths} figures; --size sizes the {figure} figure")
    algorithms = args.algorithm.split(",") if args.algorithm else []
    if len(algorithms) > 1 and figure != "compare":
        raise ConfigError(f"-a {args.algorithm}: several algorithms are drawn by --figure compare only")
    if figure == "compare" and not algorithms:
        algorithms = list(family_of(game).compare_default)
    first = algorithms[0] if algorithms else None
    if figure == "compare":  # each algorithm takes the parameters it uses (--step-size)
        solver = make_solver(game, first, **compared_options(game, first, _options(args, game)))
    else:
        solver = _solver(args, game, algorithm=first)
    family = family_of(solver.game)
    as_tree = family is not family_of(game)  # a game tree's algorithm runs a matrix game as a tree
    if as_tree:
        figure = args.figure or default_figure(family)
    size = None if args.size is None else (args.size[0] / args.dpi, args.size[1] / args.dpi)
    try:
        check_target(figure, family, args.out, args.dpi, args.style, size, solver.game)
    except ConfigError as error:
        if not as_tree:
            raise
        raise ConfigError(f"{error} (-a {first} runs {args.game} as a game tree)") from None
    trace = record_run(solver, args.iterations)
    if args.data is not None:
        write_run_data(args.data, solver, trace.data())
    field = args.field or args.field_step is not None
    run = RunData.of(solver, trace.data(), dynamics=field, dynamics_step=args.field_step)
    if figure == "compare":
        run = compared_with(run, algorithms[1:], **_options(args, game))
    save_figure(figure, run, args.out, args.style, size, args.dpi, args.width)
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    game = load_with_progress(args.game)
    if args.out.suffix.lower() == ".tex":  # the game for LaTeX: a payoff table or a TikZ tree
        from rmviz.figures.tikz import game_document

        atomic_write_text(args.out, game_document(game))
        return 0
    write_game_file(game, args.out)
    return 0


def cmd_sweep(args: argparse.Namespace, out: TextIO) -> int:
    from rmviz.examples import example_path, sweep_example
    from rmviz.sweep.run import run_sweep, stderr_log

    with ExitStack() as stack:
        config = args.config
        if args.example is not None:
            config = stack.enter_context(example_path(sweep_example(args.example)))
        report = run_sweep(
            config,
            args.out,
            jobs=args.jobs,
            dask=args.dask,
            shard=args.shard,
            csv=args.csv,
            figures=not args.no_figures,
            log=stderr_log,
            granularity=args.granularity,
            retries=args.retries,
        )
    out.write(f"{report.ran} tasks run in {report.seconds:.2f} s, {report.skipped} done before")
    if not report.complete:
        out.write(f", {report.pending} left to other shards: the table is written when all are done\n")
        return 0
    out.write(f"; {len(report.table):,} rows\n")
    for path in report.files:
        out.write(f"  {path}\n")
    return 0


EXAMPLE_USES = {
    "games": "open one with rmviz FILE, solve it with rmviz solve FILE",
    "sweeps": "run one with rmviz sweep --example NAME --out FOLDER",
    "notebooks": "rmviz examples --copy DIR, then jupyter lab DIR/notebooks; they need rmviz[notebook]",
    "decks": "open one with rmviz deck FILE (PageDown / PageUp)",
}


def cmd_examples(args: argparse.Namespace, out: TextIO) -> int:
    """``rmviz examples``: what :mod:`rmviz.examples` ships, a line each and its path; with
    ``--copy DIR``, a copy of every file in DIR."""
    from rmviz.examples import KINDS, copy_examples, examples

    if args.copy is not None:
        written = copy_examples(args.copy)
        out.write(f"{len(written)} example files copied into {args.copy}:\n")
        for kind in KINDS:
            out.write(f"  {args.copy / kind}\n")
        return 0
    shipped = examples()
    width = max(len(example.listed_as) for example in shipped)
    for kind in KINDS:
        if kind != KINDS[0]:
            out.write("\n")
        out.write(f"{kind} ({EXAMPLE_USES[kind]}):\n")
        for example in (e for e in shipped if e.kind == kind):
            out.write(f"  {example.listed_as:<{width}}  {example.description}\n")
            out.write(f"  {'':<{width}}  {example.file}\n")
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    """``rmviz deck FILE``: the lecture deck's windows (:mod:`rmviz.ui.deck`)."""
    from rmviz.ui.deck.main import run_deck

    return run_deck(args)


def cmd_precompile(args: argparse.Namespace, out: TextIO) -> int:
    """Compile every kernel into numba's cache (:mod:`rmviz.solvers.precompile`)."""
    from rmviz.solvers.jit import AVAILABLE, cache_dir
    from rmviz.solvers.precompile import precompile

    if not AVAILABLE:
        out.write("numba is not installed: the solvers run their NumPy code, nothing to compile\n")
        return 0
    seconds = precompile(args.jobs)
    out.write(f"kernels compiled or loaded in {seconds:.1f} s, cached in {cache_dir()}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``rmviz`` command: a subcommand, or the desktop app."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        from rmviz.ui.app import main as open_app

        return open_app(argv)
    if sys.stdout is None or sys.stderr is None:  # started with a standard stream closed
        if sys.stderr is not None:
            sys.stderr.write("rmviz: standard output is closed: nothing could be printed\n")
        return EXIT_USAGE
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings():
            if not sys.warnoptions:  # one line for a person; python -W shows library warnings
                warnings.simplefilter("ignore")
            code = _run_command(args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return code
    except RmvizError as error:
        sys.stderr.write(one_line(f"rmviz: {error}") + "\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("rmviz: interrupted\n")
        return 130
    except BrokenPipeError:  # the reader closed the pipe (rmviz solve ... | head): stop quietly
        _quiet_stdout()
        return 1
    except MemoryError:
        sys.stderr.write(memory_line() + "\n")
        return EXIT_USAGE
    except OSError as error:  # the machine's (a full disk, a closed stream), not a bug
        _quiet_stdout()
        sys.stderr.write(output_line(error) + "\n")
        return EXIT_USAGE
    except Exception as error:  # a bug: one line, the traceback in a log file
        sys.stderr.write(bug_line(error, argv) + "\n")
        return EXIT_BUG


def _bench(args: argparse.Namespace) -> int:
    from rmviz.bench import run_bench

    return run_bench(
        quick=args.quick, seconds=args.seconds, out=sys.stdout, sizes=args.sizes, device=args.device
    )


def _run_command(args: argparse.Namespace) -> int:
    """The subcommand ``args.command``; its exit status."""
    if args.command is None:
        return 0
    set_threads(vars(args).get("threads"))  # commands without --threads: the default
    return HANDLERS[args.command](args)


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's flush at exit does
    not print a second error."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
