"""One sweep task, run in a worker: load one game from its spec, run every algorithm and seed
on it to every checkpoint, return the rows of the tidy table (an algorithm whose runs ignore
the seed, ``Task.deterministic``, runs with the first seed only: one distinct run).

The game is built here, in the worker, from its spec: a task ships a few strings, never a
payoff tensor (a 7-player 10-action game is 560 MB). Rows are plain Python lists, so a
task's result pickles small and fast across processes and machines. Each row also says
where it was computed (:data:`WHERE`): the worker's rmviz version, host name and Python.
"""

from __future__ import annotations

import math
import platform
import socket
from typing import Any

from rmviz.errors import RmvizError
from rmviz.formats import load_game
from rmviz.solvers.registry import family_of, make_solver, used_options
from rmviz.sweep.config import Task
from rmviz.version import version

WHERE = ("rmviz", "host", "python")
"""The columns that say which process computed a row: the rmviz version, host name and Python
version of the worker that ran the task (results written before these columns have them
null)."""

COLUMNS = ("game", "algorithm", "seed", "iteration", "metric", "value", "seconds", *WHERE)
"""The tidy table: one row per game, algorithm, seed, checkpoint and metric; ``seconds`` is
the solver's time to reach the checkpoint (metrics not counted); then :data:`WHERE`."""


def here() -> dict[str, str]:
    """This process's :data:`WHERE` values."""
    return {"rmviz": version(), "host": socket.gethostname(), "python": platform.python_version()}


def run_task(task: Task) -> tuple[int, dict[str, list[Any]]]:
    """``(task.index, columns)``: the task's rows in grid order (algorithm, seed, checkpoint,
    metric). Errors a person caused come back as one-line :class:`RmvizError` naming the game.

    >>> sweep = config_from({"games": ["rps"], "algorithms": ["rm", "rm+"], "seeds": 1,
    ...                      "iterations": [10, 100], "metrics": ["exploitability", "cce_gap"]})
    >>> index, columns = run_task(sweep.tasks()[0])
    >>> index, len(columns["value"]), sorted(columns) == sorted(COLUMNS)
    (0, 8, True)
    """
    rows: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    try:
        game = load_game(task.game)
        metrics = task.metrics or family_of(game).metrics
        for algorithm in task.algorithms:
            names = None
            for seed in task.seeds_of(algorithm):  # one seed where runs ignore it
                solver = make_solver(game, algorithm, seed=seed, **used_options(algorithm, task.options))
                solver.step(0)  # load the compiled kernel before the clock starts,
                solver.reset()  # and leave that time out of ``seconds``
                if names is None:  # a matrix game solved by CFR has the tree family's metrics
                    names = [m for m in metrics if m in family_of(solver.game).metrics]
                    if not task.metrics and not solver.last_iterate:  # no rows of NaN by default
                        names = [m for m in names if not m.startswith("last_")]
                for checkpoint in task.iterations:
                    solver.step(checkpoint - solver.iteration)
                    snapshot = solver.snapshot(metrics=True)
                    assert snapshot.metrics is not None
                    values = snapshot.metrics.as_dict()
                    for name in names:
                        value = values.get(name)
                        rows["game"].append(task.game)
                        rows["algorithm"].append(algorithm)
                        rows["seed"].append(seed)
                        rows["iteration"].append(checkpoint)
                        rows["metric"].append(name)
                        rows["value"].append(math.nan if value is None else float(value))
                        rows["seconds"].append(float(snapshot.seconds))
    except RmvizError as error:  # a plain RmvizError pickles back from any worker
        raise RmvizError(f"sweep task {task.index} ({task.game}): {error}") from None
    count = len(rows["game"])
    for name, value in here().items():
        rows[name] = [value] * count
    return task.index, rows
