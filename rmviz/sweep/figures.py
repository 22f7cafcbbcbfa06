"""A sweep's figures, in the style of Zhang, Lerer & Brown (2022): one figure per metric,
one line per algorithm (the mean over every game and seed at each checkpoint) with a 95%
confidence band (mean +- 1.96 standard errors) over the distinct runs: the legend's n counts
them, and says "deterministic" for an algorithm run once per game (its runs ignore the seed,
so further seeds would repeat the run, not sample it); a sweep of one checkpoint draws the
interval as a bar. Distances to equilibrium (the gaps) are drawn log-log, the band clipped to
positive values; other metrics (welfare) on a linear axis."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from rmviz.figures.registry import write_figure
from rmviz.figures.style import STYLES, finish, log_axis
from rmviz.present.definitions import GAP_CURVES, PANEL_TEXT, action_colour, metric_axis
from rmviz.present.panels import decades

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Z95 = 1.959963984540054
CHECKPOINT_ROOM = 0.1
"""Decades of room left of the first checkpoint and right of the last: their markers whole,
not on the axis's edge; a sweep of one checkpoint has it in the middle of a decade."""
DODGE = 0.04  # decades between two algorithms' bars at a sweep's one checkpoint


def summary(table: Any) -> Any:
    """Mean, standard error, count and the 95% band per metric, algorithm and checkpoint."""
    grouped = table.groupby(["metric", "algorithm", "iteration"], sort=False)["value"]
    out = grouped.agg(mean="mean", std="std", n="count").reset_index()
    out["sem"] = out["std"].fillna(0.0) / np.sqrt(out["n"].clip(lower=1))
    out["low"] = out["mean"] - Z95 * out["sem"]
    out["high"] = out["mean"] + Z95 * out["sem"]
    return out


DISTANCES = {name for family in GAP_CURVES.values() for name in family}


def sweep_figure(
    table: Any, metric: str, title: str = "", style: str = "paper", deterministic: Collection[str] = ()
) -> Figure:
    """The figure of one metric of a sweep's table (see the module docstring); ``deterministic``:
    the algorithms run with one seed per game (``SweepConfig.deterministic``)."""
    from matplotlib.figure import Figure

    look = STYLES[style]
    stats = summary(table[table["metric"] == metric])
    with look.context():
        fig = Figure(figsize=look.size, layout="constrained")
        fig.set_label(f"{title}: {metric}" if title else metric)
        ax = fig.subplots()
        log = is_distance(metric)
        low_all, high_all = (-np.inf, np.inf)
        if log:  # the panels' rule (rmviz.present.panels): whole decades, two at least
            low, high = decades([stats["mean"].to_numpy()]) or (-3, 0)
            low_all, high_all = 10.0**low, 10.0**high
        single = stats["iteration"].nunique() == 1
        algorithms = stats["algorithm"].nunique()
        for k, (algorithm, rows) in enumerate(stats.groupby("algorithm", sort=False)):
            rows = rows.sort_values("iteration")
            x, mean = rows["iteration"].to_numpy(float), rows["mean"].to_numpy()
            if single:  # one checkpoint: the algorithms' bars side by side, not on one another
                x = x * 10.0 ** (DODGE * (k - (algorithms - 1) / 2))
            keep = np.isfinite(mean) & ((mean > 0) if log else True)
            colour = action_colour(k)
            n = f"n={int(rows['n'].max())}" + (", deterministic" if algorithm in deterministic else "")
            ax.plot(x[keep], mean[keep], color=colour, label=f"{algorithm} ({n})", marker="o", markersize=3)
            low = np.maximum(rows["low"].to_numpy(), low_all)[keep]
            high = rows["high"].to_numpy()[keep]
            if single:  # a band of one checkpoint is not drawn: its bar
                bar = np.array([mean[keep] - low, high - mean[keep]])
                ax.errorbar(x[keep], mean[keep], yerr=np.maximum(bar, 0.0), color=colour, capsize=3, lw=1)
            else:
                ax.fill_between(x[keep], low, high, color=colour, alpha=0.2, lw=0)
        if log:
            log_axis(ax, "y", low_all, high_all)
        iterations = np.asarray(sorted(stats["iteration"].unique()), dtype=float)
        pad = 10.0 ** (CHECKPOINT_ROOM if iterations.size > 1 else 0.5)  # one checkpoint: mid-decade
        low = iterations[0] / pad
        log_axis(ax, "x", low, max(iterations[-1] * pad, 10 * low))  # a decade at least
        ax.set_xlabel(PANEL_TEXT["gaps"].x_tex)
        ax.set_ylabel(metric_axis(metric))
        ax.legend(loc="lower left" if log else "best")
        what = f"mean and 95% confidence {'interval' if single else 'band'} over games and seeds"
        finish(fig, look, f"{title}  ·  {what}" if title else None)
    return fig


def is_distance(metric: str) -> bool:
    """Whether ``metric`` is a distance to equilibrium (drawn on log axes): a gap curve of
    either family, or any metric named ``..._gap``, of the average or the last iterate
    (``last_exploitability``)."""
    metric = metric.removeprefix("last_")
    return metric in DISTANCES or metric.endswith("gap")


def save_sweep_figures(
    table: Any,
    folder: Path,
    title: str = "",
    metrics: Sequence[str] = (),
    deterministic: Collection[str] = (),
) -> list[Path]:
    """``folder/METRIC.png`` for every metric of ``table`` with a positive value (or ``metrics``);
    no folder when there is none."""
    names = list(metrics) or [
        m
        for m in table["metric"].unique()
        if (table.loc[table["metric"] == m, "value"] > (0 if is_distance(m) else -np.inf)).any()
    ]
    if names:
        folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for metric in names:
        path = folder / f"{_file_name(metric)}.png"
        paths.append(
            write_figure(
                sweep_figure(table, metric, title, deterministic=deterministic), path, "paper", dpi=150
            )
        )
    return paths


def _file_name(metric: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in metric) or "metric"


__all__ = ["save_sweep_figures", "summary", "sweep_figure"]
