"""One matrix-game iteration as text (``rmviz step`` and the matrix window's *Step* tab): the
weights, a table per player and the formulas of the run's algorithm with the numbers of an
:class:`~rmviz.solvers.matrix.explain.IterationStep` filled in, in the teaching notebook's and
the CFR lecture's notation (the sources: :mod:`rmviz.solvers.matrix.explain`). Numbers are
written as a lecture's table writes them: a column (a vector, a swap-regret matrix) in short
fractions where every entry is one, else in decimals throughout
(:func:`~rmviz.present.number_text.column`); so are the numbers a formula line compares or
combines ("potential 0.321 against 5/9" read as two kinds of number).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rmviz.present.number_text import column, fraction

if TYPE_CHECKING:
    from rmviz.solvers.matrix.explain import IterationStep, PlayerStep


def vector(values: np.ndarray) -> str:
    """``(1/2, 0, -5/4)``; ``(0.5, 0.2222, -2.711)`` when one entry is no short fraction."""
    return "(" + ", ".join(column(np.ravel(values))) + ")"


TABLE_COLUMNS = ("action", "pi^t", "U(a)", "r^t(a)", "R^t-1(a)", "R^t(a)", "pi^t+1", "average")
REGRET_COLUMNS = slice(3, 6)  # the columns named for the regrets they hold (table_headers)


# the heads as the window types them (the text's are ASCII, LaTeX's step_latex.HEADERS): the
# tree window's superscripts, so "pi^t+1" does not read as pi^t plus one
TYPESET = str.maketrans({"^": None, "t": "ᵗ", "-": "⁻", "+": "⁺", "1": "¹"})


def typeset_header(name: str) -> str:
    """A head of :func:`table_headers` with Unicode superscripts: ``pi^t+1`` -> ``πᵗ⁺¹``,
    ``sum_b R^t-1(b,a)`` -> ``Σ_b Rᵗ⁻¹(b,a)``, ``average`` -> ``π̄ᵗ``."""
    if name == "average":
        return "π̄ᵗ"
    if "^" not in name:
        return name
    head, _, tail = name.partition("^")
    power, bracket, rest = tail.partition("(")
    head = head.replace("sum_b ", "Σ_b ").replace("pi", "π")
    return head + power.translate(TYPESET) + bracket + rest


def table_headers(player: PlayerStep) -> tuple[str, ...]:
    """:data:`TABLE_COLUMNS` as a player's table heads them: with internal regrets the regret
    columns hold the swap regrets' column sums (expected play) or the drawn action's row
    (sampled: b is the action drawn), not regrets that pi^t+1 matches (a student applied
    regret matching to "R^t(a)" beside internal RM's stationary pi^t+1)."""
    if player.regret.ndim == 1:
        return TABLE_COLUMNS
    sums = "sum_b " if player.action is None else ""
    regrets = tuple(f"{sums}{name.removesuffix('(a)')}(b,a)" for name in TABLE_COLUMNS[REGRET_COLUMNS])
    return (*TABLE_COLUMNS[: REGRET_COLUMNS.start], *regrets, *TABLE_COLUMNS[REGRET_COLUMNS.stop :])


def table_rows(player: PlayerStep) -> list[tuple[str, ...]]:
    """One row per action, :data:`TABLE_COLUMNS`. With internal regrets the regret columns
    hold the row of the swap regrets ``r(b, a)`` of the action played last (sampled) or their
    column sums ``sum_b r(b, a)`` (expected play); :func:`swap_rows` gives the whole matrices."""

    def per_action(values: np.ndarray) -> np.ndarray:
        if values.ndim == 1:
            return values
        return values[player.action] if player.action is not None else values.sum(axis=0)

    columns = (
        player.strategy,
        player.utilities,
        per_action(player.regret),
        per_action(player.cumulative_before),
        per_action(player.cumulative_after),
        player.next_strategy,
        player.average,
    )
    texts = [column(values) for values in columns]
    return [(name, *(text[a] for text in texts)) for a, name in enumerate(player.actions)]


def swap_rows(player: PlayerStep) -> list[tuple[str, ...]]:
    """Internal regret: ``R^t(b, a)`` row by row (``b`` played, ``a`` instead)."""
    matrix = player.cumulative_after
    texts = np.array(column(matrix.ravel()), dtype=object).reshape(matrix.shape)
    return [(f"{b} -> ", *row) for b, row in zip(player.actions, texts.tolist(), strict=True)]


def weights_line(step: IterationStep) -> str:
    """The iteration's weights in words, with the numbers."""
    t = step.iteration
    if step.weighting == "greedy":
        if step.lam is None:
            return f"t = {t}: greedy weights; the first iteration has weight 1"
        assert step.lam_uniform is not None
        lam, share, uniform = column((step.lam, 1 - step.lam, step.lam_uniform))
        potential, against = column((step.potential or 0.0, step.potential_uniform or 0.0))
        return (
            f"t = {t}: greedy weight lam = {lam} (history x lam, new iterate's share "
            f"1 - lam = {share}; uniform would be lam = {uniform}): potential {potential} against {against}"
        )
    parts = [f"t = {t}"]
    if (step.d_pos, step.d_neg, step.d_avg, step.c_avg) == (1.0, 1.0, 1.0, 1.0):
        parts.append("every iteration weight 1")
    if (step.d_pos, step.d_neg) != (1.0, 1.0):
        d_pos, d_neg = column((step.d_pos, step.d_neg))
        parts.append(f"regrets discounted d+ = {d_pos}, d- = {d_neg}")
    if step.d_avg != 1.0 or step.c_avg != 1.0:
        parts.append(f"average discounted {fraction(step.d_avg)} ({step.averaging} weights)")
    return ", ".join(parts)


def format_step(step: IterationStep) -> str:
    """Iteration ``t`` as text: the weights, then a table per player (``rmviz step``)."""
    lines = [f"iteration {step.iteration}: {weights_line(step)}"]
    for player in step.players:
        drawn = f", drew {player.actions[player.action]}" if player.action is not None else ""
        fixed = "" if player.learning else " (fixed: does not learn)"
        lines.append(f"  {player.name}{fixed}: payoff u = {fraction(player.value)}{drawn}")
        rows = [table_headers(player), *table_rows(player)]
        widths = [max(len(row[c]) for row in rows) for c in range(len(TABLE_COLUMNS))]
        lines += [
            "    " + "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in rows
        ]
        if player.cumulative_after.ndim == 2:
            lines.append(
                "    swap regrets R^t(b, a): " + "; ".join(" ".join(row) for row in swap_rows(player))
            )
        if player.learning and step.rule != "regret-matching":  # the rule the table cannot show
            if step.predictive:
                lines.append(f"    G = R^t + m^t with the prediction m^t = r^t: {vector(player.guide)}")
            lines.append("    " + _leader(step, player, "G" if step.predictive else "R^t"))
    return "\n".join(lines)


def _leader(step: IterationStep, p: PlayerStep, guide: str) -> str:
    """The line of the next strategy by FTRL or the best response (the rules of
    :mod:`rmviz.solvers.regret_matching`)."""
    after = vector(p.next_strategy)
    if step.rule == "best-response":
        top = float(np.max(p.guide))
        best = ", ".join(name for name, q in zip(p.actions, p.next_strategy, strict=True) if q > 0)
        return f"pi^t+1 = uniform over argmax {guide} = {{{best}}} (max {fraction(top)}): {after}"
    eta = fraction(p.rate or 0.0)
    if step.regulariser == "entropic":
        return f"pi^t+1(a) = exp(eta {guide}(a)) / sum_b exp(eta {guide}(b)), eta = {eta}: {after}"
    return f"pi^t+1 = the point of the simplex nearest eta {guide}, eta = {eta}: {after}"


def formulas(step: IterationStep, i: int) -> list[str]:
    """The formulas of this iteration for player ``i`` with its numbers filled in."""
    p = step.players[i]
    drawn = None if p.action is None else p.actions[p.action]
    lines = []
    if drawn is not None:
        lines.append(f"{p.name} draws a^t = {drawn} from pi^t = {vector(p.strategy)}")
        lines.append(f"U(a) = u(a, a_-i^t) against the others' draws = {vector(p.utilities)}")
        lines.append(f"u^t = U(a^t) = {fraction(p.value)}")
    else:
        lines.append(f"U(a) = u(a, pi_-i^t) against the others' strategies = {vector(p.utilities)}")
        *numbers, value = column((*p.strategy, *p.utilities, p.value))  # one line, one form
        k = len(p.strategy)
        terms = " + ".join(f"{s}*{u}" for s, u in zip(numbers[:k], numbers[k:], strict=True))
        lines.append(f"u^t = sum_a pi^t(a) U(a) = {terms} = {value}")
    if not p.learning:
        lines.append(f"{p.name} is fixed: pi^t+1 = pi^t = {vector(p.next_strategy)}")
        return lines
    if step.regret_kind == "external":
        lines.append(f"r^t(a) = U(a) - u^t = {vector(p.regret)}")
        if step.weighting == "greedy" and step.lam is not None:
            update = f"lam R^t-1 + (1 - lam) W r^t, lam = {fraction(step.lam)}"
        elif (step.d_pos, step.d_neg) != (1.0, 1.0):
            d_pos, d_neg = column((step.d_pos, step.d_neg))
            update = f"{d_pos} [R^t-1]_+ + {d_neg} [R^t-1]_- + r^t"
        else:
            update = "R^t-1 + r^t"
        if step.plus:
            update = f"[{update}]_+ (RM+)"
        lines.append(f"R^t = {update}: {vector(p.cumulative_before)} -> {vector(p.cumulative_after)}")
        if step.predictive:
            lines.append(f"G = R^t + m^t with the prediction m^t = r^t: {vector(p.guide)}")
        guide = "G" if step.predictive else "R^t"
        total = float(np.maximum(p.guide, 0.0).sum())
        if step.rule != "regret-matching":
            lines.append(_leader(step, p, guide))
        elif total > 0:
            divisor = fraction(total) if "/" not in fraction(total) else f"({fraction(total)})"
            lines.append(f"pi^t+1(a) = [{guide}(a)]_+ / {divisor} = {vector(p.next_strategy)}")
        else:
            lines.append(f"no positive regret: pi^t+1 = uniform = {vector(p.next_strategy)}")
    else:
        if drawn is not None:
            assert p.action is not None and step.inertia is not None
            lines.append(f"swap regrets r^t({drawn}, a) = U(a) - u^t = {vector(p.regret[p.action])}")
            lines.append("R^t(b, a) = " + "; ".join(" ".join(row) for row in swap_rows(p)))
            lines.append(
                f"pi^t+1(a) = [R^t({drawn}, a)]_+ / (mu + sum), stay: mu / (mu + sum), "
                f"inertia mu = {fraction(step.inertia)}: {vector(p.next_strategy)}"
            )
        else:
            lines.append("swap regrets r^t(b, a) = pi^t(b) (U(a) - U(b)), R^t = R^t-1 + r^t:")
            lines.append("R^t(b, a) = " + "; ".join(" ".join(row) for row in swap_rows(p)))
            lines.append(
                "pi^t+1 = stationary distribution of the chain b -> a at rate [R^t(b, a)]_+ = "
                f"{vector(p.next_strategy)}"
            )
    played = "pi^t" if drawn is None else f"1[{drawn}]"
    if step.d_avg == 1.0 and step.c_avg == 1.0:
        weights = f"S^t-1 + {played}"
    else:
        d_avg, c_avg = column((step.d_avg, step.c_avg))
        weights = f"{d_avg} S^t-1 + {c_avg} {played}"
    lines.append(f"average = S^t / sum S^t, S^t = {weights}: {vector(p.average)}")
    return lines
