"""Session files: a whole run saved the day before a lecture and reopened where it was.

A :class:`Session` holds what reproduces what a window showed: the game (rmviz JSON,
embedded), the algorithm with every setting of the solver panel (``options``: the family's
:attr:`~rmviz.solvers.family.Family.choices` and ``parameters``), the metric cadence and
speed, the iteration reached, the :class:`View` worth keeping and, since version 3, the run
itself (:class:`~rmviz.runner.trace.SavedRun`: the solver's whole state and the trace's kept
points, :mod:`.saved_run`), so reopening at any iteration takes as long as reading the file
and the run goes on bit for bit as if never saved. A file without the run (versions 1 and
2, or a run whose generator cannot be saved) re-runs the deterministic solver to the saved
iteration instead. The file,
``NAME.rmviz-session.json`` (:data:`SUFFIX`), is described field by field in
docs/session-format.md. Reading checks every field before use and refuses a bad file with
one :class:`~rmviz.errors.ReadError` naming it and the field; writing is atomic
(:mod:`rmviz.atomic`). Versions 1 to 3 are read; a version-1 tree session with a
Monte-Carlo preset replays a new run and says so (:data:`MONTE_CARLO_NOTICE`).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rmviz.atomic import atomic_write_text
from rmviz.errors import ConfigError, ReadError, RmvizError
from rmviz.formats import Game, read_text_file
from rmviz.formats.rmviz_json import check_header, dumps_json, game_from_dict, game_to_dict, parse_json
from rmviz.games.generators import MAX_SEED
from rmviz.runner.saved_run import saved_run_from_dict, saved_run_to_dict
from rmviz.runner.trace import SavedRun
from rmviz.solvers.family import Family
from rmviz.solvers.protocol import Config
from rmviz.solvers.registry import FAMILIES, TREE, family_named, family_of
from rmviz.version import version

FORMAT_NAME = "rmviz-session"
FORMAT_VERSION = 3
READABLE_VERSIONS = range(1, FORMAT_VERSION + 1)
MONTE_CARLO_VERSION = 2  # the first version written since Monte-Carlo CFR samples anew
RESAMPLED: tuple[Family, ...] = (TREE,)  # the families whose seeded runs sample anew since then
MONTE_CARLO_NOTICE = (
    "saved by an older rmviz: its Monte-Carlo samples are drawn differently now, "
    "so the replay is a new run with the same seed, not the saved one"
)
SUFFIX = ".rmviz-session.json"
MAX_ITERATION = 2**53  # iteration counts stay exact in the float weights t, t^gamma (as rmviz solve -n)
MAX_POINTS_PER_DECADE = 10_000
MAX_TEXT_STEPS = 50
MAX_LABEL = 10_000  # characters of a tab name or an information set's label
TABS = ("run", "compare", "step", "equilibria")  # Run / Tree, Compare algorithms; matrix: Step, Equilibria
MAX_JOINT = 1_000_000  # characters of the joint typed into the CE checker
MAX_SCRIPT = 100_000  # iterations of the Step tab's chosen draws
SIDE_TABS = ("infoset", "average")  # the tree window's Information set / Average strategy


@dataclass(frozen=True)
class TreeShown:
    """The tree window's view of its tree: ``zoom`` (scene to screen), the scene point at the
    view's ``centre``, ``whole`` (F: the whole tree however small), the nodes the person
    ``collapsed`` and ``opened``, and whether the person ``zoomed`` (else the window's own
    fit is kept, for any window size)."""

    zoom: float = 1.0
    centre: tuple[float, float] = (0.0, 0.0)
    whole: bool = False
    collapsed: tuple[int, ...] = ()
    opened: tuple[int, ...] = ()
    zoomed: bool = False


@dataclass(frozen=True)
class View:
    """What a window showed besides the run; a window uses what it has (the faces are the
    matrix window's, the information set and side tab the tree window's).

    Attributes:
        tab: one of :data:`TABS`, or None for the window's default.
        faces: player -> the three actions whose face of the simplex is drawn (players
            with more than three actions).
        presentation: presentation mode (F5) was on.
        text_steps: Ctrl+= steps from the normal text size (negative: Ctrl+-).
        infoset: the label of the information set shown in the tree window's panel.
        side_tab: the tree window's side panel, one of :data:`SIDE_TABS`.
        recorded: the tree window showed the last iteration recorded (*Step 1*): reopening
            records it again, so its numbers are on the tree and in the panel.
        compared: the algorithms checked in compare mode, or None for the family's default
            (``Family.compare_default``).
        joint: the joint distribution checked in the matrix window's *Equilibria* tab, as
            typed (one entry per profile, comma-separated), or None.
        script: the draws chosen in the matrix window's *Step* tab, per iteration from 1 to
            the last chosen one, each player's action name or ``"draw"`` (the tab explains
            those iterations as they ran).
        tree_view: the tree window's view of its tree (:class:`TreeShown`), or None.
        dynamics: the matrix window's simplex drew the field of the run's dynamic (*Dynamics*).
        dynamics_step: the step size of the algorithm's steps drawn beside the flow, or None.
        last_iterate: whether the run measured the current profile's distances too (the tree
            window's *Last iterate* menu, ``--last-iterate``); None: the family's default.
    """

    tab: str | None = None
    faces: Mapping[int, tuple[int, int, int]] = field(default_factory=dict)
    presentation: bool = False
    text_steps: int = 0
    infoset: str | None = None
    side_tab: str | None = None
    recorded: bool = False
    compared: tuple[str, ...] | None = None
    joint: str | None = None
    script: tuple[tuple[str, ...], ...] = ()
    tree_view: TreeShown | None = None
    dynamics: bool = False
    dynamics_step: float | None = None
    last_iterate: bool | None = None


@dataclass(frozen=True)
class Session:
    """A game, the config of its run, how far the run went and the view (module docstring).

    ``notices``: what a person reopening the file must know (one sentence each, for the
    window's status bar and one line of ``rmviz FILE``), such as :data:`MONTE_CARLO_NOTICE`;
    set by the reader, never written. ``saved``: the run itself, to go on from without
    re-running (None: reopening re-runs to ``iteration``); ``compared_runs``: the runs of
    the *Compare algorithms* tab by algorithm (those it had built).
    """

    game: Game
    config: Config
    iteration: int = 0
    points_per_decade: int = 200
    speed: float | None = None  # iterations per second; None: as fast as possible
    view: View = field(default_factory=View)
    notices: tuple[str, ...] = ()
    saved: SavedRun | None = None
    compared_runs: Mapping[str, SavedRun] = field(default_factory=dict)

    @property
    def family(self) -> Family:
        return family_of(self.game)


def is_session_file(path: str | Path) -> bool:
    """Whether ``path`` names a session file (by its :data:`SUFFIX`, in any case)."""
    return Path(path).name.lower().endswith(SUFFIX)


def session_path(path: str | Path) -> Path:
    """``path`` with the session :data:`SUFFIX` added when it lacks it (``lecture`` and
    ``lecture.json`` become ``lecture.rmviz-session.json``)."""
    path = Path(path)
    if is_session_file(path):
        return path
    stem = path.name[: -len(".json")] if path.name.lower().endswith(".json") else path.name
    return path.with_name(stem + SUFFIX)


# -- writing -----------------------------------------------------------------------------------
def session_to_dict(session: Session) -> dict[str, Any]:
    """The JSON-ready dictionary of ``session``."""
    family = session.family
    options = {name: _plain(getattr(session.config, name)) for name in _options(family, session.config)}
    view = session.view
    state = {} if session.saved is None else {"state": saved_run_to_dict(session.saved)}
    if session.compared_runs:
        state["compare_state"] = {name: saved_run_to_dict(run) for name, run in session.compared_runs.items()}
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "rmviz": version(),
        "family": family.name,
        "game": game_to_dict(session.game),
        "solver": {"algorithm": session.config.algorithm, "options": options},
        "run": {
            "iteration": int(session.iteration),
            "points_per_decade": int(session.points_per_decade),
            "speed": session.speed,
        },
        "view": {
            "tab": view.tab,
            "faces": {str(player): list(face) for player, face in sorted(view.faces.items())},
            "presentation": view.presentation,
            "text_steps": view.text_steps,
            "infoset": view.infoset,
            "side_tab": view.side_tab,
            "recorded": view.recorded,
            "compared": None if view.compared is None else list(view.compared),
            "joint": view.joint,
            "script": [list(profile) for profile in view.script],
            "tree_view": None if view.tree_view is None else _plain(dataclasses.asdict(view.tree_view)),
            "dynamics": view.dynamics,
            "dynamics_step": view.dynamics_step,
            "last_iterate": view.last_iterate,
        },
        **state,
    }


def write_session(session: Session, path: str | Path) -> None:
    """Write ``session`` to ``path`` atomically (a failed write leaves the old file)."""
    atomic_write_text(path, dumps_json(session_to_dict(session)) + "\n")


def session_config(game: Game, config: Config) -> Config:
    """What a session of ``game`` keeps of ``config``: the solver panel's settings (the
    family's choices and parameters), as reopening runs them."""
    family = family_of(game)
    return family.config(
        config.algorithm, **{name: getattr(config, name) for name in _options(family, config)}
    )


def _options(family: Family, config: Config) -> tuple[str, ...]:
    """The config fields a session stores: the family's choices and parameters."""
    fields = {f.name for f in dataclasses.fields(typing.cast(Any, config))}
    return tuple(name for name in family.choices + family.parameters if name in fields)


def _plain(value: Any) -> Any:
    """A config value as JSON: mappings with string keys, sequences as lists."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, np.generic):
        return _plain(value.item())
    if isinstance(value, float):
        return value + 0.0  # no -0.0
    return value


# -- reading -----------------------------------------------------------------------------------
def read_session(path: str | Path) -> Session:
    """The session in file ``path``; a :class:`~rmviz.errors.ReadError` naming the file and
    the problem when it is not one this rmviz can reopen. A file this rmviz reopens but
    replays differently from the run saved holds that in its ``notices``."""
    filename = str(path)
    text = read_text_file(path, "session file")
    return session_from_dict(parse_json(text, filename, "numbers"), filename)


def session_from_dict(data: Any, filename: str = "<session>") -> Session:
    """The session a dictionary in session-file form describes (see :func:`read_session`)."""
    version = check_header(data, filename, FORMAT_NAME, READABLE_VERSIONS, "session")
    if "game" not in data:
        raise ReadError(filename, 'the session holds no "game"')
    try:
        game = game_from_dict(data["game"], filename)
    except ReadError as error:
        raise ReadError(filename, f'its "game": {error.reason}', error.line) from None
    family = family_of(game)
    named = data.get("family", family.name)
    if _family_called(named) is not family:
        kinds = ", ".join(f.name for f in FAMILIES)
        raise ReadError(
            filename,
            f'"family" is {_shown(named)} but its game is a {family.name} game (families: {kinds})',
        )
    try:
        config = _config(family, _object(data, "solver", filename), filename)
        run = _object(data, "run", filename)
        view = _view(_object(data, "view", filename), game, family)
        iteration = _integer(run.get("iteration", 0), "run.iteration", 0, MAX_ITERATION)
        saved = None
        if data.get("state") is not None:
            try:
                # after a recorded Step 1 the run is saved as it was before it (SessionFiles)
                before = iteration - int(view.recorded and iteration > 0)
                saved = saved_run_from_dict(data["state"], before, MAX_SEED)
            except ValueError as error:
                raise _FieldError(str(error)) from None
        compared_runs = _compared_runs(data.get("compare_state"), family)
        return Session(
            game,
            config,
            iteration=iteration,
            points_per_decade=_integer(
                run.get("points_per_decade", 200), "run.points_per_decade", 1, MAX_POINTS_PER_DECADE
            ),
            speed=_optional(run.get("speed"), lambda v: _positive(v, "run.speed")),
            view=view,
            notices=_notices(version, family, config),
            saved=saved,
            compared_runs=compared_runs,
        )
    except ReadError:
        raise
    except RmvizError as error:
        raise ReadError(filename, str(error)) from None
    except _FieldError as error:
        raise ReadError(filename, str(error)) from None


def _compared_runs(data: Any, family: Family) -> dict[str, SavedRun]:
    """The ``compare_state`` object: algorithm -> its run (absent or null: none)."""
    if data is None:
        return {}
    if not isinstance(data, dict) or len(data) > len(family.presets):
        raise _FieldError("compare_state must be an object {algorithm: its run}")
    runs = {}
    for name, run in data.items():
        _choice(name, list(family.presets), "compare_state (an algorithm)")
        try:
            runs[name] = saved_run_from_dict(run, None, MAX_SEED, f"compare_state.{name}")
        except ValueError as error:
            raise _FieldError(str(error)) from None
    return runs


def _family_called(name: Any) -> Family | None:
    """The family a session's ``"family"`` names, or None."""
    try:
        return family_named(name) if isinstance(name, str) else None
    except ConfigError:
        return None


def _notices(version: int, family: Family, config: Config) -> tuple[str, ...]:
    """What replays differently from the saved run: a Monte-Carlo CFR run (one that draws
    from its seed) saved before its samples were drawn anew (version 1)."""
    if version < MONTE_CARLO_VERSION and family in RESAMPLED and config.uses_seed:
        return (MONTE_CARLO_NOTICE,)
    return ()


class _FieldError(Exception):
    """A field of the session that is not what it must be (the message names it)."""


def _object(data: dict[str, Any], key: str, filename: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ReadError(filename, f'"{key}" must be an object {{...}}, not {_shown(value)}')
    return value


def _config(family: Family, solver: dict[str, Any], filename: str) -> Config:
    """``family.config(algorithm, **options)`` with every option checked for its type."""
    algorithm = solver.get("algorithm", family.default_algorithm)
    if not isinstance(algorithm, str) or algorithm not in family.presets:
        raise _FieldError(
            f"solver.algorithm is {_shown(algorithm)}; {family.title} are solved by "
            f"{', '.join(family.presets)}"
        )
    options = solver.get("options", {})
    if not isinstance(options, dict):
        raise _FieldError(f"solver.options must be an object {{...}}, not {_shown(options)}")
    base = family.preset(algorithm)
    allowed = _options(family, base)
    hints = typing.get_type_hints(type(base))
    values: dict[str, Any] = {}
    for name, value in options.items():
        if name not in allowed:
            raise _FieldError(
                f"solver.options has {_shown(name)}; a session of {family.title} sets {', '.join(allowed)}"
            )
        values[name] = _typed(value, hints[name], f"solver.options.{name}")
    return family.config(algorithm, **values)


def _typed(value: Any, hint: Any, where: str, longest: int = MAX_LABEL) -> Any:
    """``value`` read as a config field of type ``hint`` (bool, int, float, str, a mapping
    from player to a list of numbers, or any of these or None)."""
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in arguments:
            return None
        (inner,) = [a for a in arguments if a is not type(None)]
        return _typed(value, inner, where, longest)
    if hint is bool:
        if not isinstance(value, bool):
            raise _FieldError(f"{where} must be true or false, not {_shown(value)}")
        return value
    if hint is int:  # the seed
        return _integer(value, where, 0, MAX_SEED)
    if hint is float:
        return _number(value, where)
    if hint is str:
        if not isinstance(value, str):
            raise _FieldError(f"{where} must be a string, not {_shown(value)}")
        if len(value) > longest:
            raise _FieldError(f"{where} is {len(value):,} characters long; at most {longest:,}")
        return value
    if origin is Mapping:
        if not isinstance(value, dict):
            raise _FieldError(f"{where} must be an object {{player: [probabilities]}}, not {_shown(value)}")
        strategies: dict[int, tuple[float, ...]] = {}
        for key, strategy in value.items():
            player = _index(key, f"{where} (a player)")
            if not isinstance(strategy, list):
                raise _FieldError(f"{where}.{key} must be a list of probabilities, not {_shown(strategy)}")
            strategies[player] = tuple(_number(p, f"{where}.{key}") for p in strategy)
        return strategies
    raise _FieldError(f"{where} cannot be set by a session file")


def _view(data: dict[str, Any], game: Game, family: Family) -> View:
    tab = _optional(data.get("tab"), lambda v: _choice(v, TABS, "view.tab"))
    faces_data = data.get("faces", {})
    if not isinstance(faces_data, dict):
        raise _FieldError(
            f"view.faces must be an object {{player: [three actions]}}, not {_shown(faces_data)}"
        )
    faces: dict[int, tuple[int, int, int]] = {}
    if faces_data and family.infosets:
        raise _FieldError("view.faces are the simplex faces of a matrix game; this is a game tree")
    for key, face in faces_data.items():
        player = _index(key, "view.faces (a player)")
        actions = typing.cast(Any, game).num_actions  # one strategy per player (the family says)
        if player >= len(actions):
            raise _FieldError(f"view.faces names player {player + 1}; the game has {len(actions)} players")
        if (
            not isinstance(face, list)
            or len(face) != 3
            or not all(isinstance(a, int) and not isinstance(a, bool) for a in face)
            or len(set(face)) != 3
            or not all(0 <= a < actions[player] for a in face)
        ):
            raise _FieldError(
                f"view.faces.{key} must be three different actions of player {player + 1} "
                f"(0 to {actions[player] - 1}), not {_shown(face)}"
            )
        faces[player] = (face[0], face[1], face[2])
    presentation = data.get("presentation", False)
    recorded = data.get("recorded", False)
    dynamics = data.get("dynamics", False)
    for name, flag in (("presentation", presentation), ("recorded", recorded), ("dynamics", dynamics)):
        if not isinstance(flag, bool):
            raise _FieldError(f"view.{name} must be true or false, not {_shown(flag)}")
    infoset = _optional(data.get("infoset"), lambda v: _typed(v, str, "view.infoset"))
    compared = _optional(data.get("compared"), lambda v: _algorithms(v, family, "view.compared"))
    joint = _optional(data.get("joint"), lambda v: _typed(v, str, "view.joint", MAX_JOINT))
    if joint is not None and family.infosets:
        raise _FieldError("view.joint is the Equilibria tab's joint of a matrix game; this is a game tree")
    script = _script(data.get("script", []), family)
    tree_view = _optional(data.get("tree_view"), lambda v: _tree_shown(v, game, family))
    last_iterate = data.get("last_iterate")
    if last_iterate is not None and not isinstance(last_iterate, bool):
        raise _FieldError(f"view.last_iterate must be true, false or null, not {_shown(last_iterate)}")
    step = _optional(data.get("dynamics_step"), lambda v: _number(v, "view.dynamics_step"))
    if step is not None and not 0 < step < math.inf:
        raise _FieldError("view.dynamics_step must be a positive number")
    return View(
        tab=tab,
        faces=faces,
        presentation=presentation,
        text_steps=_integer(data.get("text_steps", 0), "view.text_steps", -MAX_TEXT_STEPS, MAX_TEXT_STEPS),
        infoset=infoset,
        side_tab=_optional(data.get("side_tab"), lambda v: _choice(v, SIDE_TABS, "view.side_tab")),
        recorded=recorded,
        compared=compared,
        joint=joint,
        script=script,
        tree_view=tree_view,
        dynamics=dynamics,
        dynamics_step=step,
        last_iterate=last_iterate,
    )


def _tree_shown(value: Any, game: Game, family: Family) -> TreeShown:
    """``view.tree_view``: numbers checked, node numbers of the session's tree."""
    if not family.infosets:
        raise _FieldError("view.tree_view is the tree window's view; this is a matrix game")
    if not isinstance(value, dict):
        raise _FieldError(f"view.tree_view must be an object {{zoom, centre, ...}}, not {_shown(value)}")
    zoom = _number(value.get("zoom", 1.0), "view.tree_view.zoom")
    if not 1e-6 <= zoom <= 1e6:
        raise _FieldError("view.tree_view.zoom must be from 1e-6 to 1e6")
    centre = value.get("centre", [0.0, 0.0])
    if not isinstance(centre, list) or len(centre) != 2:
        raise _FieldError("view.tree_view.centre must be a list of two numbers")
    nodes = typing.cast(Any, game).n_nodes

    def node_list(key: str) -> tuple[int, ...]:
        listed = value.get(key, [])
        if not isinstance(listed, list) or len(listed) > nodes:
            raise _FieldError(f"view.tree_view.{key} must be a list of the tree's node numbers")
        return tuple(_integer(h, f"view.tree_view.{key}", 0, nodes - 1) for h in listed)

    flags = {key: value.get(key, False) for key in ("whole", "zoomed")}
    for key, flag in flags.items():
        if not isinstance(flag, bool):
            raise _FieldError(f"view.tree_view.{key} must be true or false, not {_shown(flag)}")
    return TreeShown(
        zoom=zoom,
        centre=(_number(centre[0], "view.tree_view.centre"), _number(centre[1], "view.tree_view.centre")),
        whole=flags["whole"],
        collapsed=node_list("collapsed"),
        opened=node_list("opened"),
        zoomed=flags["zoomed"],
    )


def _script(value: Any, family: Family) -> tuple[tuple[str, ...], ...]:
    """The Step tab's draws: a list (one per iteration) of lists of action names or "draw"
    (whether the names fit the game is checked when the window shows them)."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_SCRIPT:
        raise _FieldError(f"view.script must be a list of at most {MAX_SCRIPT:,} iterations' draws")
    if value and family.infosets:
        raise _FieldError("view.script holds the Step tab's draws of a matrix game; this is a game tree")
    script = []
    for t, profile in enumerate(value, start=1):
        if not isinstance(profile, list) or not 1 <= len(profile) <= 8:
            raise _FieldError(f"view.script, iteration {t}, must be a list of each player's action")
        script.append(tuple(_typed(name, str, f"view.script, iteration {t}") for name in profile))
    return tuple(script)


def _algorithms(value: Any, family: Family, where: str) -> tuple[str, ...]:
    """A list of different algorithm names of ``family``."""
    if not isinstance(value, list):
        raise _FieldError(f"{where} must be a list of algorithm names, not {_shown(value)}")
    names = tuple(_choice(name, list(family.presets), where) for name in value)
    if len(set(names)) != len(names):
        raise _FieldError(f"{where} names an algorithm twice: {_shown(value)}")
    return names


def _optional(value: Any, read: Any) -> Any:
    return None if value is None else read(value)


def _choice(value: Any, choices: Sequence[str], where: str) -> str:
    if value not in choices:
        raise _FieldError(f"{where} is {_shown(value)}; choose one of {', '.join(choices)}")
    return str(value)


def _integer(value: Any, where: str, low: int, high: int) -> int:
    """A JSON whole number from ``low`` to ``high`` (exact: no float, no boolean)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _FieldError(f"{where} must be a whole number from {low:,} to {high:,}, not {_shown(value)}")
    return value


def _index(key: Any, where: str) -> int:
    """A player number written as a JSON object key (``"0"``), 0 to 7."""
    if not isinstance(key, str) or not key.isdigit() or len(key) > 18 or int(key) > 7:
        raise _FieldError(f"{where} must be a player number from 0 to 7, not {_shown(key)}")
    return int(key)


def _number(value: Any, where: str) -> float:
    """A finite JSON number (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _FieldError(f"{where} must be a number, not {_shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise _FieldError(f"{where} is too large") from None
    if not math.isfinite(number):
        raise _FieldError(f"{where} must be a finite number")
    return number


def _positive(value: Any, where: str) -> float:
    number = _number(value, where)
    if number <= 0:
        raise _FieldError(f"{where} must be positive (iterations per second), or null for full speed")
    return number


def _shown(value: Any) -> str:
    """A value in a message: its JSON text, cut to 40 characters."""
    try:
        text = dumps_json(value, indent=None)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = [
    "FORMAT_VERSION",
    "MONTE_CARLO_NOTICE",
    "SUFFIX",
    "Session",
    "TreeShown",
    "View",
    "is_session_file",
    "read_session",
    "session_config",
    "session_from_dict",
    "session_path",
    "session_to_dict",
    "write_session",
]
