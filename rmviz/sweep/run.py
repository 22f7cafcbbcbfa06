"""Running a sweep: tasks on all local cores (joblib/loky), on a Dask cluster, or one shard
of them; each finished task saved at once, so an interrupted sweep resumes where it stopped.

The output folder ``OUT`` holds::

    sweep.json              the validated config (a resumed sweep must have the same)
    tasks/task-00003.parquet  the rows of each finished task (written atomically)
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
the grid is done (by whichever shard finishes last).
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rmviz.atomic import atomic_path, atomic_write, atomic_write_text
from rmviz.errors import ConfigError, RmvizError
from rmviz.sweep.config import SweepConfig, Task, config_from, load_config
from rmviz.sweep.task import COLUMNS, run_task
from rmviz.version import version

CONFIG_FILE, RESULTS_FILE, CSV_FILE = "sweep.json", "results.parquet", "results.csv"
META_VERSION, META_CONFIG = b"rmviz", b"rmviz_sweep"


@dataclass(frozen=True)
class Shard:
    """Part ``part`` (1-based) of ``count``: the tasks whose index is ``part - 1`` modulo
    ``count`` (``--shard 2/4``; SLURM: ``--array=1-4`` and ``--shard $SLURM_ARRAY_TASK_ID/4``)."""

    part: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        part, _, count = text.partition("/")
        try:
            shard = cls(int(part), int(count))
        except ValueError:
            raise ConfigError(f"--shard {text!r}: write I/N, e.g. 2/4 for the second of four parts") from None
        if not 1 <= shard.part <= shard.count:
            raise ConfigError(f"--shard {text!r}: I runs from 1 to N")
        return shard

    def holds(self, task: Task) -> bool:
        return task.index % self.count == self.part - 1


@dataclass(frozen=True)
class SweepReport:
    """What :func:`run_sweep` did: tasks run now, found done, left to other shards; the
    table (all finished tasks) and the files written when the grid is complete."""

    config: SweepConfig
    ran: int
    skipped: int
    pending: int
    seconds: float
    table: Any  # a pandas DataFrame
    files: tuple[Path, ...]

    @property
    def complete(self) -> bool:
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
) -> SweepReport:
    """Run the grid of ``config`` (a TOML path, a mapping shaped like it, or a SweepConfig)
    into the folder ``out``; see the module docstring.

    ``jobs``: local processes (default: all cores; 1 runs in this process); ``dask``: a Dask
    scheduler address (or a ``distributed.Client``) to run the tasks on instead; ``shard``:
    run only part of the grid. Finished tasks in ``out`` are not run again.
    """
    pd = _require("pandas", "sweeps")
    sweep = load_config(config) if isinstance(config, (str, Path)) else config_from(config)
    if isinstance(shard, str):
        shard = Shard.parse(shard)
    if jobs is not None and jobs < 1:
        raise ConfigError(f"--jobs {jobs}: run at least one process")
    out = Path(out)
    tasks_dir = out / "tasks"
    made = [folder for folder in (*reversed(out.parents), out, tasks_dir) if not folder.exists()]
    fresh = not (out / CONFIG_FILE).exists()
    _claim(out, sweep)
    tasks_dir.mkdir(parents=True, exist_ok=True)
    tasks = sweep.tasks()
    done = {task.index for task in tasks if _task_file(out, task.index).exists()}
    mine = [task for task in tasks if task.index not in done and (shard is None or shard.holds(task))]
    say = log or (lambda _message: None)
    say(f"{sweep.name}: {len(tasks)} tasks, {len(done)} done before, {len(mine)} to run")
    if sweep.deterministic and len(sweep.seeds) > 1:
        say(f"  {deterministic_note(sweep)}")
    start = time.perf_counter()
    try:
        for number, (index, rows) in enumerate(_execute(mine, jobs, dask), 1):
            _write_parquet(_task_file(out, index), pd.DataFrame(rows, columns=list(COLUMNS)), sweep)
            done.add(index)
            say(f"  task {index} ({tasks[index].game}) done: {number}/{len(mine)}")
    except BaseException:
        if fresh and not any(tasks_dir.iterdir()):  # failed before its first task: no trace left
            _unclaim(out, made)
        raise
    seconds = time.perf_counter() - start
    table = _combine(out, [t.index for t in tasks if t.index in done])
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
    ``rmviz`` (the version) and ``config`` (the sweep's config) from its metadata."""
    pq = _require("pyarrow.parquet", "sweep results")
    path = Path(path)
    if path.is_dir():
        path = path / RESULTS_FILE
    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as error:
        raise RmvizError(f"{path}: cannot read sweep results ({error})") from None
    frame = table.to_pandas()
    meta = table.schema.metadata or {}
    frame.attrs["rmviz"] = meta.get(META_VERSION, b"").decode()
    frame.attrs["config"] = json.loads(meta.get(META_CONFIG, b"null"))
    return frame


# -- execution ---------------------------------------------------------------------------------
Rows = tuple[int, dict[str, list[Any]]]


def _execute(tasks: Sequence[Task], jobs: int | None, dask: Any) -> Iterator[Rows]:
    """``(index, rows)`` of each task as it finishes (in any order)."""
    if not tasks:
        return
    if dask is not None:
        yield from _on_dask(tasks, dask)
    elif jobs == 1 or len(tasks) == 1:
        yield from map(run_task, tasks)
    else:
        joblib = _require("joblib", "parallel sweeps")
        parallel = joblib.Parallel(n_jobs=jobs or -1, backend="loky", return_as="generator_unordered")
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


def _on_dask(tasks: Sequence[Task], dask: Any) -> Iterator[Rows]:
    distributed = _require("distributed", "sweeps on Dask")
    own = isinstance(dask, str)
    try:
        client = distributed.Client(dask, timeout="20s") if own else dask
    except (OSError, TimeoutError) as error:
        raise RmvizError(f"--dask {dask}: cannot reach the scheduler ({error})") from None
    try:
        futures = [client.submit(run_task, task, pure=False) for task in tasks]
        for future in distributed.as_completed(futures):
            yield future.result()
    finally:
        if own:
            client.close()


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


def _task_file(out: Path, index: int) -> Path:
    return out / "tasks" / f"task-{index:05d}.parquet"


def _combine(out: Path, indices: Sequence[int]) -> Any:
    pd = _require("pandas", "sweeps")
    pq = _require("pyarrow.parquet", "sweeps")
    frames = [pq.read_table(_task_file(out, index)).to_pandas() for index in sorted(indices)]
    if not frames:
        return pd.DataFrame({name: [] for name in COLUMNS})
    return pd.concat(frames, ignore_index=True)


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
