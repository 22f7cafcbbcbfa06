"""A run recorded without a window, and a run's data written to CSV or JSON.

:func:`record_run` steps a solver to every point of a :class:`~rmviz.runner.trace.Trace`'s
geometric grid, exactly the points the app's live plots keep, so a headless figure
(``rmviz export``) is the figure the app shows. :func:`write_run_data` writes a trace with
the game, the full solver configuration and its seed, so a run can be reproduced.
"""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np

from rmviz import __version__
from rmviz.errors import RmvizError
from rmviz.runner.loop import trace_row
from rmviz.runner.trace import Trace

# The figures a run can be drawn as (Qt-free names, so the CLI lists them without Qt):
# the four convergence plots, the simplex trajectories, the joint distribution, all of them.
PANELS = ("strategies", "gaps", "regrets", "welfare")
FIGURES = (*PANELS, "simplex", "joint", "dashboard")


def record_run(solver: Any, iterations: int, points_per_decade: int = 200) -> Trace:
    """Run ``solver`` to ``iterations``, recording the trace at every grid point and the last."""
    trace = Trace(points_per_decade)
    trace.add(solver.iteration, trace_row(solver.snapshot(metrics=True)))
    while solver.iteration < iterations:
        solver.step(min(trace.next_iteration, iterations) - solver.iteration)
        trace.add(solver.iteration, trace_row(solver.snapshot(metrics=True)))
    return trace


def readable_column(name: str, game: Any) -> str:
    """``avg[0][2]`` -> ``average[Player 1][Scissors]`` (metric names stay as they are)."""
    prefixes = {"avg": "average", "cur": "current", "reg": "average_regret"}
    head, _, rest = name.partition("[")
    if head not in prefixes or not rest:
        return name
    player, action = (int(part) for part in rest.rstrip("]").split("]["))
    return f"{prefixes[head]}[{game.player_names[player]}][{game.action_names[player][action]}]"


def run_metadata(game: Any, config: Any) -> dict[str, Any]:
    """What reproduces a run: rmviz's version, the game's title and sizes, the whole config."""
    settings = dataclasses.asdict(config)
    settings["fixed_strategies"] = {str(k): list(map(float, v)) for k, v in config.fixed_strategies.items()}
    return {
        "rmviz": __version__,
        "game": game.title,
        "players": list(game.player_names),
        "actions": [list(a) for a in game.action_names],
        "config": settings,
        "seed": config.seed,
    }


def write_run_data(
    path: str | Path, game: Any, config: Any, iterations: np.ndarray, columns: dict[str, np.ndarray]
) -> None:
    """Write a run's trace as ``.csv`` (metadata as ``#`` comment lines, then one row per
    recorded iteration) or ``.json`` (metadata plus one list per column)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise RmvizError(f"{path.name}: run data is written as .csv or .json")
    meta = run_metadata(game, config)
    names = {name: readable_column(name, game) for name in columns}
    try:
        with path.open("w", newline="", encoding="utf-8") as handle:
            if suffix == ".json":
                data = {"iteration": iterations.tolist()}
                data.update(
                    {
                        names[n]: [None if not np.isfinite(v) else float(v) for v in c]
                        for n, c in columns.items()
                    }
                )
                json.dump({**meta, "trace": data}, handle, indent=1)
                return
            for key, value in meta.items():
                handle.write(f"# {key}: {json.dumps(value)}\n")
            writer = csv.writer(handle)
            writer.writerow(["iteration", *names.values()])
            for k, iteration in enumerate(iterations):
                writer.writerow([int(iteration), *(repr(float(c[k])) for c in columns.values())])
    except OSError as error:
        raise RmvizError(f"cannot write {path}: {error.strerror}") from None
