"""The panels of a run, each defined once for the live plots (pyqtgraph, :mod:`rmviz.ui`) and
the exported figures (matplotlib, :mod:`rmviz.figures`): which trace columns a panel draws,
with which label, colour, dash and width, its title and axes, the scale and range of each axis
and where its ticks go. A renderer turns a :class:`Panel` into artists and asks
:func:`points`, :func:`reference_points`, :func:`y_range` and :func:`x_range` for what to draw;
tests/present/test_parity.py draws every panel both ways and compares them.

The rules, for both renderers: a log axis spans whole decades, at least :data:`MIN_DECADES`
of them, so two decade labels always show (projectors at 1280x720 showed one); a probability
axis labels 0, 0.5 and 1 (:data:`PROBABILITY_TICKS`); the welfare axis is symmetric about
zero and ignores rounding noise; the iteration axis ends at the data (live: rounded up to a
tenth of a decade, :func:`x_range`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from rmviz.present.definitions import (
    ACTION_COLOURS,
    PANEL_TEXT,
    REFERENCE,
    TEXT_COLOUR,
    WELFARE_COLOUR,
    Curve,
    action_colour,
    gap_curves,
    player_colour,
    shown_names,
)
from rmviz.solvers.columns import MAX_TRACED_SLOTS, Column
from rmviz.solvers.scale import VALUE_NOISE

if TYPE_CHECKING:
    from rmviz.games.normal_form import NormalFormGame
    from rmviz.solvers.family import Family
    from rmviz.solvers.tree.compiled_tree import CompiledTree

MAX_PLAYERS, MAX_ACTIONS = 3, 10  # players and actions drawn per panel
PLAYED_STEPS = 100  # of more actions, those shown: ranked in hundredths of the top probability
PLAYER_DASHES = ("solid", "dashed", "dotted")  # the regret panel's line style of each player
CURRENT = 0.18  # opacity of the current strategies (faint: they jump every iteration)
LAST_ALPHA, LAST_WIDTH = 0.4, 0.75  # the last iterate's distances: lighter and thinner
LAST_LABEL = "last iterate"  # its curves are the averages' colours and dashes (LAST_KEY)
MIN_DECADES = 2
PROBABILITY_TICKS = (0.0, 0.5, 1.0)
ZERO_MARK = "▼"  # where a curve of a log axis drops to exactly 0 (drops), at the axis's foot
ZERO_NOTE = f" ({ZERO_MARK}: drops to 0)"  # the title's note while a panel shows one
PROBABILITY_RANGE = (-0.1, 1.1)  # room for the labels at the ends (pyqtgraph drops those it would cut)
X_STEP = 0.1  # the iteration axis's end, in decades
LEVEL_WIDTH = 0.75  # a reference level's width, relative to a curve's
NO_GAPS = "every distance is 0\nat every iteration recorded\n(an equilibrium from the start)"
NOT_TRACED = (  # a bigger tree traces the sets nearest the root (CompiledTree.traced_infoset)
    f"not traced: on a tree of over {MAX_TRACED_SLOTS:,} moves,\n"
    "runs trace the information sets nearest the root"
)


@dataclass(frozen=True)
class Axis:
    """An axis's title (plain and mathtext) and scale: ``"log"``, ``"probability"`` (0 to 1),
    ``"symmetric"`` (about zero) or ``"linear"``."""

    label: str
    tex: str
    scale: str = "linear"


@dataclass(frozen=True)
class Line:
    """One curve: the trace column it draws, its label (plain and mathtext; ``legend`` False:
    not named), colour, dash (``"solid"``, ``"dashed"``, ``"dotted"``), width relative to the
    renderer's line width, opacity, the run it is drawn from (``source``: None, the run;
    compare panels: the algorithm's name), and what it is (``meaning``: the live legend's
    tooltip, :attr:`~rmviz.present.definitions.Curve.meaning`)."""

    column: Column
    label: str
    tex: str
    colour: str
    dash: str = "solid"
    width: float = 1.0
    alpha: float = 1.0
    legend: bool = True
    source: str | None = None
    meaning: str = ""


@dataclass(frozen=True)
class Level:
    """A horizontal reference line at ``y`` (an exact solution's number: the tree's
    sequence-form LP equilibrium at an information set), in ``colour`` and ``dash``, at
    :data:`LEVEL_WIDTH`; the panel's title names what its levels are."""

    y: float
    colour: str
    dash: str = "dashed"


@dataclass(frozen=True)
class Key:
    """A legend entry that names a kind of line rather than one line (plain and mathtext
    label, colour, width relative to the renderer's line width, opacity, what it keys as
    the live legend's tooltip): the last iterates, each drawn lighter in its own average's
    colour, keyed once in grey."""

    label: str
    tex: str
    colour: str
    width: float = 1.0
    alpha: float = 1.0
    meaning: str = ""


# no longer a label: the dashboard's legend at 1024x768 has no room for one. "faint:" says
# that the lighter curves in each average's own colour are these (a grey key alone read as
# no curve drawn, and the teal last iterates as the CE gap); the compare tab's key too
LAST_KEY = Key(
    f"faint: {LAST_LABEL}",
    f"faint: {LAST_LABEL}",
    TEXT_COLOUR,
    LAST_WIDTH,
    LAST_ALPHA,
    "each distance of the current (last) profile rather than the average, in that distance's colour",
)


class Table(Protocol):
    """A run's kept iterations and its columns' values (a trace's table)."""

    @property
    def iterations(self) -> np.ndarray: ...

    @property
    def columns(self) -> Mapping[Column, np.ndarray]: ...


Tables = Mapping[str | None, Table]  # the run (key None) or, for compare panels, each algorithm's


@dataclass(frozen=True)
class Panel:
    """One plot. ``key``: where the lines' names go: ``"below"`` (a legend under the panel),
    ``"names"`` (short names of actions: live in the title, in their colours, as the plots
    are short at 1280x720; on paper a legend under the panel), ``"players"`` (each player's
    dash, then each action's colour: :func:`regret_key`, :func:`action_key`; live the
    players in the title, the strategy panels naming the colours) or ``"ends"`` (at the
    curves' ends on paper, a corner legend live). ``reference``: a 1/sqrt(T) line anchored at the
    first point of the exploitability; ``zero_line``: a line at y = 0; ``levels``: horizontal
    reference lines (:class:`Level`); ``empty``: what the panel says when it has nothing to
    draw; ``keys``: legend entries of kinds of lines (:class:`Key`), after the lines'."""

    name: str
    title: str
    y: Axis
    lines: tuple[Line, ...]
    x: Axis = Axis(PANEL_TEXT["gaps"].x, PANEL_TEXT["gaps"].x_tex, "log")
    title_colour: str | None = None
    key: str = "below"
    reference: Curve | None = None
    zero_line: bool = False
    levels: tuple[Level, ...] = ()
    empty: str = ""
    keys: tuple[Key, ...] = ()

    def columns(self) -> tuple[Column, ...]:
        """The trace columns the panel reads."""
        anchor = (Column("exploitability"),) if self.reference is not None else ()
        return tuple(dict.fromkeys((*(line.column for line in self.lines), *anchor)))


# -- the panels --------------------------------------------------------------------------------
def most_played(average: np.ndarray, count: int) -> tuple[int, ...]:
    """The ``count`` actions most played by ``average`` (a player's average strategy at the
    last kept iteration, :func:`last_averages`), most played first: ranked by whole
    :data:`PLAYED_STEPS`-ths of the most played one's probability
    (``floor(PLAYED_STEPS * p / max p)``), ties to the lower index, so actions played alike
    keep their order and a live view does not reorder them every frame."""
    p = np.asarray(average, dtype=np.float64)
    top = float(p.max(initial=0.0))
    steps = np.floor(p / top * PLAYED_STEPS) if top > 0 else np.zeros(p.size)
    ranked = np.lexsort((np.arange(p.size), -steps))  # the last key sorts first
    return tuple(ranked[:count].tolist())


def shown_actions(actions: int, average: np.ndarray | None = None) -> tuple[int, ...]:
    """The actions a panel draws of a player's ``actions``: all up to :data:`MAX_ACTIONS`; of
    more, the :data:`MAX_ACTIONS` most played by ``average`` (:func:`most_played`), or with
    no ``average`` (no point yet) the first :data:`MAX_ACTIONS`."""
    if actions <= MAX_ACTIONS or average is None:
        return tuple(range(min(actions, MAX_ACTIONS)))
    return most_played(average, MAX_ACTIONS)


def shown_colours(shown: Sequence[int]) -> dict[int, str]:
    """The colour of each action ``shown``: the k-th in index order takes the k-th action
    colour, so an action keeps its colour while the actions shown stay the same, and each of
    a game of up to :data:`MAX_ACTIONS` actions has its own."""
    return {a: action_colour(k) for k, a in enumerate(sorted(shown))}


def last_values(columns: Mapping[Column, np.ndarray] | None, keys: Sequence[Column]) -> np.ndarray | None:
    """The values of ``keys`` at the last point of a trace's ``columns``; None where a key
    has no column or no point."""
    values = [None if columns is None else columns.get(key) for key in keys]
    if not values or any(v is None or not len(v) for v in values):
        return None
    return np.array([float(np.asarray(v)[-1]) for v in values])


def last_averages(
    columns: Mapping[Column, np.ndarray] | None, actions: Sequence[int]
) -> list[np.ndarray | None]:
    """Each player's average strategy (of ``actions[i]`` actions) at the last point of a
    trace's ``columns`` (:func:`last_values`)."""
    return [last_values(columns, average_columns(player, n)) for player, n in enumerate(actions)]


@functools.lru_cache(maxsize=64)
def average_columns(player: int, actions: int) -> tuple[Column, ...]:
    """A matrix player's average-strategy columns, made once (a live view of a big game asks
    for 200 of them at every redraw: 2.5 ms made afresh)."""
    return tuple(Column("average", player, action=a) for a in range(actions))


def infoset_columns(tree: CompiledTree, infoset: int) -> list[Column]:
    """The average-strategy columns of the moves of ``infoset`` of ``tree``, in order."""
    player, moves = int(tree.infoset_player[infoset]), int(tree.infoset_size[infoset])
    return [Column("average", player=player, infoset=infoset, action=k) for k in range(moves)]


def chosen_from(actions: Sequence[int]) -> list[Column]:
    """The columns :func:`shown_actions` chooses a matrix game's actions from: every average
    strategy of each of the first :data:`MAX_PLAYERS` players (of ``actions[i]`` actions)
    with more than :data:`MAX_ACTIONS`; what a view asks of the trace beside its panels'."""
    return [c for i, n in enumerate(actions[:MAX_PLAYERS]) if n > MAX_ACTIONS for c in average_columns(i, n)]


def moves_chosen_from(tree: CompiledTree, infoset: int) -> list[Column]:
    """The columns :func:`shown_actions` chooses the moves of ``infoset`` from: all of them
    for a set of more than :data:`MAX_ACTIONS` moves, else none."""
    return infoset_columns(tree, infoset) if tree.infoset_size[infoset] > MAX_ACTIONS else []


def first_of(actions: int, played: bool = False, noun: str = "actions") -> str:
    """What a panel of a player's actions (or a set's moves: ``noun``) leaves out:
    ``" (first 10 of 30 actions)"``, or with ``played`` (chosen from a run by
    :func:`shown_actions`) ``" (10 most played of 30)"``."""
    if actions <= MAX_ACTIONS:
        return ""
    return (
        f" ({MAX_ACTIONS} most played of {actions:,})"
        if played
        else f" (first {MAX_ACTIONS} of {actions:,} {noun})"
    )


def players_note(players: int) -> str:
    """What panels of players leave out: ``" (first 3 of 4 players)"``."""
    return f" (first {MAX_PLAYERS} of {players} players)" if players > MAX_PLAYERS else ""


def strategy_panel(
    player: int, name: str, actions: Sequence[str], average: np.ndarray | None = None
) -> Panel:
    """Average (solid) and current (faint) strategy of each of ``player``'s actions shown
    (:func:`shown_actions`: the most played by ``average`` where there are too many, most
    played first), each in its colour (:func:`shown_colours`)."""
    text = PANEL_TEXT["strategies"]
    lines = []
    shown = shown_actions(len(actions), average)
    colours = shown_colours(shown)
    for a in shown:  # most played first: the live title names the first few
        action, colour = actions[a], colours[a]
        lines.append(
            Line(
                Column("current", player=player, action=a),
                action,
                action,
                colour,
                width=0.5,
                alpha=CURRENT,
                legend=False,
            )
        )
        lines.append(Line(Column("average", player=player, action=a), action, action, colour))
    return Panel(
        "strategies",
        text.title.format(player=name) + first_of(len(actions), average is not None),
        Axis(text.y, text.y_tex, "probability"),
        tuple(lines),
        key="names",
    )


def gap_panel(family: Family, zero_sum: bool, last: bool = True) -> Panel:
    """The family's distances to equilibrium on log-log axes, with the 1/sqrt(T) reference;
    with ``last``, those of the current profile too (the ``last_*`` columns the family
    publishes: :func:`last_lines`)."""
    text = PANEL_TEXT["gaps"]
    lines = tuple(
        Line(
            Column(metric),
            curve.label,
            curve.tex,
            curve.colour,
            curve.dash,
            curve.width,
            meaning=curve.meaning,
        )
        for metric, curve in gap_curves(family, zero_sum).items()
    )
    drawn_last = last_lines(family) if last else ()
    lines = drawn_last + lines  # drawn first, under the averages' (a last iterate may cycle over them)
    keys = (LAST_KEY,) if drawn_last else ()
    axis = Axis(text.y, text.y_tex, "log")
    return Panel("gaps", text.title, axis, lines, reference=REFERENCE, empty=NO_GAPS, keys=keys)


def last_lines(
    family: Family, metrics: Iterable[str] | None = None, source: str | None = None
) -> tuple[Line, ...]:
    """The last iterate's curve of each gap curve (of ``metrics``, default all) that has one
    (``last_<metric>`` among the family's metrics): the average's colour and dash, lighter
    (:data:`LAST_ALPHA`) and thinner, not keyed one by one: the panel keys them once
    (:data:`LAST_KEY`, in grey: keyed in the first one's colour, it named that one only)."""
    curves = gap_curves(family, False)
    wanted = [m for m in (curves if metrics is None else metrics) if f"last_{m}" in family.metrics]
    return tuple(
        Line(
            Column(f"last_{metric}"),
            f"{curves[metric].label}, {LAST_LABEL}",
            f"{curves[metric].tex}, {LAST_LABEL}",
            curves[metric].colour,
            curves[metric].dash,
            curves[metric].width * LAST_WIDTH,
            LAST_ALPHA,
            legend=False,
            source=source,
        )
        for metric in wanted
    )


def tracks_last(table: Table | None) -> bool:
    """Whether ``table`` holds a value of the last iterate (a tree run tracks it on request)."""
    if table is None:
        return False
    return any(
        column.quantity.startswith("last_") and bool(np.isfinite(np.asarray(values, dtype=np.float64)).any())
        for column, values in table.columns.items()
    )


def regret_panel(
    players: Sequence[str],
    actions: Sequence[Sequence[str]],
    averages: Sequence[np.ndarray | None] | None = None,
) -> Panel:
    """Average regret R_i^T(a)/T of the actions shown of the first :data:`MAX_PLAYERS`
    players (those of the strategy panels: :func:`shown_actions` by each player's
    ``averages``, in index order) on one axis: colour the action (as in the strategy panels:
    :func:`shown_colours`), dash the player."""
    text = PANEL_TEXT["regrets"]
    drawn = range(min(len(players), MAX_PLAYERS))
    average = [None if averages is None else averages[i] for i in drawn]
    lines = tuple(
        Line(
            Column("regret", player=i, action=a),
            f"{players[i]}: {actions[i][a]}",
            f"{players[i]}: {actions[i][a]}",
            colour,
            PLAYER_DASHES[i],
            width=0.75,
        )
        for i in drawn
        for a, colour in shown_colours(shown_actions(len(actions[i]), average[i])).items()
    )
    widest = max(drawn, key=lambda i: len(actions[i]), default=None)
    left_out = "" if widest is None else first_of(len(actions[widest]), average[widest] is not None)
    title = text.title + players_note(len(players)) + left_out
    return Panel("regrets", title, Axis(text.y, text.y_tex), lines, key="players", zero_line=True)


# a zero-sum game's welfare title, no longer than the usual one (live panels are narrow): a
# flat line at 0 is no fault
ZERO_SUM_WELFARE = "social welfare: 0 in a zero-sum game"


def welfare_panel(zero_sum: bool) -> Panel:
    """Social welfare of the empirical play, on an axis symmetric about zero; in a
    ``zero_sum`` game (payoffs summing to zero at every profile) it is 0 at every
    distribution, and the title says so."""
    text = PANEL_TEXT["welfare"]
    line = Line(Column("welfare"), "welfare", "welfare", WELFARE_COLOUR, legend=False)
    title = ZERO_SUM_WELFARE if zero_sum else text.title
    return Panel("welfare", title, Axis(text.y, text.y_tex, "symmetric"), (line,), zero_line=True)


def matrix_panels(
    family: Family,
    game: NormalFormGame,
    names: Iterable[str],
    zero_sum: bool,
    last: bool = True,
    table: Table | None = None,
) -> dict[str, list[Panel]]:
    """The convergence panels ``names`` of a matrix game of ``family`` (``strategies``: one
    per player up to :data:`MAX_PLAYERS`; the others one each; ``last``: the gaps of the
    last iterate too); of a player with too many actions, those most played at the last
    iteration of ``table`` (the run's trace: :func:`shown_actions`)."""
    players, actions = game.player_names, tuple(map(shown_names, game.action_names))
    averages = last_averages(None if table is None else table.columns, [len(a) for a in actions])
    build = {
        "strategies": lambda: [
            strategy_panel(i, players[i], actions[i], averages[i])
            for i in range(min(len(players), MAX_PLAYERS))
        ],
        "gaps": lambda: [gap_panel(family, zero_sum, last)],
        "regrets": lambda: [regret_panel(players, actions, averages)],
        "welfare": lambda: [welfare_panel(game.is_zero_sum())],
    }
    return {name: build[name]() for name in names}


REFERENCE_NOTE = " (dashed: nearest equilibrium)"  # the title of an information set's panel with levels


def infoset_panel(
    tree: CompiledTree,
    infoset: int,
    players: Sequence[str],
    reference: np.ndarray | None = None,
    average: np.ndarray | None = None,
) -> Panel:
    """The average strategy of each move at one information set of ``tree`` over the
    iterations (its player's name from ``players``); of more than :data:`MAX_ACTIONS` moves,
    those most played by ``average`` (the set's average strategy at the run's last point:
    :func:`shown_actions`, as for a player's actions; a node of 1,000 moves drew 1,000 curves
    and keys: 30 s). ``reference``: an exact equilibrium's strategy per slot (that nearest the
    run's average, by the sequence-form LP of a zero-sum tree), drawn as a dashed level per
    move in the move's colour."""
    text = PANEL_TEXT["infoset"]
    player = int(tree.infoset_player[infoset])
    first = int(tree.infoset_first_slot[infoset])
    moves = int(tree.infoset_size[infoset])
    shown = shown_actions(moves, average)
    colours = move_colours(tree, infoset, shown)
    columns = infoset_columns(tree, infoset)
    lines = tuple(
        Line(columns[k], tree.slot_move[first + k], tree.slot_move[first + k], colours[k]) for k in shown
    )
    left_out = first_of(moves, average is not None, "moves")
    levels: tuple[Level, ...] = ()
    if reference is not None:
        levels = tuple(Level(float(reference[first + k]), colours[k]) for k in shown)
        left_out += REFERENCE_NOTE
    return Panel(
        "infoset",
        f"{players[player]}: {text.title.format(infoset=tree.infoset_label[infoset])}{left_out}",
        Axis(text.y, text.y_tex, "probability"),
        lines,
        title_colour=player_colour(player),
        key="ends",
        levels=levels,
        empty="" if tree.traced_infoset[infoset] else NOT_TRACED,
    )


def move_colours(tree: CompiledTree, infoset: int, shown: Sequence[int]) -> dict[int, str]:
    """The colour of each move ``shown`` of ``infoset``: its label's
    (``CompiledTree.move_number``), so a move keeps one colour across the tree's information
    sets, where that gives the moves shown distinct colours; else as a player's actions are
    coloured (:func:`shown_colours`)."""
    first = int(tree.infoset_first_slot[infoset])
    numbers = {k: int(tree.move_number[first + k]) % len(ACTION_COLOURS) for k in shown}
    if len(set(numbers.values())) < len(numbers):
        return shown_colours(shown)
    return {k: action_colour(n) for k, n in numbers.items()}


def compare_panels(
    metrics: Mapping[str, str], algorithms: Sequence[str], last: Collection[str] = ()
) -> list[Panel]:
    """One panel per compared metric (``metrics``: column name -> title), one line per
    algorithm in its colour, on log-log axes the renderer shares between the panels; for the
    metrics in ``last`` (:func:`compared_last`) each algorithm's last iterate too, in its
    colour, lighter and thinner, keyed once (:data:`LAST_KEY`)."""
    text = PANEL_TEXT["compare"]
    return [
        Panel(
            "compare",
            text.title.format(metric=title),
            Axis(text.y, text.y_tex, "log"),
            tuple(
                Line(Column(metric), name, name, action_colour(k), source=name)
                for k, name in enumerate(algorithms)
            )
            + tuple(
                Line(
                    Column(f"last_{metric}"),
                    f"{name}, {LAST_LABEL}",
                    f"{name}, {LAST_LABEL}",
                    action_colour(k),
                    width=LAST_WIDTH,
                    alpha=LAST_ALPHA,
                    legend=False,
                    source=name,
                )
                for k, name in enumerate(algorithms)
                if metric in last
            ),
            keys=(LAST_KEY,) if metric in last else (),
        )
        for metric, title in metrics.items()
    ]


UNTRACKED = "not tracked:"  # the note's head; the algorithms follow, one per line


def untracked(panel: Panel, tables: Tables) -> tuple[str, ...]:
    """The compared runs (lines' sources) that have run an iteration but hold no value of
    their line's metric: the algorithm does not track it (Monte-Carlo CFR's correlation gaps,
    a matrix game's CE gap above the tracking limit). Renderers say so in the panel
    (:func:`untracked_note`) rather than leave a curve missing. Last-iterate lines are not
    asked: their key says what they are."""
    names: list[str] = []
    for line in panel.lines:
        source = line.source
        table = tables.get(source) if source is not None else None
        if source is None or table is None or line.column.quantity.startswith("last_"):
            continue
        if not table.iterations.size or table.iterations[-1] < 1:  # nothing run yet
            continue
        column = table.columns.get(line.column)
        if column is None or not np.isfinite(np.asarray(column, dtype=np.float64)).any():
            names.append(source)
    return tuple(dict.fromkeys(names))


def untracked_note(panel: Panel, tables: Tables) -> str:
    """``"not tracked:\nNAME\n..."``, or ``""`` when every run tracks the panel's metric (a
    figure's panel says so in its corner)."""
    names = untracked(panel, tables)
    return "\n".join((UNTRACKED, *names)) if names else ""


def untracked_lines(panels: Sequence[Panel], tables: Tables) -> list[str]:
    """``"NAME, NAME: not tracked: A, B"`` for the runs that leave the same metrics of
    ``panels`` untracked (A, B: the panels' titles): what the live compare view says under its
    list, its plots being too narrow at 1280x720 for :func:`untracked_note`."""
    titles: dict[str, list[str]] = {}
    for panel in panels:
        for name in untracked(panel, tables):
            titles.setdefault(name, []).append(panel.title)
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, found in titles.items():
        groups.setdefault(tuple(found), []).append(name)
    return [f"{', '.join(names)}: {UNTRACKED} {', '.join(found)}" for found, names in groups.items()]


def compared_last(family: Family, tracked: bool = True) -> tuple[str, ...]:
    """The compared metrics of ``family`` whose last iterate it publishes (``last_<metric>``);
    none unless ``tracked`` (a run of the comparison tracks the last iterate)."""
    if not tracked:
        return ()
    return tuple(metric for metric in family.compared if f"last_{metric}" in family.metrics)


def regret_key(panel: Panel) -> list[tuple[str, str]]:
    """The players and their dashes of a regret panel, in order (the live title's key)."""
    seen: dict[str, str] = {}
    for line in panel.lines:
        seen.setdefault(line.label.split(": ", 1)[0], line.dash)
    return list(seen.items())


def action_key(panel: Panel) -> list[tuple[str, str]]:
    """The actions and their colours of a regret panel, in order: the k-th action shown of every
    player is drawn in one colour, named by each player's name for it (`` / `` between
    names that differ). Live, the strategy panels above it say which colour is which."""
    names: dict[str, dict[str, None]] = {}
    for line in panel.lines:
        names.setdefault(line.colour, {})[line.label.split(": ", 1)[1]] = None
    return [(" / ".join(named), colour) for colour, named in names.items()]


# -- what to draw ------------------------------------------------------------------------------
def points(
    panel: Panel, line: Line, tables: Tables, scale: float = 1.0
) -> tuple[np.ndarray, np.ndarray] | None:
    """The points of ``line`` (None: its run or column is not there): on a log axis the
    positive finite values only; on the welfare axis values within rounding noise of zero
    (:data:`~rmviz.solvers.scale.VALUE_NOISE` x ``scale``, the payoff scale: the solvers'
    rule for reported values) as 0."""
    table = tables.get(line.source)
    values = None if table is None else table.columns.get(line.column)
    if table is None or values is None:
        return None
    x = np.asarray(table.iterations, dtype=np.float64)
    y = np.asarray(values, dtype=np.float64)
    if panel.y.scale == "log":
        keep = np.isfinite(y) & (y > 0)
        return x[keep], y[keep]
    if panel.y.scale == "symmetric":
        return x, np.where(np.abs(y) <= VALUE_NOISE * scale, 0.0, y)
    return x, y


def drops(panel: Panel, line: Line, tables: Tables) -> np.ndarray:
    """On a log axis, the iterations at which ``line`` drops to exactly 0 (the first of each
    run of zeros), which the axis cannot show: renderers mark each with :data:`ZERO_MARK`
    at the axis's foot in the line's colour and add :data:`ZERO_NOTE` to the title (RM+ on
    Shapley's game: the CCE gap is 0 from T = 26 on, and its curve ended there with no
    word). Empty elsewhere."""
    table = tables.get(line.source)
    values = None if table is None else table.columns.get(line.column)
    if panel.y.scale != "log" or table is None or values is None:
        return np.empty(0)
    x = np.asarray(table.iterations, dtype=np.float64)
    shown = x >= 1  # iteration 0 (a run not started) is not on the log axis
    x, zero = x[shown], np.asarray(values, dtype=np.float64)[shown] == 0.0
    return x[zero & ~np.concatenate(([False], zero[:-1]))]


def reference_points(panel: Panel, tables: Tables) -> tuple[np.ndarray, np.ndarray] | None:
    """The 1/sqrt(T) reference through the exploitability's first point; None without one."""
    table = tables.get(None)
    first = None if table is None else table.columns.get(Column("exploitability"))
    if panel.reference is None or table is None or first is None or not first.size:
        return None
    if not (np.isfinite(first[0]) and first[0] > 0):
        return None
    x = np.asarray(table.iterations, dtype=np.float64)
    return x, first[0] * np.sqrt(max(x[0], 1.0) / x)


def values(panels: Iterable[Panel], tables: Tables) -> list[np.ndarray]:
    """Every value the lines of ``panels`` draw (what a y axis shared by them spans)."""
    found = []
    for panel in panels:
        for line in panel.lines:
            table = tables.get(line.source)
            if table is not None and line.column in table.columns:
                found.append(np.asarray(table.columns[line.column], dtype=np.float64))
    return found


def decades(arrays: Iterable[np.ndarray]) -> tuple[int, int] | None:
    """The whole decades (log10 exponents ``low, high``) around the positive finite values,
    :data:`MIN_DECADES` at least (extended downward); None when no value is positive."""
    parts = [np.asarray(v, dtype=np.float64).ravel() for v in arrays]
    every = np.concatenate(parts) if parts else np.empty(0)
    every = every[np.isfinite(every) & (every > 0)]
    if not every.size:
        return None
    high = math.ceil(math.log10(float(every.max())) - 1e-9)
    low = math.floor(math.log10(float(every.min())) + 1e-9)
    return min(low, high - MIN_DECADES), high


def welfare_limit(welfare: np.ndarray, scale: float) -> float:
    """Half the height of the symmetric welfare axis: the largest |welfare|, where values
    within rounding noise of zero count as zero, with a margin; a tenth of the payoff scale
    when all of it is noise (zero-sum games)."""
    kept = np.abs(welfare[np.isfinite(welfare)])
    kept = kept[kept > VALUE_NOISE * scale]
    return 1.1 * float(kept.max()) if kept.size else 0.1 * scale


def y_range(panel: Panel, arrays: Sequence[np.ndarray], scale: float = 1.0) -> tuple[float, float] | None:
    """The y axis's range in data units for the values ``arrays`` (:func:`values`; a log axis:
    powers of ten); None: the renderer's automatic range (linear axes)."""
    if panel.y.scale == "probability":
        return PROBABILITY_RANGE
    if panel.y.scale == "symmetric":
        limit = welfare_limit(np.concatenate(arrays) if arrays else np.empty(0), scale)
        return -limit, limit
    if panel.y.scale == "log":
        low, high = decades(arrays) or (-MIN_DECADES - 1, 0)
        return 10.0**low, 10.0**high
    return None


def x_range(tables: Tables, step: float = 0.0) -> tuple[float, float]:
    """The iteration axis (log): from the first iteration drawn to the last (over every run
    of ``tables``), one decade at least. Figures end at the data; live plots pass
    ``step=``:data:`X_STEP` to round the end up to a multiple of ``step * 2**k``, the largest
    such grid no coarser than a tenth of the axis's span (``k >= 0``): the axis is laid out
    again at most ten times a decade, and 10-20 times over its span, not at every frame
    (each time, every curve of the row is stroked afresh). The grids are nested, so the end
    never moves back as the span grows."""
    kept = [t.iterations for t in tables.values() if t.iterations.size]
    first = max(1.0, min((float(i[0]) for i in kept), default=1.0))
    last = max((float(i[-1]) for i in kept), default=1.0)
    end = max(math.log10(max(last, 1.0)), math.log10(first) + 1.0)
    if step:
        span = end - math.log10(first)
        step *= 2.0 ** max(0, math.floor(math.log2(span / (10 * step))))
        end = math.ceil(end / step - 1e-9) * step
    return first, 10.0**end
