"""How long does reopening a session take: putting its saved run back against re-running it?

For each case a run is stepped to T on the app's trace grid and saved twice: with its run
(``state``, session format 3) and without (as versions 1-2 were). Reopening is timed the way
the window does it, without Qt: read the file, build the solver, then either restore the
run into a ``RunLoop`` or re-run the solver to T recording the trace. CPU time is printed
beside wall time (the machine may be shared), each path measured in turn, best of
``--repeat``.

Target (issue 29): a session saved at T = 10^7 reopens in under 5 s of CPU.

    python tests/benchmarks/session_reopen.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

CASES = (  # game, algorithm, options, T
    ("rps", "rm+", {"play": "sampled", "seed": 1}, 10_000_000),
    ("random:general-sum:20x20:seed=3", "rm", {}, 1_000_000),
    ("leduc", "cfr+", {}, 2_000),
)


def timed(action):
    """(CPU seconds, wall seconds) of ``action()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    action()
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from rmviz.formats import load_game
    from rmviz.runner.loop import RunLoop
    from rmviz.runner.record import record_traces
    from rmviz.runner.session import Session, read_session, write_session
    from rmviz.runner.trace import SavedRun, Trace
    from rmviz.solvers.registry import family_of

    print(f"{'case':<44} {'restore cpu / wall':>20} {'re-run cpu / wall':>20} {'ratio (cpu)':>12}")
    with tempfile.TemporaryDirectory() as folder:
        for name, algorithm, options, iterations in CASES:
            game = load_game(name)
            family = family_of(game)
            config = family.config(algorithm, **options)
            solver = family.solver(game, config)
            trace = Trace(solver.columns)
            record_traces(solver, iterations, [trace])
            saved = SavedRun(solver.checkpoint(), *trace.kept())
            with_run, without = Path(folder, "a.rmviz-session.json"), Path(folder, "b.rmviz-session.json")
            write_session(Session(game, config, iterations, saved=saved), with_run)
            write_session(Session(game, config, iterations), without)

            def restore(path=with_run, family=family):
                session = read_session(path)
                loop = RunLoop(family.solver(session.game, session.config))
                loop.restore(session.saved)

            def re_run(path=without, family=family):
                session = read_session(path)
                again = family.solver(session.game, session.config)
                record_traces(again, session.iteration, [Trace(again.columns)])

            restore()  # numba's cache loaded once, for both
            restored = min((timed(restore) for _ in range(args.repeat)), key=lambda t: t[0])
            replayed = min((timed(re_run) for _ in range(args.repeat)), key=lambda t: t[0])
            label = f"{name} {algorithm} T={iterations:,}"
            size = with_run.stat().st_size / 1e3
            times = f"{restored[0]:>8.3f} / {restored[1]:<9.3f} {replayed[0]:>8.2f} / {replayed[1]:<9.2f}"
            print(f"{label:<44} {times} {replayed[0] / restored[0]:>10.0f}x   ({size:,.0f} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
