"""Dask workers a sweep can trust: the same rmviz as the client, kernels compiled as they join.

* **The same rmviz.** Before anything is submitted, every worker says who it is
  (:func:`probe`: its rmviz version, the hash of its solver sources that names its numba
  cache folder, :func:`rmviz.solvers.jit.solvers_digest`, its host and Python). A worker whose
  rmviz version or solver sources differ from the client's is refused in one line naming it
  and both versions (:func:`check_workers`; ``rmviz sweep`` exits 2, nothing is written to
  ``--out``). A worker that joins later is checked by each task before it runs
  (:func:`task_runner`): such a task returns the refusal instead of rows and the sweep stops
  with the same line (a returned refusal, not an exception: Dask would retry an exception).
  Both are closures, pickled by value: they run on a worker with any rmviz, an older too.
* **Kernels compiled when a worker joins.** A Dask worker plugin (:func:`warmup_plugin`) runs
  every algorithm of the sweep with its options for two iterations and a snapshot on small
  stand-in games of the sweep's kinds and numbers of players (:func:`warmup_cells`), which
  compiles or loads the kernels the tasks call (numba's types do not depend on a game's
  size), as ``rmviz precompile`` does for every kernel: on each worker present, and on each
  that joins during the sweep before it takes a task (:func:`warm_workers`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from rmviz.errors import RmvizError
from rmviz.sweep.config import SweepConfig, Task

Identity = dict[str, str]
PER_GAME = ("start", "fixed_strategies")  # options sized to each game: not given to stand-ins


def probe() -> Callable[..., Identity]:
    """A function (pickled by value) that says who the process running it is: ``rmviz``
    (the installed version), ``solvers`` (the solver sources' hash), ``host`` and
    ``python``. Dask's ``client.run`` passes it ``dask_worker``; ``None`` here."""

    def who(dask_worker: Any = None) -> Identity:
        import platform
        import socket
        from importlib.metadata import PackageNotFoundError, version

        try:
            rmviz = version("rmviz")
        except PackageNotFoundError:
            rmviz = "not installed"
        try:
            from rmviz.solvers.jit import solvers_digest

            solvers = solvers_digest()
        except Exception:  # an rmviz without it, or none
            solvers = "unknown"
        host, python = socket.gethostname(), platform.python_version()
        return {"rmviz": rmviz, "solvers": solvers, "host": host, "python": python}

    return who


def refuser() -> Callable[[str, Mapping[str, str], Mapping[str, str]], str | None]:
    """A function (pickled by value): the one line refusing a worker whose rmviz version or
    solver sources differ from the client's, or ``None``."""

    def refusal(worker: str, theirs: Mapping[str, str], ours: Mapping[str, str]) -> str | None:
        if (theirs.get("rmviz"), theirs.get("solvers")) == (ours.get("rmviz"), ours.get("solvers")):
            return None
        return (
            f"--dask: worker {worker} ({theirs.get('host')}) runs rmviz {theirs.get('rmviz')} "
            f"(solvers {theirs.get('solvers')}), this client rmviz {ours.get('rmviz')} "
            f"(solvers {ours.get('solvers')}): install the same rmviz on the client and every worker"
        )

    return refusal


def check_workers(client: Any, who: Callable[..., Identity], ours: Identity) -> dict[str, Identity]:
    """Every worker's identity (``{address: identity}``); a :class:`RmvizError` naming the first
    worker (by address) whose rmviz differs from ``ours``."""
    found: dict[str, Identity] = client.run(who)
    refusal = refuser()
    for address in sorted(found):
        line = refusal(address, found[address], ours)
        if line is not None:
            raise RmvizError(line)
    return found


def task_runner(who: Callable[..., Identity], ours: Identity) -> Callable[[Task], Any]:
    """The function a Dask worker runs for each task (pickled by value): the task's rows, or
    the one-line refusal (a string) when this worker's rmviz differs from ``ours``."""

    refusal = refuser()

    def run(task: Task) -> Any:
        from distributed import get_worker

        worker = get_worker()
        line = refusal(worker.address, who(worker), ours)
        if line is not None:
            return line
        from rmviz.sweep import task as module  # looked up now (tests replace run_task)

        return module.run_task(task)

    return run


# -- the warm-up --------------------------------------------------------------------------------
Cell = tuple[str, str, str]  # (catalog game, algorithm, options as JSON)


def warmup_cells(sweep: SweepConfig) -> tuple[Cell, ...]:
    """What the warm-up (:func:`warmup_plugin`) runs for ``sweep``: each algorithm, with the
    sweep's options (less those sized to a game, :data:`PER_GAME`), on the stand-ins of each
    kind of its games: the
    catalog's first game of that kind with two players and its first with more, each only
    where the sweep has (or may have: a file, an OpenSpiel game) such games."""
    from rmviz.formats import game_kind
    from rmviz.games.catalog import CATALOG

    wanted: dict[str, set[bool]] = {}  # game kind -> whether it has games of more than two players
    for spec in sweep.games:
        players = _players(spec)
        more = {False, True} if players is None else {players > 2}
        wanted.setdefault(game_kind(spec), set()).update(more)
    standins: list[str] = []
    for kind in sorted(wanted):
        found: dict[bool, str] = {}
        for entry in CATALOG.values():
            if entry.kind == kind:
                found.setdefault(entry.build().n_players > 2, entry.id)
        standins.extend(found[more] for more in sorted(wanted[kind]) if more in found)
    options = json.dumps({k: v for k, v in sweep.options.items() if k not in PER_GAME}, sort_keys=True)
    return tuple((game, algorithm, options) for game in standins for algorithm in sweep.algorithms)


def _players(spec: str) -> int | None:
    """The number of players of the game ``spec`` names, read without building it where
    that is cheap (a random game's shape, a catalog game); ``None`` when unknown."""
    from rmviz.games.catalog import CATALOG
    from rmviz.games.generators import read_random_spec

    if spec in CATALOG:
        return CATALOG[spec].build().n_players
    if spec.startswith("random:"):
        try:
            return len(read_random_spec(spec)[1])
        except RmvizError:
            return None
    return None


def warm_up(cells: tuple[Cell, ...]) -> tuple[float, list[str]]:
    """Run each cell for two iterations and a snapshot with its metrics, compiling (or
    loading from numba's cache) the kernels it calls; the seconds it took and the cells that
    failed (a stand-in that an option does not fit is skipped: its task compiles instead)."""
    from rmviz.games.catalog import catalog_game
    from rmviz.solvers.registry import make_solver, used_options

    start = time.perf_counter()
    failed = []
    for game, algorithm, options in cells:
        try:
            solver = make_solver(
                catalog_game(game), algorithm, seed=0, **used_options(algorithm, json.loads(options))
            )
            solver.step(2)
            solver.snapshot(metrics=True)
        except Exception as error:  # a warm-up never stops a worker
            failed.append(f"{algorithm} on {game}: {error}")
    return time.perf_counter() - start, failed


def warmup_plugin(cells: tuple[Cell, ...]) -> Any:
    """A Dask worker plugin (its class made here, so pickled by value: a worker without rmviz
    can load it, and its setup then does nothing) that runs :func:`warm_up` on each worker
    when it joins, and on those present when registered, in a thread: the worker's event loop
    stays free, and a worker that joins takes no task before it is done. On each worker,
    ``runs``, ``seconds`` and ``failed`` say what it did."""

    class Warmup(WorkerPlugin):
        def __init__(self) -> None:
            self.runs = 0
            self.seconds = 0.0
            self.failed: list[str] = []

        async def setup(self, worker: Any) -> None:
            import importlib

            try:  # this module as the worker has it (a class pickled by value has no module)
                warm_up = importlib.import_module("rmviz.sweep.workers").warm_up
            except Exception as error:  # a worker without this rmviz: the tasks refuse it
                self.failed = [f"no warm-up: {error}"]
                return
            self.seconds, self.failed = await asyncio.to_thread(warm_up, cells)
            self.runs += 1

    return Warmup()


def plugin_name(cells: tuple[Cell, ...]) -> str:
    """The warm-up's name on the scheduler: one per rmviz version and set of cells."""
    from rmviz.version import version

    text = json.dumps([version(), cells])
    return f"rmviz-sweep-warmup-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


@contextmanager
def warm_workers(client: Any, sweep: SweepConfig) -> Iterator[float]:
    """While the sweep runs: every worker present and every worker joining runs the warm-up
    (:func:`warmup_plugin`) once; yields the seconds until those present were done. The
    plugin is removed at the end, so the scheduler is left as it was found (workers that join
    it later for other work do not compile rmviz's kernels)."""
    cells = warmup_cells(sweep)
    name = plugin_name(cells)
    start = time.perf_counter()
    client.register_plugin(warmup_plugin(cells), name=name)
    try:
        yield time.perf_counter() - start
    finally:
        try:
            client.unregister_worker_plugin(name)
        except Exception:  # the client or the scheduler has gone: nothing left to tidy
            pass
