"""Sweeps: a grid of games x algorithms x seeds x iteration checkpoints, run on all local
cores (joblib/loky) or a Dask cluster, into one tidy table (Parquet, CSV on request) and one
figure per metric with mean and 95% bands (``rmviz sweep CONFIG.toml --out RESULTS``).

::

    from rmviz.sweep import run_sweep, read_results

    # sweeps/zero-sum-10x10.toml: one of rmviz's examples (rmviz examples --copy .)
    report = run_sweep("sweeps/zero-sum-10x10.toml", "results/", jobs=4)
    report.table  # pandas DataFrame: game, algorithm, seed, iteration, metric, value, seconds,
                  # and who computed each row: rmviz, host, python

Modules: :mod:`.config` (the TOML file, the tasks), :mod:`.task` (one task in a worker),
:mod:`.run` (executors, resuming, files), :mod:`.workers` (Dask workers: the same rmviz,
kernels compiled as they join), :mod:`.figures`. Needs ``rmviz[sweep]``
(pandas, pyarrow, joblib; dask[distributed] for ``--dask``).
"""

from rmviz.sweep.config import SweepConfig, Task, config_from, load_config
from rmviz.sweep.run import Shard, SweepReport, read_results, run_sweep
from rmviz.sweep.task import COLUMNS, run_task

__all__ = [
    "COLUMNS",
    "Shard",
    "SweepConfig",
    "SweepReport",
    "Task",
    "config_from",
    "load_config",
    "read_results",
    "run_sweep",
    "run_task",
]
