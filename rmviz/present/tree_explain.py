"""One CFR iteration at one information set, written out: the formulas of the run's
algorithm with the numbers of an :class:`~rmviz.solvers.tree.explain.InfosetStep` filled in,
in the CFR lecture's notation (shared/seeds/cfr-lecture.md) with each variant's source
(Zinkevich et al. 2007; Tammelin 2014; Brown & Sandholm 2019; Lanctot et al. 2009; Zhang,
Lerer & Brown 2022). Written once, as HTML with ``<sub>``/``<sup>`` and Unicode symbols, for
the tree window; :func:`plain` turns it into the command line's text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from rmviz.present.number_text import number
from rmviz.solvers.weighting import SCHEMES, regret_discounts_of

if TYPE_CHECKING:
    from rmviz.solvers.tree.explain import InfosetStep

PI_OTHERS = "π<sub>-i</sub>"
PI_OWN = "π<sub>i</sub>"


def _term(x: float) -> str:
    """A number inside a sum or product: negatives in brackets."""
    text = number(x)
    return f"({text})" if text.startswith("-") else text


def _algorithm(step: InfosetStep) -> str:
    """The preset's title, and the settings that differ from the preset's."""
    from rmviz.solvers.tree.config import PRESETS, CFRConfig  # the tree family, when one is shown

    config = step.config
    if config.algorithm not in PRESETS:
        return html.escape(config.algorithm)
    title, settings = PRESETS[config.algorithm]
    standard = CFRConfig(**{"algorithm": config.algorithm, **settings})
    changed = [
        f"{name} = {getattr(config, name)}"
        for name in ("plus", "predictive", "weighting", "averaging", "alpha", "beta", "gamma", "sampling")
        if getattr(config, name) != getattr(standard, name)
    ]
    return html.escape(title + (f", here with {', '.join(changed)}" if changed else ""))


def _players(step: InfosetStep, players: Sequence[int]) -> str:
    return " and ".join(html.escape(step.player_names[q]) for q in players)


def _regret_rule(step: InfosetStep) -> tuple[str, str]:
    """The cumulative-regret update of this run (formula, this iteration's weights)."""
    config, t = step.config, step.iteration
    old, new = "R<sup>T-1</sup>(J, m)", "r<sup>T</sup>(J, m)"
    plus = config.plus
    if config.weighting == "greedy":
        if step.lam is None:
            return f"R<sup>T</sup>(J, m) = {old} + {new}", "greedy weights: the first iteration has weight 1"
        return (
            f"R<sup>T</sup>(J, m) = λ {old} + c {new}",
            f"greedy weights (Zhang, Lerer &amp; Brown 2022): λ = {number(step.lam)} minimises the "
            "potential Σ [λ x + (1 &minus; λ) r]<sub>+</sub><sup>2</sup> of the average counterfactual "
            f"regrets x; the new iterate's weight c = (1 &minus; λ) W = {number(step.c)}",
        )
    if config.weighting == "linear":
        formula = f"((T&minus;1)/T) {old} + {new}"
        weights = (
            "linear CFR (Brown &amp; Sandholm 2019): iteration t weighs t; "
            f"(T&minus;1)/T = {number(step.d_pos)}"
        )
    elif config.weighting == "discounted":
        formula = f"d<sub>+</sub> [{old}]<sup>+</sup> + d<sub>&minus;</sub> [{old}]<sup>&minus;</sup> + {new}"
        weights = (
            "DCFR (Brown &amp; Sandholm 2019): d<sub>+</sub> = s<sup>α</sup>/(s<sup>α</sup>+1) on positive "
            "regrets, d<sub>&minus;</sub> = s<sup>β</sup>/(s<sup>β</sup>+1) on negative ones, s = T&minus;1; "
            f"here α = {number(config.alpha)}, β = {number(config.beta)}"
            + (
                f", s = {t - 1}: d<sub>+</sub> = {number(step.d_pos)}, "
                f"d<sub>&minus;</sub> = {number(step.d_neg)}"
                if t > 1
                else ""
            )
        )
    else:
        formula = f"{old} + {new}"
        weights = "" if plus else "every iteration weighs 1 (Zinkevich et al. 2007)"
    if config.weighting in ("linear", "discounted") and t == 1:
        weights += f"; at T = 1 there is nothing to discount ({old.replace('T-1', '0')} = 0)"
    if plus:
        formula = f"[{formula}]<sup>+</sup>"
        rule = "regret matching+ keeps no negative regret: the sum is floored at 0 (Tammelin 2014)"
        weights = f"{weights}; {rule}" if weights else rule
    return f"R<sup>T</sup>(J, m) = {formula}", weights


def _regret_line(step: InfosetStep, k: int) -> str:
    """R^T(J, m) for move k with this iteration's numbers."""
    before, r, after = step.regret_before[k], step.regret[k], step.regret_after[k]
    weighting = step.config.weighting
    if weighting == "greedy" and step.lam is not None:
        text = f"{number(step.lam)}·{_term(before)} + {number(step.c)}·{_term(r)}"
    elif weighting in ("linear", "discounted") and step.iteration > 1:
        text = f"{number(step.d_pos if before > 0 else step.d_neg)}·{_term(before)} + {_term(r)}"
    else:
        text = f"{number(before)} + {_term(r)}"
    if step.config.plus:
        text = f"[{text}]<sup>+</sup>"
    return f"R(J, {html.escape(step.moves[k])}) = {text} = {number(after)}"


def _average_rule(step: InfosetStep) -> tuple[str, str]:
    """The strategy-sum update of this run (formula, the weights in words)."""
    old = "S<sup>T-1</sup>(J, m)"
    scheme = step.averaging
    if step.config.sampling == "outcome":
        return (
            f"S<sup>T</sup>(J, m) = {old} + ({PI_OWN}(h) / q(h)) π<sup>T</sup>(J)(m)",
            "outcome sampling (Lanctot et al. 2009): the traverser's own reach of the sampled history "
            "h of J over the probability q(h) that the sample reaches it (stochastically weighted "
            "averaging, as OpenSpiel's outcome sampler; 0 when the path misses J)",
        )
    if step.config.sampling == "external":
        return (
            f"S<sup>T</sup>(J, m) = {old} + n(J) π(J)(m)",
            "external sampling (Lanctot et al. 2009): the other players' traversals add the strategy "
            "played at J once for each of J's histories n(J) their sample visits",
        )
    added = f"{PI_OWN}(J) π<sup>T</sup>(J)(m)"
    first = step.iteration == 1

    def value(factor: str) -> str:
        """The discount's value this iteration (nothing to discount at T = 1)."""
        return (
            "at T = 1 there is nothing to discount (S<sup>0</sup> = 0)"
            if first
            else f"{factor} = {number(step.d_avg)}"
        )

    if scheme == "greedy":
        if step.lam is None:
            return (
                f"S<sup>T</sup>(J, m) = {old} + {added}",
                "greedy weights: the first iteration has weight 1",
            )
        return (
            f"S<sup>T</sup>(J, m) = λ {old} + c {added}",
            f"the greedy weight again: λ = {number(step.lam)}, c = {number(step.c_avg)}",
        )
    if scheme == "linear":
        return (
            f"S<sup>T</sup>(J, m) = ((T&minus;1)/T) {old} + {added}",
            f"iteration t weighs t, as the lecture's CFR+ average 2/(T²+T) Σ<sub>t</sub> t π<sup>t</sup> "
            f"(Tammelin 2014), here weighted by the own reach; {value('(T&minus;1)/T')}",
        )
    if scheme == "quadratic":
        return (
            f"S<sup>T</sup>(J, m) = ((T&minus;1)/T)<sup>2</sup> {old} + {added}",
            f"iteration t weighs t²; {value('((T&minus;1)/T)<sup>2</sup>')}",
        )
    if scheme == "discounted":
        return (
            f"S<sup>T</sup>(J, m) = ((T&minus;1)/T)<sup>γ</sup> {old} + {added}",
            "DCFR (Brown &amp; Sandholm 2019): iteration t weighs t<sup>γ</sup> (the sum is multiplied by "
            f"(t/(t+1))<sup>γ</sup> after iteration t); γ = {number(step.config.gamma)}: "
            + value("((T&minus;1)/T)<sup>γ</sup>"),
        )
    histories = len(step.histories)
    lecture = (
        f"the lecture's strategy table adds p<sub>i</sub>·π<sup>T</sup>(J)(m) for each of J's "
        f"{histories} histories (the own reach p<sub>i</sub> is the same in each), so its sums are "
        f"{histories} times these and its average the same"
        if histories > 1
        else "as the lecture's strategy table"
    )
    return (
        f"S<sup>T</sup>(J, m) = {old} + {added}",
        f"every iteration weighs 1 (Zinkevich et al. 2007); {lecture}",
    )


def _average_line(step: InfosetStep, k: int) -> str:
    parts = []
    for term in step.average_terms:
        product = f"{number(term.weight)}·{number(term.strategy[k])}"
        parts.append(product if step.c_avg == 1.0 else f"{number(step.c_avg)}·{product}")
    old = step.strategy_sum_before[k]
    head = number(old) if step.d_avg == 1.0 else f"{number(step.d_avg)}·{number(old)}"
    after = number(step.strategy_sum_after[k])
    return f"S(J, {html.escape(step.moves[k])}) = {' + '.join([head, *parts])} = {after}"


def _history(path: Sequence[str]) -> str:
    """A history as the CFR lecture writes one, its moves in order: ``[J; Q; p; b]`` (not
    ``J > Q``, which reads as "Jack beats Queen"); ``[(root)]`` for the empty history."""
    return "[" + ("; ".join(html.escape(m) for m in path) or "(root)") + "]"


def sections(step: InfosetStep) -> list[tuple[str, str]]:
    """The explanation as ``(title, body)`` pairs of HTML, the title of the first empty."""
    name, moves = html.escape(step.name), [html.escape(m) for m in step.moves]
    t = step.iteration
    config = step.config
    if step.traverser is None:
        schedule = "simultaneous updates: one traversal plays π<sup>T</sup> for everyone"
    else:
        schedule = f"alternating updates: this is {name}'s traversal"
    out = [
        (
            "",
            f"Iteration T = {t} of {_algorithm(step)}; {schedule}. Histories in J, with the probability "
            "that the others and chance reach them and the value of each move below:",
        )
    ]
    rows = []
    for row in step.histories:
        values = ", ".join(
            f"U<sub>i</sub>(π | h {m}) = {number(v)}" for m, v in zip(moves, row.values, strict=True)
        )
        start = (
            f" (with everyone's π<sup>T</sup>: {number(row.reach_at_start)})"
            if not np.isclose(row.reach, row.reach_at_start, rtol=1e-12, atol=1e-15)
            else ""
        )
        rows.append(
            f"<li>h = {_history(row.path)}: P(h | {PI_OTHERS}) = {number(row.reach)}{start}; {values}</li>"
        )
    out.append(("", f"<ul>{''.join(rows)}</ul>"))
    reach = (
        f"P(J | {PI_OTHERS}) = Σ<sub>h∈J</sub> P(h | {PI_OTHERS}) = "
        + " + ".join(number(row.reach) for row in step.histories)
        + f" = {number(step.reach)}"
    )
    if config.sampling == "chance":
        reach += (
            "<br>Chance is sampled (chance-sampling Monte-Carlo CFR, Lanctot et al. 2009): the sampled "
            "outcome counts 1 in P(h | π<sub>-i</sub>), its probability cancelling against the sampling "
            "probability, the others 0."
        )
    elif config.sampling == "external":
        reach += (
            "<br>Chance and the other players are sampled (external-sampling Monte-Carlo CFR, Lanctot "
            "et al. 2009): P(h | π<sub>-i</sub>) is 1 on the sampled path, 0 elsewhere."
        )
    elif config.sampling == "outcome":
        reach += (
            "<br>One terminal history z is sampled (outcome-sampling Monte-Carlo CFR, Lanctot et al. "
            f"2009), with exploration ε = {number(config.exploration)} at {name}'s moves "
            f"(ε/|A| + (1 &minus; ε) π): P(h | {PI_OTHERS}) is the reach of the sampled history, 0 off "
            "the path, and U<sub>i</sub>(π | h m) the importance-weighted estimate u<sub>i</sub>(z) "
            "π(h m, z) / q(z) of the sampled move (0 for the others)."
        )
    if step.updated_before:
        earlier = _players(step, step.updated_before)
        reach += (
            f"<br>Updates alternate: {earlier} updated earlier in this iteration (regrets, then regret "
            f"matching), so {name}'s traversal plays against {earlier}'s new strategy π<sup>T+1</sup>"
        )
        if config.sampling == "external":
            reach += "."
        else:
            gaps = [abs(row.reach - row.reach_at_start) for row in step.histories]
            row = step.histories[int(np.argmax(gaps))]
            if max(gaps) > 1e-12 * max(1.0, row.reach):
                reach += (
                    f": P(h | {PI_OTHERS}) = {number(row.reach)} at h = {_history(row.path)}, where the "
                    f"strategies of the iteration's start π<sup>T</sup> give {number(row.reach_at_start)}"
                )
                if not np.isclose(step.reach, step.reach_at_start, rtol=1e-12, atol=1e-15):
                    reach += f" (P(J | {PI_OTHERS}): {number(step.reach_at_start)})"
            else:
                reach += "; here π<sup>T</sup> gives the same reach"
            reach += (
                ". The lecture's pseudo-code reads profile[t] in both traversals: simultaneous updates "
                "(solver panel) follow it."
            )
    out.append(("Reach", reach))
    out.append(
        (
            "Counterfactual values",
            f"v(J, m) = Σ<sub>h∈J</sub> P(h | {PI_OTHERS}) U<sub>i</sub>(π | h m):<br>"
            + "<br>".join(
                f"v(J, {m}) = "
                + " + ".join(f"{number(row.reach)}·{_term(row.values[k])}" for row in step.histories)
                + f" = {number(v)}"
                for k, (m, v) in enumerate(zip(moves, step.cfv, strict=True))
            ),
        )
    )
    value = (
        "Σ<sub>a</sub> π<sup>T</sup>(J)(a) v(J, a) = "
        + " + ".join(f"{number(s)}·{_term(v)}" for s, v in zip(step.strategy, step.cfv, strict=True))
        + f" = {number(step.value)}"
    )
    if step.reach > 0:
        value += f"; per unit of reach U<sub>i</sub>(π | J) = {number(step.value / step.reach)}"
    out.append(("Value of J", value))
    out.append(
        (
            "Instantaneous regret",
            "r<sup>T</sup>(J, m) = v(J, m) &minus; Σ<sub>a</sub> π<sup>T</sup>(J)(a) v(J, a) = "
            f"P(J | {PI_OTHERS}) (U<sub>i</sub>(⟨π⟩<sub>m</sub> | J) &minus; U<sub>i</sub>(π | J)):<br>"
            + "<br>".join(
                f"r(J, {m}) = {number(v)} &minus; {_term(step.value)} = {number(r)}"
                for m, v, r in zip(moves, step.cfv, step.regret, strict=True)
            ),
        )
    )
    formula, weights = _regret_rule(step)
    out.append(
        (
            "Cumulative regret",
            f"{formula}<br>{weights}:<br>" + "<br>".join(_regret_line(step, k) for k in range(len(moves))),
        )
    )
    guide = step.regret_after if step.guide is None else step.guide
    positive = np.maximum(guide, 0.0)
    total = float(positive.sum())
    if total > 0:
        matched = "<br>".join(
            f"π<sup>T+1</sup>(J)({m}) = {number(p)} / {number(total)} = {number(q)}"
            for m, p, q in zip(moves, positive, step.next_strategy, strict=True)
        )
    else:
        matched = f"no positive regret: uniform, 1/{len(moves)} each"
    if step.guide is None:
        rule = (
            "π<sup>T+1</sup>(J)(m) = [R<sup>T</sup>(J, m)]<sup>+</sup> / Σ<sub>a</sub> "
            "[R<sup>T</sup>(J, a)]<sup>+</sup> (uniform when no regret is positive)"
        )
    else:  # predictive CFR: the guide G = d' R^T + m with the prediction m = r^T
        config = step.config
        scheme = SCHEMES.index(config.weighting)
        following = regret_discounts_of(scheme, step.iteration + 1, config.alpha, config.beta)[0]
        rule = (
            "π<sup>T+1</sup>(J)(m) = [G(J, m)]<sup>+</sup> / Σ<sub>a</sub> [G(J, a)]<sup>+</sup> with "
            "G = d' R<sup>T</sup> + r<sup>T</sup>: the prediction of the next regret is this one "
            "(Farina, Kroer &amp; Sandholm 2021), d' the next iteration's discount of positive "
            f"regrets (Xu et al. 2024; 1 without discounting), here d' = {number(following)}: "
            + ", ".join(f"G(J, {html.escape(m)}) = {number(g)}" for m, g in zip(moves, guide, strict=True))
        )
    out.append(
        (
            ("Predictive regret matching" if step.guide is not None else "Regret matching")
            + ("+" if config.plus else ""),
            f"{rule}:<br>{matched}",
        )
    )
    formula, weights = _average_rule(step)
    if config.sampling == "external":
        where = "; ".join(
            f"{_players(step, [term.traverser or 0])}'s traversal visits {number(term.weight)}"
            for term in step.average_terms
        )
        own = f"n(J): {where}"
    elif config.sampling == "outcome":
        (term,) = step.average_terms
        own = f"{PI_OWN}(h) / q(h) = {number(term.weight)}"
    else:
        (term,) = step.average_terms
        own = (
            f"{name}'s own reach {PI_OWN}(J) = P(J | {PI_OWN}) = {number(term.weight)}, the product of "
            f"{name}'s own move probabilities on the way to J"
        )
    lines = "<br>".join(_average_line(step, k) for k in range(len(moves)))
    total_after = float(step.strategy_sum_after.sum())
    averages = "<br>".join(
        f"π̄<sup>T</sup>(J)({m}) = {number(s)} / {number(total_after)} = {number(a)}"
        if total_after > 0
        else f"π̄<sup>T</sup>(J)({m}) = {number(a)} (J never reached yet: uniform)"
        for m, s, a in zip(moves, step.strategy_sum_after, step.average_after, strict=True)
    )
    out.append(
        (
            "Average strategy",
            f"{formula}; π̄<sup>T</sup>(J)(m) = S<sup>T</sup>(J, m) / Σ<sub>a</sub> S<sup>T</sup>(J, a)<br>"
            f"{weights}; {own}:<br>{lines}<br>{averages}",
        )
    )
    return out


def heading(label: str, name: str, player: int) -> str:
    """The explanation's heading: information set ``label`` of player ``player`` (0-based),
    the label quoted: the lecture's symbol J is Kuhn poker's Jack ("J = J") and Leduc's labels
    end in a colon ("J = Qs: of")."""
    return f"Information set J = “{html.escape(label)}” of {html.escape(name)} (i = {player + 1})"


def explanation_html(step: InfosetStep) -> str:
    """The explanation as HTML (the tree window's panel)."""
    parts = [f"<h3>{heading(step.label, step.name, step.player)}</h3>"]
    for title, body in sections(step):
        parts.append(f"<p><b>{title}</b> {body}</p>" if title else f"<p>{body}</p>")
    return "".join(parts)


def explanation_text(step: InfosetStep) -> str:
    """The explanation as plain text (the command line, the tests)."""
    lines = [plain(heading(step.label, step.name, step.player))]
    for title, body in sections(step):
        text = plain(body)
        lines.append(f"{title}: {text}" if title else text)
    return "\n".join(lines)


_SCRIPT = re.compile(r"<(sub|sup)>(.*?)</\1>")


def plain(fragment: str) -> str:
    """HTML of this module as text: ``<sup>T</sup>`` -> ``^T``, ``<sub>-i</sub>`` ->
    ``_{-i}``, list items and line breaks on lines of their own, entities decoded."""

    def script(match: re.Match[str]) -> str:
        mark = "^" if match.group(1) == "sup" else "_"
        inner = match.group(2)
        return f"{mark}{inner}" if len(html.unescape(inner)) == 1 else f"{mark}{{{inner}}}"

    text = _SCRIPT.sub(script, fragment)
    text = text.replace("<li>", "\n  ").replace("<br>", "\n")
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())
