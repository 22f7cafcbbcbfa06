"""Sweeps that tell the truth about their workers (issue 32): the rows say which rmviz, host
and Python computed them; cell granularity gives the game granularity's table bit for bit;
on Dask a worker of another rmviz is refused in one line (at the start, or when it joins
later), each worker compiles the sweep's kernels once, as it joins, and ``retries`` reaches
Dask. Workers here are in-process (``LocalCluster(processes=False)``); another version is
simulated by the identity probe the client ships (tests/sweep/test_sweep_cluster.py runs
real ``dask worker`` processes, one of them with another installed version)."""

from __future__ import annotations

import platform
import socket
import sys

import pytest

from rmviz.cli import main
from rmviz.errors import RmvizError
from rmviz.sweep import read_results, run_sweep
from rmviz.sweep import workers as sweep_workers
from rmviz.sweep.task import COLUMNS, WHERE
from rmviz.version import version
from tests.sweep.test_sweep import interrupt_after, same_table

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

GRID = {
    "name": "tiny",
    "games": ["random:zero-sum:3x3:seed={0..1}"],
    "algorithms": ["rm", "rm+"],
    "seeds": 2,
    "iterations": [5, 20],
    "metrics": ["exploitability"],
    "options": {"play": "sampled"},
}


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    return run_sweep(GRID, tmp_path_factory.mktemp("serial"), jobs=1, figures=False).table


def test_each_row_names_the_rmviz_host_and_python_that_computed_it(serial):
    assert list(serial.columns) == list(COLUMNS) and COLUMNS[-3:] == WHERE
    assert set(serial.rmviz) == {version()}
    assert set(serial.host) == {socket.gethostname()}
    assert set(serial.python) == {platform.python_version()}


def test_cell_granularity_gives_the_same_table_bit_for_bit(serial, tmp_path):
    cells = run_sweep(GRID, tmp_path, jobs=1, figures=False, granularity="cell")
    assert cells.ran == 2 * 2 * 2  # games x algorithms x seeds
    assert len(list((tmp_path / "tasks").iterdir())) == 8
    same_table(cells.table, serial)
    assert cells.table.value.to_numpy().tobytes() == serial.value.to_numpy().tobytes()
    from rmviz.sweep import config_from

    assert read_results(tmp_path).attrs["config"] == config_from(GRID).as_dict()  # as with "game"


def test_a_deterministic_algorithm_has_one_cell_per_game(tmp_path):
    grid = {**GRID, "options": {}}
    report = run_sweep(grid, tmp_path, jobs=1, figures=False, granularity="cell")
    assert report.ran == 2 * 2  # expected play: rm and rm+ run with the first seed only
    assert set(report.table.seed) == {0}


def test_a_sweep_resumes_across_granularities(serial, tmp_path, monkeypatch):
    """Cells of a game interrupted midway are kept; the game granularity then runs only the
    games without every cell; the table is the serial one."""
    from rmviz.sweep import run as sweep_run

    run_task = sweep_run.run_task
    calls = interrupt_after(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(GRID, tmp_path, jobs=1, granularity="cell")
    assert len(list((tmp_path / "tasks").iterdir())) == 3  # three cells of game 0
    calls.clear()
    monkeypatch.setattr(sweep_run, "run_task", lambda task: calls.append(task.game) or run_task(task))
    report = run_sweep(GRID, tmp_path, jobs=1, figures=False)  # granularity "game"
    assert calls == ["random:zero-sum:3x3:seed=0", "random:zero-sum:3x3:seed=1"]
    assert report.complete
    calls.clear()
    again = run_sweep(GRID, tmp_path, jobs=1, figures=False, granularity="cell")
    assert calls == [] and again.ran == 0 and again.skipped == 8
    same_table(report.table, serial)


def test_results_of_an_older_rmviz_load_with_null_where_columns(tmp_path):
    """Task files and tables written before the WHERE columns existed still load (a resumed
    sweep and read_results), their WHERE values null."""
    import pyarrow.parquet as pq

    out = tmp_path / "out"
    run_sweep(GRID, out, jobs=1, figures=False)
    old = out / "tasks" / "task-00000.parquet"
    table = pq.read_table(old)
    pq.write_table(table.drop_columns(list(WHERE)).replace_schema_metadata(table.schema.metadata), old)
    (out / "tasks" / "task-00001.parquet").unlink()
    report = run_sweep(GRID, out, jobs=1, figures=False)
    assert report.ran == 1 and list(report.table.columns) == list(COLUMNS)
    assert report.table.rmviz.isna().sum() == len(report.table) // 2
    results = pq.read_table(out / "results.parquet")
    older = results.drop_columns(list(WHERE)).replace_schema_metadata(results.schema.metadata)
    pq.write_table(older, out / "x")
    assert read_results(out / "x").host.isna().all()


def test_granularity_and_retries_are_checked_and_not_part_of_the_config(tmp_path, capsys):
    from rmviz.sweep import config_from

    config = config_from({**GRID, "granularity": "cell", "retries": 2})
    assert (config.granularity, config.retries) == ("cell", 2)
    assert "granularity" not in config.as_dict() and "retries" not in config.as_dict()
    assert config_from(config.source()) == config
    for bad, reason in (
        ({"granularity": "seed"}, "granularity = 'seed'"),
        ({"retries": -1}, "retries = -1"),
        ({"retries": True}, "retries = True"),
    ):
        with pytest.raises(RmvizError, match=reason):
            config_from({**GRID, **bad})
    toml = tmp_path / "s.toml"
    toml.write_text('games = ["rps"]\nalgorithms = ["rm"]\nseeds = 1\niterations = [3]\n')
    assert main(["sweep", str(toml), "--out", str(tmp_path / "r"), "--retries", "-2"]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and not (tmp_path / "r").exists()
    with pytest.raises(SystemExit, match="2"):
        main(["sweep", str(toml), "--out", str(tmp_path / "r"), "--granularity", "seed"])
    assert "invalid choice: 'seed'" in capsys.readouterr().err


# -- on Dask --------------------------------------------------------------------------------------
distributed = pytest.importorskip("distributed")


@pytest.fixture
def cluster():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield cluster, client


def other_version_on(worker_name):
    """A probe that says worker ``worker_name`` runs rmviz 0.0.1 (the client runs this one)."""
    real = sweep_workers.probe()

    def fake():
        def who(dask_worker=None):
            found = real(dask_worker)
            if dask_worker is not None and dask_worker.name == worker_name:
                found = {**found, "rmviz": "0.0.1"}
            return found

        return who

    return fake


def test_a_worker_of_another_rmviz_is_refused_in_one_line_before_anything_is_written(
    cluster, tmp_path, monkeypatch, capsys
):
    local, _client = cluster
    monkeypatch.setattr(sweep_workers, "probe", other_version_on(1))
    out = tmp_path / "out"
    command = ["sweep", "--example", "zero-sum-10x10", "--out", str(out)]
    assert main([*command, "--dask", local.scheduler_address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    other = local.workers[1].address
    assert f"worker {other} ({socket.gethostname()}) runs rmviz 0.0.1" in err
    assert f"this client rmviz {version()}" in err
    assert not out.exists()


def test_a_worker_of_another_rmviz_joining_later_refuses_its_task(cluster, tmp_path, monkeypatch):
    """The check at the start is passed (as by a worker that joins after it): the task itself
    refuses to run there, and the sweep stops with the same line, not retried by Dask."""
    _local, client = cluster
    monkeypatch.setattr(sweep_workers, "probe", other_version_on(0))
    monkeypatch.setattr(sweep_workers, "check_workers", lambda client, who, ours: {})
    refused = r"^--dask: worker \S+ \(.*\) runs rmviz 0\.0\.1 .* this client rmviz"
    with pytest.raises(RmvizError, match=refused):
        run_sweep({**GRID, "games": ["random:zero-sum:3x3:seed={0..5}"]}, tmp_path, dask=client, retries=3)


def plugin_runs(client):
    def runs(dask_worker):
        plugins = dask_worker.plugins.items()
        return sorted((name, plugin.runs) for name, plugin in plugins if name.startswith("rmviz-sweep"))

    return client.run(runs)


def test_each_worker_compiles_the_kernels_once_as_it_joins(cluster, serial, tmp_path):
    """Once on each worker present, once on a worker that joins while the sweep runs, and
    gone from the scheduler and the workers after it."""
    from rmviz.sweep import config_from

    local, client = cluster
    with sweep_workers.warm_workers(client, config_from(GRID)):
        first = plugin_runs(client)
        assert len(first) == 2 and all(len(runs) == 1 and runs[0][1] == 1 for runs in first.values())
        local.scale(3)
        client.wait_for_workers(3, timeout=120)
        third = plugin_runs(client)
        assert len(third) == 3 and all(runs == next(iter(first.values())) for runs in third.values())
    assert all(runs == [] for runs in plugin_runs(client).values())
    plugins = client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.worker_plugins))
    assert not [name for name in plugins if name.startswith("rmviz")]


def test_a_dask_sweep_warms_each_worker_once(cluster, serial, tmp_path, monkeypatch):
    _local, client = cluster
    warm_up = sweep_workers.warm_up
    calls = []
    monkeypatch.setattr(sweep_workers, "warm_up", lambda cells: calls.append(cells) or warm_up(cells))
    report = run_sweep(GRID, tmp_path, dask=client, figures=False)
    assert len(calls) == 2 and calls[0] == sweep_workers.warmup_cells(report.config)
    same_table(report.table, serial)


WARM_UP_THEN_TASKS = """
import sys
from numba.core.registry import CPUDispatcher
from rmviz.sweep import config_from, workers
from rmviz.sweep.task import run_task

def dispatched():  # how many compiled versions numba's dispatchers of rmviz hold
    modules = [m for name, m in list(sys.modules.items()) if name.startswith("rmviz.") and m is not None]
    return sum(len(v.overloads) for m in modules for v in vars(m).values() if isinstance(v, CPUDispatcher))

for grid in GRIDS:
    sweep = config_from(grid)
    seconds, failed = workers.warm_up(workers.warmup_cells(sweep))
    assert failed == [], failed
    before = dispatched()
    for task in sweep.tasks():
        run_task(task)
    assert dispatched() == before, grid  # nothing compiled after the warm-up
print("ok")
"""


def test_the_warm_up_compiles_every_kernel_a_task_calls():
    """In a fresh process (this one has loaded every kernel already): after the warm-up of
    a sampled, an expected-play and a tree sweep, their tasks compile or load nothing."""
    import subprocess

    pytest.importorskip("numba")
    trees = {**GRID, "games": ["kuhn"], "algorithms": ["cfr+", "mccfr-outcome"], "metrics": None}
    trees["options"] = {}
    three = {**GRID, "games": ["random:general-sum:2x3x2:seed={0..1}"], "metrics": None, "options": {}}
    grids = [GRID, {**GRID, "options": {}}, trees, three]
    script = f"GRIDS = {grids!r}\n{WARM_UP_THEN_TASKS}"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "ok", done.stderr


def test_the_stand_ins_have_the_sweep_s_kinds_and_numbers_of_players():
    from rmviz.sweep import config_from

    def standins(games, algorithm="rm"):
        grid = {"games": games, "algorithms": [algorithm], "seeds": 1, "iterations": [3]}
        return sorted({game for game, _algorithm, _options in sweep_workers.warmup_cells(config_from(grid))})

    assert standins(["random:zero-sum:9x9:seed={0..3}"]) == ["rps"]
    assert standins(["random:general-sum:10x10x10x10x10x10x10:seed=1"]) == ["three-player-pennies"]
    assert standins(["rps", "kuhn"], "cfr") == ["kuhn", "rps"]  # rps solved by CFR: its own kind
    assert sweep_workers._players("games/some.nfg") is None  # unknown: both stand-ins


def test_retries_reach_dask(cluster, serial, tmp_path, monkeypatch):
    """A task that fails once runs again with ``retries = 1`` (the same table); without
    retries (as before) the failure stops the sweep."""
    from rmviz.sweep import task as sweep_task

    _local, client = cluster
    failed: set[int] = set()
    run_task = sweep_task.run_task

    def flaky(task):
        if task.index not in failed:
            failed.add(task.index)
            raise OSError(f"flaky task {task.index}")
        return run_task(task)

    monkeypatch.setattr(sweep_task, "run_task", flaky)
    report = run_sweep({**GRID, "retries": 1}, tmp_path / "a", dask=client, figures=False)
    assert failed == {0, 1}
    same_table(report.table, serial)
    failed.clear()
    with pytest.raises(OSError, match="flaky task"):
        run_sweep(GRID, tmp_path / "b", dask=client, figures=False)
