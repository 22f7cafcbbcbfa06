"""Games as HTML, for notebooks: ``_repr_html_`` of :class:`NormalFormGame` and
:class:`ExtensiveFormGame` (Jupyter shows ``rmviz.load("rps")`` as its payoff table).

The game classes import this module when asked for HTML (it imports neither: no cycle).
A two-player game is its bimatrix (one cell ``u1, u2`` per profile); a game of more players
lists its profiles. Tables stop at :data:`SHOWN` rows and columns, with a note of the rest.
"""

from __future__ import annotations

import itertools
from html import escape
from typing import Any

from rmviz.numbers import format_number

SHOWN = 12


def _number(value: float) -> str:
    return format_number(value, ".4g")


def _caption(title: str, detail: str) -> str:
    return f"<b>{escape(title)}</b> <span style='opacity:0.7'>({escape(detail)})</span>"


def matrix_html(game: Any) -> str:
    """A payoff table: rows are player 1's actions, columns player 2's (two players), else
    one row per action profile with every player's payoff."""
    kind = "zero-sum" if game.is_zero_sum() else "general-sum"
    parts = [_caption(game.title, f"{game.n_players} players, {game.shape_label}, {kind}"), "<table>"]
    more = []
    if game.n_players == 2:
        rows, columns = game.action_names
        names = game.player_names
        header = "".join(f"<th>{escape(c)}</th>" for c in columns[:SHOWN])
        parts.append(f"<tr><th>{escape(names[0])} \\ {escape(names[1])}</th>{header}</tr>")
        for r, row in enumerate(rows[:SHOWN]):
            cells = "".join(
                f"<td>{_number(game.payoffs[0, r, c])}, {_number(game.payoffs[1, r, c])}</td>"
                for c in range(min(len(columns), SHOWN))
            )
            parts.append(f"<tr><th>{escape(row)}</th>{cells}</tr>")
        if len(rows) > SHOWN or len(columns) > SHOWN:
            more.append(f"showing {min(len(rows), SHOWN)} x {min(len(columns), SHOWN)} of {game.shape_label}")
    else:
        actions_header = "".join(f"<th>{escape(p)}</th>" for p in game.player_names)
        payoffs_header = "".join(f"<th>u({escape(p)})</th>" for p in game.player_names)
        parts.append(f"<tr>{actions_header}{payoffs_header}</tr>")
        profiles = itertools.islice(itertools.product(*(range(k) for k in game.num_actions)), SHOWN)
        for profile in profiles:
            actions = "".join(f"<td>{escape(game.action_names[i][a])}</td>" for i, a in enumerate(profile))
            payoffs = "".join(f"<td>{_number(u)}</td>" for u in game.payoff_at(profile))
            parts.append(f"<tr>{actions}{payoffs}</tr>")
        total = 1
        for k in game.num_actions:
            total *= k
        if total > SHOWN:
            more.append(f"showing {SHOWN} of {total:,} action profiles")
    parts.append("</table>")
    parts.extend(f"<i>{escape(note)}</i>" for note in more)
    return "\n".join(parts)


def tree_html(game: Any) -> str:
    """A summary: players, information sets and moves per player, nodes."""
    nodes = game.n_nodes  # from the flat arrays: no node objects built for a summary
    rows = "".join(
        f"<tr><td>{escape(name)}</td><td>{len(labels)}</td>"
        f"<td>{sum(len(game.infoset_moves[(i, label)]) for label in labels)}</td></tr>"
        for i, (name, labels) in enumerate(zip(game.player_names, game.infosets, strict=True))
    )
    return "\n".join(
        [
            _caption(game.title, f"game tree, {game.n_players} players, {nodes:,} nodes"),
            "<table><tr><th>player</th><th>information sets</th><th>moves</th></tr>",
            rows,
            "</table>",
        ]
    )
