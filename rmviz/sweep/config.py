"""A sweep's configuration: games x algorithms x seeds x iteration checkpoints, from TOML.

::

    name = "2p zero-sum 10x10, sampled play"
    games = ["random:zero-sum:10x10:seed={1000..1009}"]   # {A..B}: one game per integer
    algorithms = ["rm", "greedy-rm"]
    seeds = [0, 1, 2]                                      # or a count: seeds = 3
    iterations = [10, 100, 1000, 10000]                    # the checkpoints recorded
    metrics = ["exploitability"]                           # optional: default every metric
    [options]                                              # shared solver options
    play = "sampled"
    last_iterate = true   # the current profile's distances too (default: matrix on, trees off)

``granularity`` (``"game"``, default, or ``"cell"``: a task per game x algorithm x seed) and
``retries`` (Dask's) say how it runs: a resumed sweep need not match them.

The whole grid is checked when the file is read, before any task runs: unknown keys, games,
algorithms, metrics and options, and every game x algorithm cell (an algorithm that does not
solve a game's family, options its config refuses, a metric its family does not measure) are
refused with one line naming the file. The games themselves are built by the workers, one
task per game; the checks read only their specs (:func:`rmviz.formats.game_kind`).

A seed is a sample only where it can change the run. An algorithm whose config draws nothing
from its seed (``Config.uses_seed`` false: expected play, full-traversal CFR) gives the same
run for every seed, so it runs once per game, with the first seed, and is listed in
:attr:`SweepConfig.deterministic`: the figures' n and confidence bands count distinct runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rmviz.errors import ConfigError, ReadError, RmvizError
from rmviz.formats import game_kind, load_game
from rmviz.formats.files import read_toml_file
from rmviz.games.generators import MAX_SEED, read_random_spec
from rmviz.solvers.registry import (
    FAMILIES,
    family_named,
    family_of_algorithm,
    make_solver,
    solving_family,
    used_options,
)

KEYS = ("name", "games", "algorithms", "seeds", "iterations", "metrics", "options", "granularity", "retries")
GRANULARITIES = ("game", "cell")  # one task per game, or per game x algorithm x seed
MAX_RETRIES = 100
MAX_TASKS = 100_000
MAX_CHECKPOINT = 2**53
_RANGE = re.compile(r"\{(-?\d+)\.\.(-?\d+)\}")


@dataclass(frozen=True)
class Task:
    """One unit of work: one game (by its spec, loaded in the worker) with every algorithm,
    seed and checkpoint of the sweep (the ``deterministic`` algorithms with the first seed only);
    with ``cell`` (granularity ``"cell"``), one algorithm and one seed of it: ``algorithms`` and
    ``seeds`` hold one each, ``cell`` their positions in the sweep's lists. ``index`` is the
    task's place in :meth:`SweepConfig.tasks`, ``game_index`` its game's.

    >>> sweep = config_from({"games": ["rps", "rps-crash"], "algorithms": ["rm", "greedy-rm"],
    ...                      "seeds": 2, "iterations": [10], "options": {"play": "sampled"}})
    >>> game, cell = sweep.tasks()[1], sweep.tasks("cell")[1]
    >>> game.stem, game.game, game.algorithms, game.seeds_of("rm")
    ('task-00001', 'rps-crash', ('rm', 'greedy-rm'), (0, 1))
    >>> cell.stem, cell.algorithms, cell.seeds
    ('task-00000-000-00001', ('rm',), (1,))
    """

    index: int
    game: str
    algorithms: tuple[str, ...]
    seeds: tuple[int, ...]
    iterations: tuple[int, ...]
    metrics: tuple[str, ...] | None
    options: Mapping[str, Any] = field(default_factory=dict)
    deterministic: tuple[str, ...] = ()
    game_index: int | None = None  # None: ``index`` (one task per game)
    cell: tuple[int, int] | None = None  # (algorithm, seed) positions of a cell task

    def seeds_of(self, algorithm: str) -> tuple[int, ...]:
        """The seeds ``algorithm`` runs with: all, or the first when its runs ignore the seed."""
        return self.seeds[:1] if algorithm in self.deterministic else self.seeds

    @property
    def stem(self) -> str:
        """The name of the task's file: ``task-00003`` (a game), ``task-00003-001-00002`` (its
        second algorithm's third seed); zero-padded, so names sort in grid order."""
        game = f"task-{self.index if self.game_index is None else self.game_index:05d}"
        return game if self.cell is None else f"{game}-{self.cell[0]:03d}-{self.cell[1]:05d}"


@dataclass(frozen=True)
class SweepConfig:
    """A validated sweep (see the module docstring); ``games`` are the expanded specs;
    ``deterministic``: the algorithms whose runs do not depend on the seed, run once per game
    (found by :func:`config_from`, which checks a SweepConfig made by hand again).

    >>> sweep = config_from({"games": ["random:zero-sum:3x3:seed={1..2}"], "algorithms": ["rm", "rm+"],
    ...                      "seeds": 3, "iterations": [10, 100], "granularity": "cell"})
    >>> sweep.games, sweep.deterministic
    (('random:zero-sum:3x3:seed=1', 'random:zero-sum:3x3:seed=2'), ('rm', 'rm+'))
    >>> len(sweep.tasks()), len(sweep.tasks("game"))
    (4, 2)
    >>> sweep.source()["granularity"], "granularity" in sweep.as_dict()
    ('cell', False)
    >>> sweep.to_json()[:32]
    '{"algorithms": ["rm", "rm+"], "d'
    """

    games: tuple[str, ...]
    algorithms: tuple[str, ...]
    seeds: tuple[int, ...]
    iterations: tuple[int, ...]
    metrics: tuple[str, ...] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    name: str = "sweep"
    deterministic: tuple[str, ...] = ()
    granularity: str = "game"
    retries: int | None = None

    def tasks(self, granularity: str | None = None) -> list[Task]:
        """The tasks in grid order: one per game (``"game"``), or one per game x algorithm x
        seed (``"cell"``; a ``deterministic`` algorithm's first seed only); default
        :attr:`granularity`."""
        granularity = granularity or self.granularity
        if granularity not in GRANULARITIES:
            raise ConfigError(f"granularity {granularity!r}: choose {' or '.join(GRANULARITIES)}")
        options = dict(self.options)
        shared = (self.iterations, self.metrics, options, self.deterministic)
        if granularity == "game":
            games = enumerate(self.games)
            return [Task(index, game, self.algorithms, self.seeds, *shared) for index, game in games]
        tasks: list[Task] = []
        for game_index, game in enumerate(self.games):
            for a, algorithm in enumerate(self.algorithms):
                seeds = self.seeds[:1] if algorithm in self.deterministic else self.seeds
                for s, seed in enumerate(seeds):
                    tasks.append(Task(len(tasks), game, (algorithm,), (seed,), *shared, game_index, (a, s)))
        return tasks

    def as_dict(self) -> dict[str, Any]:
        """The config as plain data (what the results embed and a resumed sweep must match),
        with the ``deterministic`` algorithms found when it was checked; without
        ``granularity`` and ``retries``, which say how the grid runs, not what it is."""
        how = ("granularity", "retries")
        identity = {key: value for key, value in self.source().items() if key not in how}
        return {**identity, "deterministic": list(self.deterministic)}

    def source(self) -> dict[str, Any]:
        """The config as the mapping :func:`config_from` reads (the TOML file's keys)."""
        how: dict[str, Any] = {"granularity": self.granularity} if self.granularity != "game" else {}
        if self.retries is not None:
            how["retries"] = self.retries
        return {
            "name": self.name,
            "games": list(self.games),
            "algorithms": list(self.algorithms),
            "seeds": list(self.seeds),
            "iterations": list(self.iterations),
            "metrics": None if self.metrics is None else list(self.metrics),
            "options": dict(self.options),
            **how,
        }

    def to_json(self) -> str:
        """:meth:`as_dict` as JSON, keys sorted (what the results embed)."""
        return json.dumps(self.as_dict(), sort_keys=True)


def load_config(path: str | Path) -> SweepConfig:
    """Read and validate a sweep's TOML file; every refusal names the file.

    >>> _ = (tmp / "grid.toml").write_text('''
    ... games = ["rps", "random:zero-sum:4x4:seed={1..3}"]
    ... algorithms = ["rm+"]
    ... seeds = 1
    ... iterations = [100, 1000]
    ... ''')
    >>> load_config(tmp / "grid.toml").games[-1]
    'random:zero-sum:4x4:seed=3'
    """
    path = Path(path)
    # a regular file of bounded size, as game files (a pipe blocked, /dev/zero filled memory)
    data = read_toml_file(path, "sweep config")
    try:
        return config_from(data)
    except ConfigError as error:
        raise ReadError(str(path), str(error)) from None


def config_from(data: Mapping[str, Any] | SweepConfig) -> SweepConfig:
    """A :class:`SweepConfig` from a mapping shaped like the TOML file (or a SweepConfig, checked
    again); the whole grid is checked (see the module docstring).

    >>> config_from({"games": ["rps"], "algorithms": ["rm"], "seeds": 1, "iterations": [10]}).seeds
    (0,)
    >>> config_from({"games": ["rps"], "algorithms": ["rm"], "seeds": 1})
    Traceback (most recent call last):
    rmviz.errors.ConfigError: name the iterations to sweep (iterations = [...])
    """
    if isinstance(data, SweepConfig):
        data = data.source()
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ConfigError(f"unknown key {unknown[0]!r}; a sweep has {', '.join(KEYS)}")
    for key in ("games", "algorithms", "iterations", "seeds"):
        if key not in data:
            raise ConfigError(f"name the {key} to sweep ({key} = [...])")
    games = tuple(spec for text in _strings(data["games"], "games") for spec in expand(text))
    _distinct_games(games)
    algorithms = _strings(data["algorithms"], "algorithms")
    for algorithm in algorithms:
        family_of_algorithm(algorithm)  # refuses an unknown name, listing the known ones
    seeds_value = data["seeds"]
    if isinstance(seeds_value, int) and not isinstance(seeds_value, bool):
        if not 1 <= seeds_value <= 10_000:
            raise ConfigError(f"seeds = {seeds_value}: give a count from 1 to 10000, or a list of seeds")
        seeds: tuple[int, ...] = tuple(range(seeds_value))
    else:
        seeds = _integers(seeds_value, "seeds", 0, MAX_SEED)
    iterations = tuple(sorted(set(_integers(data["iterations"], "iterations", 1, MAX_CHECKPOINT))))
    metrics = None
    if data.get("metrics") is not None:
        metrics = _strings(data["metrics"], "metrics")
        known = {name for family in FAMILIES for name in family.metrics}
        for metric in metrics:
            if metric not in known:
                raise ConfigError(f"unknown metric {metric!r}; choose from {', '.join(sorted(known))}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise ConfigError("options must be a table ([options] with key = value lines)")
    options = {key: _by_player(key, value) for key, value in options.items()}
    accepted = {name for family in FAMILIES for name in family.accepted} - {"seed"} | {"last_iterate"}
    for option in options:
        if option not in accepted:
            raise ConfigError(f"unknown option {option!r}; sweeps take {', '.join(sorted(accepted))}")
    name = data.get("name", "sweep")
    if not isinstance(name, str):
        raise ConfigError("name must be a string")
    if len(games) * len(algorithms) * len(seeds) > MAX_TASKS * 100:
        runs = f"{len(games)} games x {len(algorithms)} algorithms x {len(seeds)} seeds"
        raise ConfigError(f"{runs} is too many runs for one sweep")
    granularity = data.get("granularity", "game")
    if granularity not in GRANULARITIES:
        raise ConfigError(f"granularity = {granularity!r}: choose {' or '.join(map(repr, GRANULARITIES))}")
    retries = data.get("retries")
    if retries is not None:
        retries = check_retries(retries, "retries = ")
    deterministic = check_grid(games, algorithms, seeds, metrics, options)
    grid = (games, algorithms, seeds, iterations, metrics, dict(options), name, deterministic)
    return SweepConfig(*grid, granularity, retries)


def check_retries(value: Any, prefix: str = "--retries ") -> int:
    """A retry count for Dask (``retries``, ``--retries``): an integer from 0 to 100."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_RETRIES:
        raise ConfigError(f"{prefix}{value!r}: give how often a failed task runs again, 0 to {MAX_RETRIES}")
    return value


def _by_player(option: str, value: Any) -> Any:
    """An option keyed by player (``start``, ``fixed_strategies``) with TOML's string keys
    (``"0" = [...]``) as the configs' player numbers; other options as they are."""
    if option not in ("start", "fixed_strategies") or not isinstance(value, Mapping):
        return value
    players = {}
    for key, strategy in value.items():
        number = isinstance(key, int) and not isinstance(key, bool)
        if not (number or (isinstance(key, str) and key.isdecimal())):
            raise ConfigError(f"{option}: players are numbered 0, 1, ...; got {key!r}")
        players[int(key)] = strategy
    return players


def check_grid(
    games: tuple[str, ...],
    algorithms: tuple[str, ...],
    seeds: tuple[int, ...],
    metrics: tuple[str, ...] | None,
    options: Mapping[str, Any],
) -> tuple[str, ...]:
    """Check every game x algorithm cell before any task runs; return the algorithms whose
    runs ignore the seed. Each game's kind comes from its spec (the game is not built); each
    cell's config is built and validated as the worker will build it (``make_solver``), so
    what a task would refuse is refused here, naming the cell."""
    examples: dict[str, str] = {}  # game kind -> the first game of that kind
    for spec in games:
        try:
            examples.setdefault(game_kind(spec), spec)
        except RmvizError as error:
            raise ConfigError(f"games: {error}") from None
    deterministic = []
    last = options.get("last_iterate")
    if last is not None and not isinstance(last, bool):
        raise ConfigError("options.last_iterate: true or false (the current profile's distances too)")
    options = {name: value for name, value in options.items() if name != "last_iterate"}  # not a config's
    for name, value in options.items():  # each algorithm takes the parameters it uses (used_options)
        if value is not None and all(name not in used_options(a, {name: value}) for a in algorithms):
            raise ConfigError(f"options.{name}: no algorithm of the sweep uses it ({', '.join(algorithms)})")
    for algorithm in algorithms:
        uses_seed = set()
        for kind, game in examples.items():
            cell = f"{algorithm} on {game}"
            try:
                family = solving_family(family_named(kind), algorithm)
                config = family.config(algorithm, seed=seeds[0], **used_options(algorithm, options))
            except ConfigError as error:
                raise ConfigError(f"{cell}: {error}") from None
            for metric in metrics or ():
                if metric not in family.metrics:
                    raise ConfigError(
                        f"metrics: {family.title} have no {metric!r} ({cell}); "
                        f"they measure {', '.join(family.metrics)}"
                    )
            uses_seed.add(bool(config.uses_seed))
        if uses_seed == {False}:
            deterministic.append(algorithm)
    _check_strategies_on_games(games, algorithms, seeds, options)
    return tuple(deterministic)


def _check_strategies_on_games(
    games: tuple[str, ...], algorithms: tuple[str, ...], seeds: tuple[int, ...], options: Mapping[str, Any]
) -> None:
    """Starting and fixed strategies fit each game (players, one probability per action, sums
    of 1) only once the game is known: build each game and a solver of each algorithm that
    solves it (nothing runs), so a misfit is refused before ``--out`` is claimed."""
    if not {"start", "fixed_strategies"} & set(options):
        return
    for spec in games:
        game = load_game(spec)
        for algorithm in algorithms:
            try:
                make_solver(game, algorithm, seed=seeds[0], **used_options(algorithm, options))
            except ConfigError as error:
                raise ConfigError(f"{algorithm} on {spec}: {error}") from None


def _distinct_games(games: tuple[str, ...]) -> None:
    """Refuse a game named twice (after expanding ranges; ``random:`` specs compared by what
    they draw): it would count as two samples of one run."""
    seen: dict[Any, str] = {}
    for spec in games:
        key: Any = spec
        if spec.startswith("random:"):
            try:
                key = read_random_spec(spec)
            except RmvizError as error:
                raise ConfigError(f"games: {error}") from None
        if key in seen:
            same = repr(spec) if seen[key] == spec else f"{seen[key]!r} and {spec!r}"
            raise ConfigError(f"games: {same} name the same game twice; each game must be one sample")
        seen[key] = spec


def expand(spec: str) -> list[str]:
    """``random:zero-sum:10x10:seed={0..9}`` -> ten specs; every ``{A..B}`` is expanded
    (several multiply); a spec without one is itself."""
    specs = [spec]
    while _RANGE.search(specs[0]):
        match = _RANGE.search(specs[0])
        assert match is not None
        low, high = int(match.group(1)), int(match.group(2))
        if high < low or (high - low + 1) * len(specs) > MAX_TASKS:
            raise ConfigError(
                f"games: {spec!r}: {match.group(0)} must count up, to {MAX_TASKS} games at most"
            )
        specs = [s[: match.start()] + str(k) + s[match.end() :] for s in specs for k in range(low, high + 1)]
    return specs


def _strings(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{key} must be a non-empty list of strings")
    if len(set(value)) != len(value):
        raise ConfigError(f"{key} lists {next(v for v in value if value.count(v) > 1)!r} twice")
    return tuple(value)


def _integers(value: Any, key: str, low: int, high: int) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in value)
    ):
        raise ConfigError(f"{key} must be a non-empty list of whole numbers from {low} to {high:.3g}")
    if len(set(value)) != len(value):
        raise ConfigError(f"{key} lists {next(v for v in value if value.count(v) > 1)} twice")
    return tuple(value)
