"""A run recorded without a window, and a run's data written to CSV or JSON.

:func:`record_run` steps a solver to every point of a :class:`~rmviz.runner.trace.Trace`'s
geometric grid, exactly the points the app's live plots keep, so a headless figure
(``rmviz export``, :mod:`rmviz.figures`) is the figure the app shows. :func:`write_run_data`
writes a trace with the game itself (its rmviz JSON, payoffs and all), the full solver
configuration and its seed, so a run data file is self-contained and the run can be
reproduced from it alone; the app's *Export run data*, ``rmviz export --data`` and ``rmviz
solve --trace`` all write it, and :func:`read_run_game` reads the game back.

The JSON file is ``{"format": "rmviz-run-data", "version": 1, "rmviz": ..., "title": ...,
"players": [...], "game": {rmviz JSON game}, "config": {...}, "seed": ..., "trace": {column
name: [values]}}``; the CSV file has the same keys first, one ``# key: JSON value`` line each
(the game on one line), then the header row and one row per recorded iteration.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from rmviz.atomic import atomic_write
from rmviz.errors import ReadError, RmvizError
from rmviz.formats import Game, read_text_file
from rmviz.formats.rmviz_json import dumps_json, game_from_dict, game_to_dict, parse_json
from rmviz.numbers import plain_zero
from rmviz.runner.trace import Trace, TraceData
from rmviz.solvers.protocol import Solver
from rmviz.version import version


def record_run(
    solver: Solver, iterations: int, points_per_decade: int = 200, every: int | None = None
) -> Trace:
    """Run ``solver`` to ``iterations``, recording the trace at every grid point and the last
    (the app's geometric grid, or every ``every`` iterations)."""
    trace = Trace(solver.columns, points_per_decade, every)
    record_traces(solver, iterations, [trace])
    return trace


def record_traces(
    solver: Solver, iterations: int, traces: Sequence[Trace], progress: Callable[[int], None] | None = None
) -> None:
    """Run ``solver`` to ``iterations``, stopping at every grid point of each of ``traces``
    (and the last) to record it in all of them; ``progress(iteration)`` after each stop."""
    values = solver.snapshot(metrics=True).trace_values()
    for trace in traces:
        trace.add(solver.iteration, values)
    while solver.iteration < iterations:
        solver.step(min(*(trace.next_iteration for trace in traces), iterations) - solver.iteration)
        values = solver.snapshot(metrics=True).trace_values()
        for trace in traces:
            trace.add(solver.iteration, values)
        if progress is not None:
            progress(solver.iteration)


FORMAT_NAME = "rmviz-run-data"
FORMAT_VERSION = 1


def run_metadata(solver: Solver) -> dict[str, Any]:
    """What reproduces a run: rmviz's version, the game (its title and players, and the game
    itself as rmviz JSON), the whole config and the seed."""
    game, config = solver.game, solver.config
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "rmviz": version(),
        "title": game.title,
        "players": list(game.player_names),
        "game": game_to_dict(game),
        "config": solver.config_record(),
        "seed": config.seed,
    }


def write_run_data(path: str | Path, solver: Solver, trace: TraceData) -> None:
    """Write a run's trace as ``.csv`` (metadata as ``#`` comment lines, then one row per
    recorded iteration) or ``.json`` (metadata plus one list per column), with the columns'
    readable names (``solver.column_name``)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise RmvizError(f"{path.name}: run data is written as .csv or .json")
    meta = run_metadata(solver)
    iterations = trace.iterations
    names = [solver.column_name(column) for column in trace.columns]
    values = list(trace.columns.values())

    def write(handle: IO[str]) -> None:
        if suffix == ".json":
            data: dict[str, list[Any]] = {"iteration": iterations.tolist()}
            for name, column in zip(names, values, strict=True):
                data[name] = [None if not np.isfinite(v) else plain_zero(v) for v in column]
            handle.write(dumps_json({**meta, "trace": data}) + "\n")
            return
        for key, value in meta.items():
            handle.write(f"# {key}: {dumps_json(value, indent=None)}\n")
        writer = csv.writer(handle)
        writer.writerow(["iteration", *names])
        for k, iteration in enumerate(iterations):
            writer.writerow([int(iteration), *(repr(plain_zero(c[k])) for c in values)])

    atomic_write(path, write)


def read_run_game(path: str | Path) -> Game:
    """The game a run data file (``.json`` or ``.csv``, :func:`write_run_data`) was run on.

    Read with the care of the game readers: a :class:`~rmviz.errors.ReadError` names the
    file and what is wrong (not run data, a version this rmviz does not read, no game, a
    game that is not well formed)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        raise ReadError(str(path), "run data files are .csv or .json")
    text = read_text_file(path, "run data file")
    if suffix == ".json":
        data = parse_json(text, str(path), "numbers")
        if not isinstance(data, dict):
            raise ReadError(str(path), "not an rmviz run data file (not a JSON object)")
    else:
        data = _csv_header(text, str(path))
    if data.get("format") != FORMAT_NAME:
        raise ReadError(str(path), f'not an rmviz run data file (its "format" is not {FORMAT_NAME!r})')
    if data.get("version") != FORMAT_VERSION:
        raise ReadError(
            str(path),
            f"rmviz run data version {str(data.get('version'))[:20]!r} is not supported; "
            f"this rmviz reads version {FORMAT_VERSION}",
        )
    if "game" not in data:
        raise ReadError(str(path), 'the run data holds no "game"')
    try:
        return game_from_dict(data["game"], str(path))
    except ReadError as error:
        raise ReadError(str(path), f'its "game": {error.reason}') from None


def _csv_header(text: str, filename: str) -> dict[str, Any]:
    """The ``# key: JSON value`` lines at the top of a CSV run data file."""
    header: dict[str, Any] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("#"):
            break
        key, colon, value = line[1:].strip().partition(": ")
        if not colon:
            raise ReadError(filename, "a header line must be '# key: value'", number)
        try:
            header[key] = parse_json(value, filename, "numbers")
        except ReadError as error:
            raise ReadError(filename, f"{key}: {error.reason}", number) from None
    return header
