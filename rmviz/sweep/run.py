"""Running a sweep: tasks on all local cores (joblib/loky), on a Dask cluster, or one shard
of them; each finished task saved at once, so an interrupted sweep resumes where it stopped.

The output folder ``OUT`` holds::

    sweep.json              the validated config (a resumed sweep must have the same)
    tasks/task-00003.parquet  the rows of each finished task (written atomically); with
                            granularity "cell", task-00003-001-00002.parquet per game x
                            algorithm x seed (a game is done when either is there)
    results.parquet         the tidy table of every task, in grid order, with the config
                            and rmviz's version in the file's metadata (keys b"rmviz",
                            b"rmviz_sweep"); results.csv as well on request, the same on
                            ``#`` lines
    figures/METRIC.png      one figure per metric: mean over games and seeds, 95% band

An algorithm whose runs ignore the seed (expected play, full-traversal CFR) runs once per
game, with the first seed (:mod:`.config`): its rows have that seed only, the log and the
figures' legends say so, and n and the bands count distinct runs.

Task files are written by the process that runs the sweep, never by workers, so Dask
workers need no shared file system. The table and figures are written once every task of
the grid is done (by whichever shard finishes last). On Dask, the workers must run the
client's rmviz, and compile the sweep's kernels as they join (:mod:`.workers`).
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rmviz.atomic import atomic_path, atomic_write, atomic_write_text
from rmviz.errors import ConfigError, RmvizError
from rmviz.sweep.config import GRANULARITIES, SweepConfig, Task, check_retries, config_from, load_config
from rmviz.sweep.task import COLUMNS, WHERE, run_task
from rmviz.version import version

CONFIG_FILE, RESULTS_FILE, CSV_FILE = "sweep.json", "results.parquet", "results.csv"
META_VERSION, META_CONFIG = b"rmviz", b"rmviz_sweep"


@dataclass(frozen=True)
class Shard:
    """Part ``part`` (1-based) of ``count``: the tasks whose index is ``part - 1`` modulo
    ``count`` (``--shard 2/4``; SLURM: ``--array=1-4`` and ``--shard $SLURM_ARRAY_TASK_ID/4``).

    >>> shard = Shard.parse("2/4")
    >>> four = config_from({"games": ["random:zero-sum:2x2:seed={1..4}"], "algorithms": ["rm"],
    ...                     "seeds": 1, "iterations": [10]})
    >>> shard, [shard.holds(task) for task in four.tasks()]
    (Shard(part=2, count=4), [False, True, False, False])
    """

    part: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """The shard written ``I/N`` (``--shard``); a one-line refusal otherwise."""
        part, _, count = text.partition("/")
        try:
            shard = cls(int(part), int(count))
        except ValueError:
            raise ConfigError(f"--shard {text!r}: write I/N, e.g. 2/4 for the second of four parts") from None
        if not 1 <= shard.part <= shard.count:
            raise ConfigError(f"--shard {text!r}: I runs from 1 to N")
        return shard

    def holds(self, task: Task) -> bool:
        """Whether ``task`` is this shard's to run."""
        return task.index % self.count == self.part - 1


@dataclass(frozen=True)
class SweepReport:
    """What :func:`run_sweep` did: tasks run now, found done, left to other shards; the
    table (all finished tasks) and the files written when the grid is complete.

    >>> report = run_sweep({"games": ["rps"], "algorithms": ["rm"], "seeds": 1, "iterations": [10]},
    ...                    tmp / "rps", jobs=1, shard="2/2", log=None)
    >>> report.ran, report.skipped, report.pending, report.complete, report.files
    (0, 0, 1, False, ())
    """

    config: SweepConfig
    ran: int
    skipped: int
    pending: int
    seconds: float
    table: Any  # a pandas DataFrame
    files: tuple[Path, ...]

    @property
    def complete(self) -> bool:
        """Whether every task of the grid is done (none left to other shards)."""
        return self.pending == 0


def run_sweep(
    config: str | Path | SweepConfig | dict[str, Any],
    out: str | Path,
    *,
    jobs: int | None = None,
    dask: Any = None,
    shard: Shard | str | None = None,
    csv: bool = False,
    figures: bool = True,
    log: Callable[[str], None] | None = None,
    granularity: str | None = None,
    retries: int | None = None,
) -> SweepReport:
    """Run the grid of ``config`` (a TOML path, a mapping shaped like it, or a SweepConfig)
    into the folder ``out``; see the module docstring.

    ``jobs``: local processes (default: all cores; 1 runs in this process); ``dask``: a Dask
    scheduler address (or a ``distributed.Client``) to run the tasks on instead; ``shard``:
    run only part of the grid. Finished tasks in ``out`` are not run again. ``granularity``
    (``"game"`` or ``"cell"``) and ``retries`` (Dask's, for a task that fails) override the
    config's.

    >>> grid = {"games": ["random:zero-sum:3x3:seed={1..2}"], "algorithms": ["rm", "rm+"],
    ...         "seeds": 2, "iterations": [10, 100], "metrics": ["exploitability"]}
    >>> report = run_sweep(grid, tmp / "sweep", jobs=1, log=print)
    sweep: 2 tasks...
    >>> report.complete, report.ran, [file.name for file in report.files]
    (True, 2, ['results.parquet', 'exploitability.png'])
    >>> report.table.groupby("algorithm")["value"].size().to_dict()
    {'rm': 4, 'rm+': 4}
    """
    pd = _require("pandas", "sweeps")
    sweep = load_config(config) if isinstance(config, (str, Path)) else config_from(config)
    if isinstance(shard, str):
        shard = Shard.parse(shard)
    if jobs is not None and jobs < 1:
        raise ConfigError(f"--jobs {jobs}: run at least one process")
    granularity = granularity or sweep.granularity
    if granularity not in GRANULARITIES:
        raise ConfigError(f"--granularity {granularity!r}: choose {' or '.join(GRANULARITIES)}")
    retries = sweep.retries if retries is None else check_retries(retries)
    say = log or (lambda _message: None)
    out = Path(out)
    tasks_dir = out / "tasks"
    with ExitStack() as stack:
        client = None if dask is None else stack.enter_context(_dask_client(dask))
        runner = None if client is None else _trusted_runner(client, say)  # before --out is touched
        made = [folder for folder in (*reversed(out.parents), out, tasks_dir) if not folder.exists()]
        fresh = not (out / CONFIG_FILE).exists()
        _claim(out, sweep)
        tasks_dir.mkdir(parents=True, exist_ok=True)
        tasks = sweep.tasks(granularity)
        finished = _finished_games(out, sweep)  # by either granularity
        if granularity == "game":
            done = {task.index for task in tasks if task.index in finished}
        else:
            done = {t.index for t in tasks if t.game_index in finished or _task_file(out, t).exists()}
        mine = [task for task in tasks if task.index not in done and (shard is None or shard.holds(task))]
        unit = "tasks" if granularity == "game" else "tasks (game x algorithm x seed)"
        say(f"{sweep.name}: {len(tasks)} {unit}, {len(done)} done before, {len(mine)} to run")
        if sweep.deterministic and len(sweep.seeds) > 1:
            say(f"  {deterministic_note(sweep)}")
        if retries is not None and client is None:
            say(f"  retries = {retries}: used on Dask only; a failed task here stops the sweep")
        start = time.perf_counter()
        try:
            if client is not None and mine:
                stack.enter_context(_warm(client, sweep, say))  # left before the client closes
            for number, (index, rows) in enumerate(_execute(mine, jobs, client, runner, retries), 1):
                task = tasks[index]
                _write_parquet(_task_file(out, task), pd.DataFrame(rows, columns=list(COLUMNS)), sweep)
                done.add(index)
                say(f"  task {index} ({_describe(task)}) done: {number}/{len(mine)}")
        except BaseException:
            if fresh and not any(tasks_dir.iterdir()):  # failed before its first task: no trace left
                _unclaim(out, made)
            raise
    seconds = time.perf_counter() - start
    table = _combine(out, sweep)
    files: list[Path] = []
    pending = len(tasks) - len(done)
    if pending == 0:
        files.append(_write_parquet(out / RESULTS_FILE, table, sweep))
        if csv:
            files.append(_write_csv(out / CSV_FILE, table, sweep))
        if figures:
            from rmviz.sweep.figures import save_sweep_figures

            files.extend(
                save_sweep_figures(table, out / "figures", sweep.name, deterministic=sweep.deterministic)
            )
    skipped = len(tasks) - len(mine) - pending
    return SweepReport(sweep, len(mine), skipped, pending, seconds, table, tuple(files))


def deterministic_note(sweep: SweepConfig) -> str:
    """One line on the algorithms run once per game (their runs ignore the seed)."""
    names = ", ".join(sweep.deterministic)
    return (
        f"{names}: deterministic (nothing in the config draws from the seed), so one run per game "
        f"with seed {sweep.seeds[0]}, not {len(sweep.seeds)}: n counts distinct runs"
    )


def read_results(path: str | Path) -> Any:
    """A sweep's table (``results.parquet``, or the folder holding it) with ``attrs``
    ``rmviz`` (the version) and ``config`` (the sweep's config) from its metadata.

    >>> report = run_sweep({"games": ["rps"], "algorithms": ["rm"], "seeds": 1, "iterations": [10]},
    ...                    tmp / "again", jobs=1, figures=False, log=None)
    >>> table = read_results(tmp / "again")
    >>> table.shape[0] == report.table.shape[0], table.attrs["config"]["games"]
    (True, ['rps'])
    """
    pq = _require("pyarrow.parquet", "sweep results")
    path = Path(path)
    if path.is_dir():
        path = path / RESULTS_FILE
    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as error:
        raise RmvizError(f"{path}: cannot read sweep results ({error})") from None
    frame = _with_where(table.to_pandas())
    meta = table.schema.metadata or {}
    frame.attrs["rmviz"] = meta.get(META_VERSION, b"").decode()
    frame.attrs["config"] = json.loads(meta.get(META_CONFIG, b"null"))
    return frame


def _describe(task: Task) -> str:
    if task.cell is None:
        return task.game
    return f"{task.game}, {task.algorithms[0]}, seed {task.seeds[0]}"


# -- execution ---------------------------------------------------------------------------------
Rows = tuple[int, dict[str, list[Any]]]


def _execute(
    tasks: Sequence[Task], jobs: int | None, client: Any, runner: Any = None, retries: int | None = None
) -> Iterator[Rows]:
    """``(index, rows)`` of each task as it finishes (in any order)."""
    if not tasks:
        return
    if client is not None:
        yield from _on_dask(tasks, client, runner, retries)
    elif jobs == 1 or len(tasks) == 1:
        yield from map(run_task, tasks)
    else:
        joblib = _require("joblib", "parallel sweeps")
        # each worker watches the sweep from its start: killed before a worker took a task, the
        # sweep left loky's idle workers alive for their 300 s timeout (seen under load)
        with joblib.parallel_config(backend="loky", initializer=_watch_sweep, initargs=(os.getpid(),)):
            parallel = joblib.Parallel(n_jobs=jobs or -1, return_as="generator_unordered")
            yield from parallel(joblib.delayed(_in_worker)(task, os.getpid()) for task in tasks)


def _in_worker(task: Task, sweep_pid: int) -> Rows:
    """:func:`run_task` in a pool worker that ends when the sweep's process does: loky's
    workers outlived a killed sweep for 30 s or more (issue 33)."""
    _watch_sweep(sweep_pid)
    return run_task(task)


_watching: list[int] = []  # the sweep process this worker watches (one watcher per worker)


def _watch_sweep(sweep_pid: int, every: float = 0.5) -> None:
    """Start, once per worker process, a daemon thread that ends the process within
    ``every`` seconds of the sweep's process ``sweep_pid`` being gone (killed, -9 too)."""
    if _watching or os.getpid() == sweep_pid:
        return
    _watching.append(sweep_pid)

    def watch() -> None:
        while True:
            time.sleep(every)
            try:
                os.kill(sweep_pid, 0)  # no signal sent: only whether it exists
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # another user's process took the number: ours is gone
                os._exit(1)

    threading.Thread(target=watch, name="rmviz-sweep-watch", daemon=True).start()


@contextmanager
def _dask_client(dask: Any) -> Iterator[Any]:
    """A ``distributed.Client`` for ``dask`` (an address: opened and closed here; or a client)."""
    distributed = _require("distributed", "sweeps on Dask")
    if not isinstance(dask, str):
        yield dask
        return
    try:
        client = distributed.Client(dask, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise RmvizError(f"--dask {dask}: cannot reach the scheduler ({error})") from None
    try:
        yield client
    finally:
        client.close()


def _trusted_runner(client: Any, say: Callable[[str], None]) -> Callable[[Task], Any]:
    """Refuse the cluster when a worker runs another rmviz (one line, :mod:`.workers`); the
    function each task runs, which refuses a worker that joins later."""
    from rmviz.sweep.workers import check_workers, probe, task_runner

    who = probe()
    ours = who()
    found = check_workers(client, who, ours)
    workers = f"{len(found)} worker{'s' if len(found) != 1 else ''}"
    say(f"  Dask: {workers}, each with rmviz {ours['rmviz']} (solvers {ours['solvers']})")
    return task_runner(who, ours)


@contextmanager
def _warm(client: Any, sweep: SweepConfig, say: Callable[[str], None]) -> Iterator[None]:
    """While the tasks run, each worker compiles the sweep's kernels as it joins; those present
    do it now (:mod:`.workers`)."""
    from rmviz.sweep.workers import warm_workers

    with warm_workers(client, sweep) as seconds:
        say(f"  kernels compiled or loaded on the workers in {seconds:.1f} s")
        yield


def _on_dask(tasks: Sequence[Task], client: Any, runner: Any, retries: int | None) -> Iterator[Rows]:
    distributed = _require("distributed", "sweeps on Dask")
    futures = [client.submit(runner, task, pure=False, retries=retries) for task in tasks]
    try:
        for future in distributed.as_completed(futures):
            result = future.result()
            if isinstance(result, str):  # a worker of another rmviz refused the task
                raise RmvizError(result)
            yield result
    finally:
        client.cancel(futures)


# -- files ----------------------------------------------------------------------------------------
def _unclaim(out: Path, made: Sequence[Path]) -> None:
    """Undo :func:`_claim` of a sweep that failed before its first task: its config file,
    and the folders it made (only when empty: nothing of the person's is deleted)."""
    (out / CONFIG_FILE).unlink(missing_ok=True)
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            pass


def _claim(out: Path, sweep: SweepConfig) -> None:
    """Record the config in ``out`` (new folder), or check it is the one there (resuming)."""
    if out.exists() and not out.is_dir():
        raise RmvizError(f"--out {out}: is a file; name a folder for the sweep's results")
    recorded = out / CONFIG_FILE
    if recorded.exists():
        try:
            before = json.loads(recorded.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            before = None
        if before != sweep.as_dict():
            raise RmvizError(
                f"--out {out}: holds the results of another sweep config; choose another folder "
                f"(or delete {recorded.name} and tasks/ to start over)"
            )
        return
    if out.exists() and any(not entry.name.startswith(".") for entry in out.iterdir()):
        raise RmvizError(f"--out {out}: is not empty and holds no sweep; choose a new or empty folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RmvizError(f"--out {out}: cannot create it ({error.strerror or error})") from None
    atomic_write_text(recorded, json.dumps(sweep.as_dict(), indent=1) + "\n")


def _task_file(out: Path, task: Task) -> Path:
    return out / "tasks" / f"{task.stem}.parquet"


def _game_files(out: Path, sweep: SweepConfig) -> dict[int, list[Path]]:
    """The files holding each finished game's rows, in grid order: its game task's file, or
    else every one of its cells' (a game with a cell missing is not finished)."""
    cells: dict[int, list[Path]] = {}
    for cell in sweep.tasks("cell"):
        assert cell.game_index is not None
        cells.setdefault(cell.game_index, []).append(_task_file(out, cell))
    files = {}
    for game in sweep.tasks("game"):
        whole = _task_file(out, game)
        if whole.exists():
            files[game.index] = [whole]
        elif all(path.exists() for path in cells[game.index]):
            files[game.index] = cells[game.index]
    return files


def _finished_games(out: Path, sweep: SweepConfig) -> set[int]:
    return set(_game_files(out, sweep))


def _combine(out: Path, sweep: SweepConfig) -> Any:
    """The rows of every finished game, in grid order (cells of unfinished games too)."""
    pd = _require("pandas", "sweeps")
    pq = _require("pyarrow.parquet", "sweeps")
    finished = _game_files(out, sweep)
    paths: list[Path] = []
    for game in sweep.tasks("game"):
        if game.index in finished:
            paths.extend(finished[game.index])
        else:
            paths.extend(sorted((out / "tasks").glob(f"{game.stem}-*.parquet")))
    frames = [_with_where(pq.read_table(path).to_pandas()) for path in paths]
    if not frames:
        return pd.DataFrame({name: [] for name in COLUMNS})
    return pd.concat(frames, ignore_index=True)


def _with_where(frame: Any) -> Any:
    """``frame`` with the :data:`~rmviz.sweep.task.WHERE` columns, null in rows written before
    rmviz recorded them (task files and tables of older sweeps)."""
    for name in WHERE:
        if name not in frame.columns:
            frame[name] = None
    return frame


def _write_parquet(path: Path, frame: Any, sweep: SweepConfig) -> Path:
    pa = _require("pyarrow", "sweeps")
    pq = _require("pyarrow.parquet", "sweeps")
    table = pa.Table.from_pandas(frame, preserve_index=False)
    meta = {
        **(table.schema.metadata or {}),
        META_VERSION: version().encode(),
        META_CONFIG: sweep.to_json().encode(),
    }
    with atomic_path(path) as temporary:
        pq.write_table(table.replace_schema_metadata(meta), temporary)
    return path


def _write_csv(path: Path, frame: Any, sweep: SweepConfig) -> Path:
    def write(handle: io.TextIOBase) -> None:
        handle.write(f"# rmviz: {json.dumps(version())}\n# sweep: {sweep.to_json()}\n")
        # no float_format: pandas writes each float's shortest round-trip form (repr), "0.3"
        # where "%.17g" wrote "0.29999999999999999"; + 0.0 writes -0.0 as 0 (rmviz.numbers)
        floats = frame.select_dtypes("floating").columns
        plain = frame.assign(**{name: frame[name] + 0.0 for name in floats})
        plain.to_csv(handle, index=False, lineterminator="\n")

    atomic_write(path, write)  # type: ignore[arg-type]
    return path


def _require(module: str, what: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        if getattr(sys, "frozen", False):  # the desktop bundle (docs/packaging.md): no pip there
            raise RmvizError(
                f"{what} need {module.split('.')[0]}, which the desktop bundle leaves out; "
                "in a Python environment: pip install 'rmviz[sweep]'"
            ) from None
        raise RmvizError(f"{what} need {module.split('.')[0]}: pip install 'rmviz[sweep]'") from None


def stderr_log(message: str) -> None:
    """Progress lines on stderr (the CLI's ``log``)."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
