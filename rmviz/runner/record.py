"""A run recorded without a window, and a run's data written to CSV or JSON.

:func:`record_run` steps a solver to every point of a :class:`~rmviz.runner.trace.Trace`'s
geometric grid, exactly the points the app's live plots keep, so a headless figure
(``rmviz export``, :mod:`rmviz.figures`) is the figure the app shows. :func:`write_run_data`
writes a trace with the game, the full solver configuration and its seed, so a run can be reproduced; the
app's *Export run data*, ``rmviz export --data`` and ``rmviz solve --trace`` all write it.
"""

from __future__ import annotations

import csv
import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np

from rmviz import __version__
from rmviz.atomic import atomic_write
from rmviz.errors import RmvizError
from rmviz.runner.trace import Trace
from rmviz.solvers.columns import Column
from rmviz.solvers.protocol import Solver


def record_run(
    solver: Solver, iterations: int, points_per_decade: int = 200, every: int | None = None
) -> Trace:
    """Run ``solver`` to ``iterations``, recording the trace at every grid point and the last
    (the app's geometric grid, or every ``every`` iterations)."""
    trace = Trace(solver.columns, points_per_decade, every)
    trace.add(solver.iteration, solver.snapshot(metrics=True).trace_values())
    while solver.iteration < iterations:
        solver.step(min(trace.next_iteration, iterations) - solver.iteration)
        trace.add(solver.iteration, solver.snapshot(metrics=True).trace_values())
    return trace


def _plain(value: Any) -> Any:
    """A config field as JSON: mappings with string keys, sequences and arrays as lists."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def run_metadata(solver: Solver) -> dict[str, Any]:
    """What reproduces a run: rmviz's version, the game's title and players, the whole config."""
    game, config = solver.game, solver.config
    return {
        "rmviz": __version__,
        "game": game.title,
        "players": list(game.player_names),
        "config": {f.name: _plain(getattr(config, f.name)) for f in dataclasses.fields(config)},
        "seed": config.seed,
    }


def write_run_data(
    path: str | Path, solver: Solver, iterations: np.ndarray, columns: Mapping[Column, np.ndarray]
) -> None:
    """Write a run's trace as ``.csv`` (metadata as ``#`` comment lines, then one row per
    recorded iteration) or ``.json`` (metadata plus one list per column), with the columns'
    readable names (``solver.column_name``)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise RmvizError(f"{path.name}: run data is written as .csv or .json")
    meta = run_metadata(solver)
    names = [solver.column_name(column) for column in columns]
    values = list(columns.values())

    def write(handle: IO[str]) -> None:
        if suffix == ".json":
            data: dict[str, list[Any]] = {"iteration": iterations.tolist()}
            for name, column in zip(names, values, strict=True):
                data[name] = [None if not np.isfinite(v) else float(v) for v in column]
            json.dump({**meta, "trace": data}, handle, indent=1, allow_nan=False)
            return
        for key, value in meta.items():
            handle.write(f"# {key}: {json.dumps(value, allow_nan=False)}\n")
        writer = csv.writer(handle)
        writer.writerow(["iteration", *names])
        for k, iteration in enumerate(iterations):
            writer.writerow([int(iteration), *(repr(float(c[k])) for c in values)])

    atomic_write(path, write)
