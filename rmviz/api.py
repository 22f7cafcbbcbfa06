"""The notebook API: load a game, solve it, read the run as a table, draw it.

::

    import rmviz

    game = rmviz.load("rps")                  # a catalog id, a file, random:..., openspiel:...
    result = rmviz.solve(game, "rm+", iterations=1000)
    result                                    # a summary (HTML in Jupyter)
    result.trace                              # tidy pandas DataFrame: one row per value
    result.metrics                            # wide: one row per iteration, a column per metric
    result.strategies                         # long: iteration, player, infoset, action, average, current
    result.plot("gaps")                       # a Figure (any of the registry), shown inline
    result.plot("gaps", ax=ax)                # ... or drawn on your Axes
    rmviz.compare(game, ["rm", "rm+"], 1000)  # several algorithms: one tidy frame, .plot()
    result.step(9000)                         # run on; the trace continues

``rmviz.solve`` takes the options of ``rmviz solve`` as keywords (``play="sampled"``,
``updates="alternating"``, ``seed=3``, ``alpha=...``, ``fixed_strategies={1: [0.4, 0.3, 0.3]}``).
The run is recorded on the app's geometric grid of iterations (``points_per_decade``), or
every ``every`` iterations, so ``result.plot`` draws the figure the app shows. Progress bars
(tqdm, when installed) appear when a run takes more than a second, or always with
``progress=True``. pandas is needed for the tables only (``pip install 'rmviz[notebook]'``).
``rmviz.set_threads(n)`` sets how many threads the BLAS pools may use (default
``$RMVIZ_THREADS``, else 1: :mod:`rmviz.solvers.threads`). ``rmviz.BatchSolver`` solves B
two-player games of one shape at once (a ``(B, 2, rows, columns)`` array; one thread block per
game on a GPU: :mod:`rmviz.solvers.matrix.batch`), ``rmviz.TreeBatchSolver`` B games of one
game tree that differ in their payoffs (:mod:`rmviz.solvers.tree.batch`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from rmviz.errors import ConfigError, RmvizError
from rmviz.formats import Game, load_game
from rmviz.formats.objects import game_of, matrix_game
from rmviz.numbers import format_number
from rmviz.present.dynamics import check_drawn_step
from rmviz.runner.record import write_run_data
from rmviz.runner.trace import Trace
from rmviz.solvers.matrix.batch import BatchSolver as BatchSolver
from rmviz.solvers.protocol import Snapshot, Solver
from rmviz.solvers.registry import compared_options, family_of, make_solver
from rmviz.solvers.threads import set_threads as set_threads
from rmviz.solvers.tree.batch import TreeBatchSolver as TreeBatchSolver

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import FigureBase

    from rmviz.figures.run import RunData

Size = tuple[float, float] | None  # a new figure's, in inches
SHOWN_ACTIONS = 12  # the HTML summary lists at most this many actions (or information sets)


def load(spec: str | os.PathLike[str] | Game | Any) -> Game:
    """The game named by ``spec``: a catalog id (``"rps"``, ``"kuhn"``), a file (.json, .nfg,
    .efg), ``"random:zero-sum:10x10:seed=3"``, ``"openspiel:leduc_poker"`` or
    ``"reduced:kuhn"``; a game object is returned as it is; a NumPy array is a zero-sum game's
    row-player matrix (:func:`game`); a pyspiel or pygambit game is converted
    (:mod:`rmviz.formats.objects`).

    >>> game = rmviz.load("rps")
    >>> game.title, game.action_names[0]
    ('Rock-Paper-Scissors', ('Rock', 'Paper', 'Scissors'))
    >>> rmviz.load("kuhn").title
    'Kuhn poker'
    >>> rmviz.load("random:zero-sum:4x6:seed=3").payoffs.shape
    (2, 4, 6)
    """
    if isinstance(spec, (str, os.PathLike)):
        return load_game(os.fspath(spec))
    loaded = game_of(spec)
    family_of(loaded)  # refuses what no solver takes
    return loaded


def game(
    A: Any,
    B: Any = None,
    *more: Any,
    names: Sequence[str] | None = None,
    actions: Sequence[Sequence[str]] | None = None,
    title: str | None = None,
) -> Game:
    """A matrix game from payoff arrays (NumPy arrays or nested lists), as nashpy's
    ``Game(A, B)``: ``game(A)`` is zero-sum (the column player gets ``-A``), ``game(A, B)``
    a bimatrix game, ``game(A, B, C, ...)`` an n-player game (each array with one axis per
    player, all of one shape). ``names``: the players'; ``actions``: per player, its
    actions' names. Checked as every game is (shapes, finite payoffs within bounds).

    >>> matching = rmviz.game(np.array([[1, -1], [-1, 1]]), names=["Even", "Odd"])
    >>> matching.payoffs[1].tolist()
    [[-1.0, 1.0], [1.0, -1.0]]
    >>> prisoners = rmviz.game([[3, 0], [5, 1]], [[3, 5], [0, 1]], actions=[["C", "D"], ["C", "D"]])
    >>> rmviz.solve(prisoners, "rm", 100).strategy().round(3).values.tolist()
    [['Player 1', 'C', 0.005], ['Player 1', 'D', 0.995], ['Player 2', 'C', 0.005], ['Player 2', 'D', 0.995]]
    """
    arrays = [A] if B is None else [A, B, *more]
    if B is None and more:
        raise RmvizError("rmviz.game(A, None, C): give every player's payoffs, or A alone for zero-sum")
    return matrix_game(arrays, names, actions, title)


def _check_iterations(iterations: Any) -> None:
    """Refuse what is not a whole number of iterations, at least 0 (``step(-5)`` did nothing)."""
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0:
        raise RmvizError(f"iterations must be a whole number, at least 0 (got {iterations!r})")


def solve(
    game: str | os.PathLike[str] | Game | Any,
    algorithm: str | None = None,
    iterations: int = 1000,
    *,
    progress: bool | None = None,
    points_per_decade: int = 200,
    every: int | None = None,
    **options: Any,
) -> Result:
    """Run ``algorithm`` (default: the game family's first, ``rm`` or ``cfr``) on ``game`` (a
    game, or what :func:`load` takes: a spec, an array, a pyspiel or pygambit game) for
    ``iterations`` and return the :class:`Result`.

    ``options`` are a solver's choices and parameters (those of ``rmviz solve``: ``play``,
    ``updates``, ``seed``, ``device``, ``alpha``, ``beta``, ``gamma``, ``greedy_floor``,
    ``inertia``, ``step_size``, ``fixed_strategies``; ``last_iterate``: the
    current profile's distances too, on by default for matrix games, off for trees).
    ``progress``: ``True`` always shows a bar, ``False`` never, ``None`` when the run takes
    more than a second.

    >>> result = rmviz.solve("rps", "rm+", iterations=1000)
    >>> result
    <rmviz Result: rm+ on 'Rock-Paper-Scissors', T = 1,000, exploitability 0.0184>
    >>> kuhn = rmviz.solve("kuhn", "cfr+", 200, updates="alternating")
    >>> kuhn.family, kuhn.newest_metrics["exploitability"] < 1e-3
    ('tree', True)
    """
    _check_iterations(iterations)
    solver = make_solver(load(game), algorithm, **options)
    solver.step(0)  # compile or load the kernel (numba's cache) before the bar starts,
    solver.reset()  # and leave that time out of the run's seconds
    result = Result(solver, Trace(solver.columns, points_per_decade, every), options)
    return result.step(int(iterations), progress=progress)


def compare(
    game: str | os.PathLike[str] | Game,
    algorithms: Sequence[str] | None = None,
    iterations: int = 1000,
    *,
    progress: bool | None = None,
    points_per_decade: int = 200,
    every: int | None = None,
    **options: Any,
) -> Comparison:
    """Run each of ``algorithms`` (default: the family's choice for the window's *Compare
    algorithms* tab) on ``game`` for ``iterations`` with the same ``options`` (those of
    :func:`solve`), and return the :class:`Comparison`: one tidy frame and its figure.

    >>> comparison = rmviz.compare("rps", ["rm", "rm+"], 1000, seed=1)
    >>> comparison
    <rmviz Comparison: rm, rm+ on 'Rock-Paper-Scissors', T = 1,000>
    >>> newest = comparison.metrics.groupby("algorithm", observed=True).last()
    >>> bool(newest.loc["rm+", "exploitability"] < newest.loc["rm", "exploitability"])
    True
    """
    loaded = load(game)
    chosen = [algorithms] if isinstance(algorithms, str) else algorithms
    names = list(chosen or family_of(loaded).compare_default)
    if not names:
        raise ConfigError("compare needs at least one algorithm")
    twice = [name for name in dict.fromkeys(names) if names.count(name) > 1]
    if twice:
        raise ConfigError(f"{twice[0]!r} is named twice: compare each algorithm once")
    results = {
        name: solve(
            loaded,
            name,
            iterations,
            progress=progress,
            points_per_decade=points_per_decade,
            every=every,
            **compared_options(loaded, name, options),
        )
        for name in names
    }
    first = family_of(results[names[0]].game)
    for name, result in results.items():
        if family_of(result.game) is not first:
            raise ConfigError(f"{name} solves another kind of game than {names[0]}: compare one family's")
    return Comparison(results)


class Comparison:
    """Several algorithms run on one game by :func:`compare`.

    Attributes:
        results: algorithm -> its :class:`Result` (each can :meth:`~Result.step` on).

    >>> comparison = rmviz.compare("kuhn", ["cfr", "cfr+"], 100)
    >>> comparison.results["cfr+"].step(100).iteration
    200
    """

    def __init__(self, results: dict[str, Result]) -> None:
        self.results = dict(results)

    @property
    def metrics(self) -> pd.DataFrame:
        """Every run's :attr:`Result.metrics` in one tidy frame: columns ``iteration``,
        ``algorithm`` (a category, in the order given), then one per metric.

        >>> table = rmviz.compare("rps", ["rm", "rm+"], 100).metrics
        >>> table.columns[:3].tolist(), table["algorithm"].cat.categories.tolist()
        (['iteration', 'algorithm', 'exploitability'], ['rm', 'rm+'])
        """
        pd = _pandas()
        frames = []
        for name, result in self.results.items():
            frame = result.metrics
            frame.insert(1, "algorithm", name)
            frames.append(frame)
        table = pd.concat(frames, ignore_index=True)
        table["algorithm"] = pd.Categorical(table["algorithm"], categories=list(self.results))
        return table

    def plot(
        self,
        style: str | None = None,
        size: tuple[float, float] | None = None,
        *,
        ax: Axes | None = None,
        fig: FigureBase | None = None,
    ) -> Any:
        """The compare figure (the window's *Compare algorithms* panels, one per compared
        metric), as :meth:`Result.plot` draws it: a new figure, or on ``ax`` / ``fig``.

        >>> figure = rmviz.compare("rps", ["rm", "rm+"], 100).plot(style="paper")
        >>> [ax.get_title() for ax in figure.axes][:1]
        ['exploitability']
        """
        target = _target(ax, fig, size)
        first = next(iter(self.results.values()))
        traces = {name: result._trace.data() for name, result in self.results.items()}
        run = dataclasses.replace(first.run_data(), compared=traces)
        return _drawn("compare", run, target, style, size, None)

    def __repr__(self) -> str:
        first = next(iter(self.results.values()))
        names = ", ".join(self.results)
        return f"<rmviz Comparison: {names} on {first.game.title!r}, T = {first.iteration:,}>"

    def _repr_html_(self) -> str:
        metrics = self.metrics
        newest = metrics.groupby("algorithm", observed=True).last().drop(columns="iteration")
        shown = newest.dropna(axis=1, how="all").map(lambda value: format_number(value, ".4g"))
        return f"<p>{escape(repr(self))}</p>" + shown.to_html()


class Result:
    """A run you can continue: :meth:`step`; its tables :attr:`metrics` (wide),
    :attr:`strategies` (long) and :attr:`trace` (tidy); :meth:`plot`, :meth:`strategy`.

    Attributes:
        solver: the solver (``rmviz.solvers``); ``solver.game`` is the game solved (a matrix
            game solved by CFR is its game tree).
        options: the options it was built with.

    >>> result = rmviz.solve("rps", "rm+", 1000, seed=2)
    >>> result.game.title, result.algorithm, result.family, result.iteration
    ('Rock-Paper-Scissors', 'rm+', 'matrix', 1000)
    >>> result.options, result.snapshot.iteration
    ({'seed': 2}, 1000)
    """

    def __init__(self, solver: Solver, trace: Trace, options: dict[str, Any]) -> None:
        self.solver = solver
        self.options = dict(options)
        self._trace = trace
        self._snapshot: Snapshot = solver.snapshot(metrics=True)
        trace.add(solver.iteration, self._snapshot.trace_values())
        self._table: tuple[int, pd.DataFrame] | None = None

    # -- running ---------------------------------------------------------------------------
    def step(self, iterations: int = 1, progress: bool | None = None) -> Result:
        """Run ``iterations`` more, recording the trace; returns the result (to chain).

        >>> result = rmviz.solve("rps", "rm", 100)
        >>> result.step(900).iteration
        1000
        """
        _check_iterations(iterations)
        solver, trace = self.solver, self._trace
        target = solver.iteration + int(iterations)
        bar = _progress_bar(int(iterations), progress)
        chunk = max(1, int(iterations) // 100)  # the bar moves in 1% steps at most
        try:
            while solver.iteration < target:
                start = solver.iteration
                solver.step(min(trace.next_iteration, target, start + chunk) - start)
                if solver.iteration >= trace.next_iteration or solver.iteration == target:
                    self._snapshot = solver.snapshot(metrics=True)
                    trace.add(solver.iteration, self._snapshot.trace_values())
                if bar is not None:
                    bar.update(solver.iteration - start)
        finally:
            if bar is not None:
                bar.close()
        return self

    # -- reading -----------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game solved (a matrix game solved by CFR: its game tree)."""
        return self.solver.game

    @property
    def algorithm(self) -> str:
        """The algorithm's name (``rm+``, ``cfr``...)."""
        return str(self.solver.config.algorithm)

    @property
    def family(self) -> str:
        """The family's name, ``"matrix"`` or ``"tree"``."""
        return family_of(self.solver.game).name

    @property
    def _infosets(self) -> bool:
        """Whether a strategy is per information set (the family says: game trees)."""
        return family_of(self.solver.game).infosets

    @property
    def iteration(self) -> int:
        """The iterations run so far."""
        return self.solver.iteration

    @property
    def snapshot(self) -> Snapshot:
        """The newest snapshot (strategies, metrics)."""
        return self._snapshot

    @property
    def newest_metrics(self) -> dict[str, Any]:
        """The newest metrics by name (``exploitability``, ``nash_conv``, ``cce_gap``, ``value``
        per player...; ``None`` where not tracked): the last row of :attr:`metrics` and more.

        >>> metrics = rmviz.solve("rps", "rm+", 1000).newest_metrics
        >>> [round(metrics[name], 4) for name in ("exploitability", "nash_conv", "cce_gap")]
        [0.0184, 0.0367, 0.0198]
        """
        metrics = self._snapshot.metrics
        return metrics.as_dict() if metrics is not None else {}

    @property
    def metrics(self) -> pd.DataFrame:
        """The recorded metrics, wide: one row per recorded iteration, an ``iteration`` column,
        then one column per metric of the solver's trace, in its order (``exploitability``,
        ``nash_conv``..., the last iterate's ``last_*``), NaN where not tracked.

        >>> metrics = rmviz.solve("kuhn", "cfr", 100, every=10).metrics
        >>> len(metrics), metrics.columns[:3].tolist()
        (10, ['iteration', 'exploitability', 'nash_conv'])
        """
        pd = _pandas()
        trace = self._trace.data()
        data: dict[str, Any] = {"iteration": trace.iterations}
        data |= {column.quantity: values for column, values in trace.columns.items() if column.is_metric}
        return pd.DataFrame(data)

    @property
    def strategies(self) -> pd.DataFrame:
        """The recorded strategies, long: one row per recorded iteration and move, columns
        ``iteration``, ``player``, ``infoset`` (NaN for matrix games), ``action``, ``average``
        and ``current`` (NaN where the trace does not hold it: trees record the average only).
        Names are categories in the game's order.

        >>> strategies = rmviz.solve("rps", "rm", 10, every=5).strategies
        >>> strategies.columns.tolist(), len(strategies)
        (['iteration', 'player', 'infoset', 'action', 'average', 'current'], 12)
        """
        from rmviz.solvers.columns import Column

        pd = _pandas()
        trace = self._trace.data()
        moves: dict[tuple[int | None, int | None, int | None], dict[str, np.ndarray]] = {}
        for column, values in trace.columns.items():
            if column.quantity in ("average", "current"):
                moves.setdefault((column.player, column.infoset, column.action), {})[column.quantity] = values
        iterations, count = trace.iterations, len(moves)
        labels = [self._labels(Column("average", player=p, infoset=i, action=a)) for p, i, a in moves]
        data: dict[str, Any] = {"iteration": np.repeat(iterations, count)}
        for k, name in enumerate(("player", "infoset", "action"), start=1):
            names = [row[k] for row in labels]
            order = [n for n in dict.fromkeys(names) if n is not None]
            tiled = np.tile(np.array(names, dtype=object), iterations.size)
            data[name] = pd.Categorical(tiled, categories=order)
        missing = np.full(iterations.size, np.nan)
        for quantity in ("average", "current"):
            stacked = [found.get(quantity, missing) for found in moves.values()]
            data[quantity] = np.column_stack(stacked).ravel() if count else np.empty(0)
        return pd.DataFrame(data)

    @property
    def trace(self) -> pd.DataFrame:
        """The recorded run as a tidy table: one row per (iteration, value), columns
        ``iteration``, ``metric``, ``player``, ``action`` (trees: also ``infoset``) and
        ``value``. Metric rows (``exploitability``, ``nash_conv``...) have no player or
        action; per-move rows are ``average`` (and, for matrix games, ``current`` and
        ``regret``) strategies. Values not tracked (NaN) are left out. :attr:`metrics` and
        :attr:`strategies` hold the same numbers, metrics and moves apart.

        >>> trace = rmviz.solve("rps", "rm", 100).trace
        >>> trace.columns.tolist()
        ['iteration', 'metric', 'player', 'action', 'value']
        >>> "exploitability" in set(trace["metric"]) and "average" in set(trace["metric"])
        True
        """
        if self._table is None or self._table[0] != self.iteration:
            self._table = (self.iteration, self._tidy())
        return self._table[1]

    def strategy(self, which: str = "average") -> pd.DataFrame:
        """The newest ``average`` or ``current`` strategy: columns ``player``, ``action``
        (trees: also ``infoset``) and ``probability``.

        >>> rmviz.solve("rps", "rm+", 1000).strategy().round(2).head(3)
          player    action  probability
        0    Row      Rock         0.32
        1    Row     Paper         0.33
        2    Row  Scissors         0.35
        >>> rmviz.solve("kuhn", "cfr+", 1000).strategy().columns.tolist()
        ['player', 'infoset', 'action', 'probability']
        """
        if which not in ("average", "current"):
            raise RmvizError(f"strategy {which!r}: choose 'average' or 'current'")
        pd = _pandas()
        strategy = getattr(self._snapshot, f"{which}_strategy")
        game: Any = self.solver.game
        if not self._infosets:
            rows = [
                (game.player_names[i], action, float(strategy[i][a]))
                for i, actions in enumerate(game.action_names)
                for a, action in enumerate(actions)
            ]
            return pd.DataFrame(rows, columns=["player", "action", "probability"])
        tree = self.solver.tree  # type: ignore[attr-defined]  # the tree family's solver
        infoset = tree.slot_infoset
        return pd.DataFrame(
            {
                "player": [game.player_names[p] for p in tree.infoset_player[infoset]],
                "infoset": [tree.infoset_label[i] for i in infoset],
                "action": list(tree.slot_move),
                "probability": np.asarray(strategy, dtype=np.float64),
            }
        )

    def to_openspiel_policy(self, game: Any = None) -> Any:
        """The average strategy as an OpenSpiel ``TabularPolicy`` on ``game`` (a pyspiel
        game or a game string; default: the OpenSpiel game this game was loaded from, or
        OpenSpiel's Kuhn or Leduc poker for rmviz's own): a tree's on a tree, a matrix game's
        on a one-shot game (``openspiel:matrix_rps``). Refused with one line when the games
        differ (:func:`rmviz.formats.objects.openspiel_policy`).

        >>> import pyspiel
        >>> from open_spiel.python.algorithms.exploitability import nash_conv
        >>> result = rmviz.solve("kuhn", "cfr", 100)
        >>> policy = result.to_openspiel_policy()
        >>> theirs = nash_conv(pyspiel.load_game("kuhn_poker"), policy)
        >>> bool(abs(theirs - result.newest_metrics["nash_conv"]) < 1e-12)
        True
        """
        from rmviz.formats.objects import openspiel_policy

        return openspiel_policy(self.solver.game, self._average(), game)

    def to_gambit_profile(self, game: Any = None) -> Any:
        """The average strategy as a pygambit profile on ``game`` (default: this game as
        Gambit reads rmviz's .nfg/.efg file of it): a ``MixedStrategyProfile`` for a matrix
        game, a ``MixedBehaviorProfile`` for a tree (:func:`rmviz.formats.objects.gambit_profile`).

        >>> profile = rmviz.solve("rps", "rm+", 1000).to_gambit_profile()
        >>> type(profile).__name__, round(float(profile.max_regret()), 4)
        ('MixedStrategyProfileDouble', 0.0214)
        """
        from rmviz.formats.objects import gambit_profile

        return gambit_profile(self.solver.game, self._average(), game)

    def _average(self) -> Any:
        """The average strategy: per player (matrix games) or by (player, information set)."""
        strategy = self._snapshot.average_strategy  # type: ignore[attr-defined]  # every family's
        if not self._infosets:
            return [np.asarray(s, dtype=np.float64) for s in strategy]
        tree = self.solver.tree  # type: ignore[attr-defined]  # the tree family's solver
        values = np.asarray(strategy, dtype=np.float64)
        return {
            (int(player), label): values[first : first + size]
            for player, label, first, size in zip(
                tree.infoset_player.tolist(),
                tree.infoset_label,
                tree.infoset_first_slot.tolist(),
                tree.infoset_size.tolist(),
                strict=True,
            )
        }

    def report(self) -> dict[str, Any]:
        """What ``rmviz solve --json`` prints (metrics, strategies, config).

        >>> report = rmviz.solve("rps", "rm", 10).report()
        >>> report["game"], report["iterations"], "average_strategy" in report
        ('Rock-Paper-Scissors', 10, True)
        """
        metrics = self.newest_metrics
        return {
            "game": self.game.title,
            "algorithm": self.algorithm,
            "iterations": self.iteration,
            **metrics,
            **self.solver.report(self._snapshot),
        }

    # -- figures and files -----------------------------------------------------------------
    def run_data(self) -> RunData:
        """The run as figures draw it (:class:`rmviz.figures.RunData`).

        >>> run = rmviz.solve("rps", "rm", 10).run_data()
        >>> run.game.title, run.algorithm, run.trace.iterations[-1].item()
        ('Rock-Paper-Scissors', 'rm', 10)
        """
        from rmviz.figures.run import RunData

        return RunData.of(self.solver, self._trace.data(), self._snapshot)

    def plot(
        self,
        figure: str = "gaps",
        style: str | None = None,
        size: tuple[float, float] | None = None,
        compare: Sequence[str] = (),
        width: float | None = None,
        field: bool = False,
        field_step: float | None = None,
        *,
        ax: Axes | None = None,
        fig: FigureBase | None = None,
    ) -> Any:
        """Figure ``figure`` of the registry (``gaps``, ``strategies``, ``simplex``,
        ``dashboard``, ``tree``...: :data:`rmviz.figures.FIGURES`) as a matplotlib Figure that
        a notebook shows inline (:class:`rmviz.figures.display.NotebookFigure`), in ``style``
        (default ``slides``); or drawn on ``ax`` (an Axes: one-panel figures) or ``fig`` (a
        Figure or SubFigure: new axes in it), which is returned (default style ``paper``);
        ``compare``: other algorithms run as long with the same options, for ``compare``;
        ``width``: the tree's width in inches (default a beamer frame's, 10.8 cm); ``field``:
        the vector field of the algorithm's continuous-time dynamic under the simplex paths
        (:mod:`rmviz.present.dynamics`), with ``field_step`` the algorithm's steps of that
        size from the newest point beside the flow.

        >>> import matplotlib.pyplot as plt
        >>> result = rmviz.solve("rps-crash", "rm+", 1000)
        >>> figure = result.plot("simplex", field=True)   # shown inline in a notebook
        >>> figure.savefig(tmp / "simplex.svg")
        >>> fig, ax = plt.subplots()
        >>> result.plot("gaps", ax=ax) is ax
        True
        """
        from rmviz.figures.run import compared_with

        target = _target(ax, fig, size)
        run = self.run_data()
        if field or field_step is not None:
            if field_step is not None:
                check_drawn_step(field_step)
            run = dataclasses.replace(run, dynamics=True, dynamics_step=field_step)
        if figure == "compare" or compare:
            others = list(compare) or [a for a in family_of(self.game).compare_default if a != self.algorithm]
            run = compared_with(run, others, **self.options)
        return _drawn(figure, run, target, style, size, width)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the trace with the game and the full config (.csv or .json), as ``rmviz
        solve --trace`` does.

        >>> rmviz.solve("rps", "rm", 100).save(tmp / "run.csv").name
        'run.csv'
        """
        target = Path(path)
        write_run_data(target, self.solver, self._trace.data())
        return target

    # -- display -----------------------------------------------------------------------------
    def __repr__(self) -> str:
        gap = self.newest_metrics.get("exploitability")
        shown = f", exploitability {format_number(gap, '.3g')}" if gap is not None else ""
        return f"<rmviz Result: {self.algorithm} on {self.game.title!r}, T = {self.iteration:,}{shown}>"

    def _repr_html_(self) -> str:
        seconds = self._snapshot.seconds
        head = (
            f"<b>{escape(self.algorithm)}</b> on <b>{escape(self.game.title)}</b>: "
            f"{self.iteration:,} iterations in {seconds:.3g} s"
        )
        metrics = "".join(
            f"<tr><td>{escape(name)}</td><td>{_shown(value)}</td></tr>"
            for name, value in self.newest_metrics.items()
        )
        strategy = self.strategy()
        rows = strategy.head(SHOWN_ACTIONS * (1 if self._infosets else 2))
        body = "".join(
            "<tr>"
            + "".join(f"<td>{escape(str(v))}</td>" for v in row[:-1])
            + f"<td>{format_number(row[-1], '.4f')}</td></tr>"
            for row in rows.itertuples(index=False)
        )
        more = len(strategy) - len(rows)
        header = "".join(f"<th>{escape(c)}</th>" for c in strategy.columns)
        return "\n".join(
            [
                head,
                "<table><tr><th>metric</th><th>value</th></tr>",
                metrics,
                "</table><table>",
                f"<tr>{header}</tr>{body}",
                "</table>",
                f"<i>... {more} more rows: result.strategy()</i>" if more > 0 else "",
            ]
        )

    # -- the tidy table --------------------------------------------------------------------
    def _tidy(self) -> pd.DataFrame:
        pd = _pandas()
        trace = self._trace.data()
        iterations, table = trace.iterations, trace.columns
        labels = [self._labels(column) for column in table]
        points, count = iterations.size, len(labels)
        data: dict[str, Any] = {"iteration": np.tile(iterations, count)}
        for k, name in enumerate(("metric", "player", "infoset", "action")):
            if name == "infoset" and not self._infosets:
                continue
            names = np.array([row[k] for row in labels], dtype=object)
            data[name] = pd.Categorical(np.repeat(names, points))
        data["value"] = np.concatenate(list(table.values())) if count else np.empty(0)
        frame = pd.DataFrame(data)
        return frame[frame["value"].notna()].reset_index(drop=True)

    def _labels(self, column: Any) -> tuple[str, str | None, str | None, str | None]:
        """(metric, player, infoset, action) of a trace column, as names."""
        if column.player is None:
            return column.quantity, None, None, None
        game: Any = self.solver.game
        player = game.player_names[column.player]
        if column.infoset is None:
            return column.quantity, player, None, game.action_names[column.player][column.action]
        tree = self.solver.tree  # type: ignore[attr-defined]  # the tree family's solver
        slot = int(tree.infoset_first_slot[column.infoset]) + column.action
        return column.quantity, player, tree.infoset_label[column.infoset], tree.slot_move[slot]


def _target(ax: Axes | None, fig: FigureBase | None, size: Size) -> Any:
    """The caller's Axes or figure to draw on, or None (a figure of rmviz's own)."""
    if ax is not None and fig is not None:
        raise ConfigError("give ax= or fig=, not both")
    target = ax if ax is not None else fig
    if target is not None and size is not None:
        raise ConfigError("size= is a new figure's: the Axes or Figure given has its own")
    return target


def _drawn(figure: str, run: Any, target: Any, style: str | None, size: Size, width: float | None) -> Any:
    """Figure ``figure`` of ``run``: a new figure (default style ``slides``), or drawn on the
    caller's ``target`` (default ``paper``) and returned."""
    from rmviz.figures.registry import draw_figure, make_figure

    if target is None:
        return make_figure(figure, run, style or "slides", size, width)
    return draw_figure(figure, run, target, style or "paper")


def _shown(value: Any) -> str:
    """A metric as the HTML summary shows it: a number, a list (per player) or a mapping
    (a tree's ``player_gaps``: ``cce: 0.01, 0.02; efce: ...``)."""
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_shown(v)}" for key, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_shown(v) for v in value)
    if value is None:
        return "not tracked"
    return format_number(value, ".6g")


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise RmvizError("tables need pandas: pip install 'rmviz[notebook]'") from None
    return pandas


def _progress_bar(total: int, progress: bool | None) -> Any:
    """A tqdm bar (a widget in Jupyter when ipywidgets is installed), or None."""
    if progress is False or total <= 0 or importlib.util.find_spec("tqdm") is None:
        return None
    if importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm
    else:  # tqdm.auto would warn that it cannot draw a widget
        from tqdm.std import tqdm
    return tqdm(total=total, unit="it", delay=0.0 if progress else 1.0, leave=bool(progress))
