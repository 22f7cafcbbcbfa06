"""``rmviz solve``'s text summary of a run, one per family (:data:`SUMMARIES`, keyed by the
:class:`~rmviz.solvers.family.Family`): the strategies, the gaps and the speed of the report
``rmviz solve --json`` prints, as people read them (never ``-0``; rounding noise below 1e-12
of the payoffs as 0)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from rmviz.numbers import format_number
from rmviz.present.panels import shown_actions
from rmviz.solvers.jit import SHORT_RUN
from rmviz.solvers.scale import largest_payoff, reported_values

if TYPE_CHECKING:
    from rmviz.games.normal_form import NormalFormGame
    from rmviz.solvers.family import Family

Summary = Callable[[dict[str, Any], Any], str]
"""A family's summary: the report and the game to text."""


def _code_note(report: dict[str, Any]) -> str:
    """Where a run's rate was not the compiled kernels': a run of up to
    :data:`~rmviz.solvers.jit.SHORT_RUN` iterations ends sooner in the array code than numba
    loads, so its rate is the array code's (9,000 it/s on rps-crash against 4,300,000)."""
    if report.get("compiled", True):
        return ""
    return f" in NumPy: a run of up to {SHORT_RUN:,} iterations skips the compiled kernels"


def matrix_summary(report: dict[str, Any], game: NormalFormGame) -> str:
    """A matrix game's run: each player's average and current strategy, the gaps."""
    parts: list[str] = []
    parts.append(f"{report['title']}  ({report['game']}, {game.n_players} players, {game.shape_label})\n")
    rate = report["iterations_per_second"]
    parts.append(
        f"{report['algorithm']}: {report['iterations']} iterations in {report['seconds']:.3f} s"
        f" ({rate:,.0f} it/s{_code_note(report)}) on {report['device']}\n"
    )
    if report.get("start_note"):  # a start nobody chose that is not uniform: said, as rmviz step does
        parts.append(f"pi^1: {report['start_note']} (--start chooses another)\n")
    parts.append("\n")
    for i, (name, actions) in enumerate(zip(game.player_names, game.action_names, strict=True)):
        parts.append(f"{name}  (payoff of the average profile {format_number(report['value'][i], '.6g')})\n")
        width = max(len(a) for a in actions)
        # of many actions the most played, as the window and the figures draw them
        shown = [
            (a, actions[a]) for a in shown_actions(len(actions), np.asarray(report["average_strategy"][i]))
        ]
        for a, action in shown:
            avg = report["average_strategy"][i][a]
            cur = report["current_strategy"][i][a]
            bar = "#" * round(avg * 30)
            avg_text, cur_text = format_number(avg, "8.4f"), format_number(cur, "8.4f")
            parts.append(f"  {action:<{width}}  average {avg_text}  current {cur_text}  {bar}\n")
        if len(actions) > len(shown):
            parts.append(f"  ... the {len(actions) - len(shown)} actions played less (use --json)\n")
    parts.append("\n")
    rows = [
        ("exploitability (NashConv/n)", report["exploitability"]),
        ("NashConv", report["nash_conv"]),
        ("CCE gap", report["cce_gap"]),
        ("CE gap", report["ce_gap"]),
        ("regret bound 2 max R / T", report["eps_bound"]),
        ("social welfare", report["welfare"]),
    ]
    if report.get("last_exploitability") is not None:  # the current profile's (last iterate)
        rows += [
            ("last iterate: exploitability", report["last_exploitability"]),
            ("last iterate: CCE gap", report["last_cce_gap"]),
            ("last iterate: CE gap", report["last_ce_gap"]),
        ]
    top = largest_payoff(game.payoffs)
    for label, value in rows:
        if value is None:
            text = "not tracked (large game, expected play)"
        else:  # rounding noise (1e-19 in a zero-sum game) prints as 0, by the values' rule
            text = format_number(reported_values([value], top, 1.0)[0], ".6g")
        parts.append(f"  {label:<28} {text}\n")
    return "".join(parts)


GAPS = (("cce", "CCE"), ("efcce", "EFCCE"), ("efce", "EFCE"))  # a tree device's correlation gaps


def tree_summary(report: dict[str, Any], _game: Any) -> str:
    """A game tree's run: the average strategy of the first information sets, the gaps."""
    parts: list[str] = []
    rate = report["iterations_per_second"]
    parts.append(f"{report['title']}  ({report['game']}, {len(report['players'])} players)\n")
    parts.append(
        f"{report['algorithm']}: {report['iterations']} iterations in {report['seconds']:.3f} s"
        f" ({rate:,.0f} it/s) on cpu\n\n"
    )
    table = report["average_strategy"]
    shown = list(table)[:24]
    width = max(len(label) for label in shown)
    parts.append(f"  {'information set':<{width}}  average strategy\n")
    for label in shown:
        moves = "  ".join(f"{move} {format_number(p, '.4f')}" for move, p in table[label].items())
        parts.append(f"  {label:<{width}}  {moves}\n")
    if len(table) > len(shown):
        parts.append(f"  ... {len(table) - len(shown)} more information sets (use --json)\n")
    values = ", ".join(
        f"{n} {format_number(v, '.6g')}" for n, v in zip(report["players"], report["value"], strict=True)
    )
    parts.append("\n")
    for label, text in (
        ("value of the average profile", values),
        ("exploitability (NashConv/n)", format_number(report["exploitability"], ".6g")),
        ("NashConv", format_number(report["nash_conv"], ".6g")),
        *(
            [
                (f"{notion} gap (max over players)", format_number(report[f"{key}_gap"], ".6g"))
                for key, notion in GAPS
            ]
            if report.get("cce_gap") is not None
            else []
        ),
        ("regret bound sum_I R+/T", format_number(report["eps_bound"], ".6g")),
        *(
            [("last iterate: exploitability", format_number(report["last_exploitability"], ".6g"))]
            if report.get("last_exploitability") is not None
            else []
        ),
    ):
        parts.append(f"  {label:<30} {text}\n")
    return "".join(parts)


@cache
def _summaries() -> dict[Family, Summary]:
    from rmviz.solvers.registry import MATRIX, TREE

    return {MATRIX: matrix_summary, TREE: tree_summary}


def __getattr__(name: str) -> dict[Family, Summary]:
    """``SUMMARIES``: each family's summary, keyed by the :class:`~rmviz.solvers.family.Family`,
    built on first use so that importing this module loads no solver."""
    if name != "SUMMARIES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _summaries()
