"""Lecture decks: an ordered list of slides, each a run shown as a session (docs/deck-format.md).

A deck is a TOML file (read with :mod:`tomllib`, as sweep configs are); each ``[[slide]]``
has a ``title``, optional ``notes`` and either ``session = "FILE.rmviz-session.json"``
(relative to the deck) or ``game = "rps"`` with ``algorithm``, ``iterations``, ``tab``,
``infoset`` and an ``[slide.options]`` table of solver options. Every slide becomes a
:class:`~rmviz.runner.session.Session` when the deck is read, so every field, game and
session is checked before anything is shown: a bad deck is one :class:`ReadError` naming the
file, the slide and the field. Writing (:mod:`rmviz.runner.deck_writer`) is atomic.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rmviz.errors import ConfigError, ReadError, RmvizError
from rmviz.formats import Game, load_game
from rmviz.formats.files import read_toml_file, regular_file_size
from rmviz.games.normal_form import NormalFormGame
from rmviz.runner.record import record_traces
from rmviz.runner.session import MAX_ITERATION, MAX_TEXT_STEPS, SIDE_TABS, TABS, Session, View, read_session
from rmviz.runner.trace import SavedRun, Trace
from rmviz.solvers.family import Family
from rmviz.solvers.matrix.correlated import check_joint, joint_tokens
from rmviz.solvers.matrix.script import Profile, parse_script, profile_names, step_scripted
from rmviz.solvers.matrix.solver import RegretMinimizer
from rmviz.solvers.registry import family_of
from rmviz.solvers.tree.compiled_tree import compile_tree

MAX_DECK_BYTES = 1024**2  # a deck is text written by hand: a megabyte is a long lecture
MAX_SLIDES = 500
MAX_TITLE = 200  # characters of a slide's title
MAX_NOTES = 20_000  # characters of a slide's speaker notes
DECK_KEYS = ("title", "slide")
SESSION_KEYS = ("title", "notes", "session")
GAME_KEYS: tuple[str, ...] = ("title", "notes", "game", "algorithm", "iterations", "tab", "infoset")
GAME_KEYS += ("side_tab", "recorded", "compared", "joint", "script", "text_steps", "options")
MAX_SCRIPTED = 100_000  # iterations of a scripted slide, run when the deck is read


@dataclass(frozen=True)
class Slide:
    """One slide: its ``title``, speaker ``notes`` and the ``session`` it shows (read from
    ``source`` for a session slide, built from the slide's fields otherwise)."""

    title: str
    notes: str
    session: Session
    source: Path | None = None


@dataclass(frozen=True)
class Deck:
    """The slides in order, the deck's ``title`` and the file it was read from."""

    slides: tuple[Slide, ...]
    title: str = ""
    path: Path | None = None


class _SlideError(Exception):
    """A field of a slide that is not what it must be (the message names the field)."""


def read_deck(path: str | Path) -> Deck:
    """The deck in TOML file ``path``, every slide checked and built (module docstring)."""
    path = Path(path)
    size = regular_file_size(path, "deck file")
    if size > MAX_DECK_BYTES:
        raise ReadError(str(path), f"is {size:,} bytes; a deck file is at most {MAX_DECK_BYTES:,}")
    return deck_from_dict(read_toml_file(path, "deck file"), path)


def deck_from_dict(data: Mapping[str, Any], path: Path) -> Deck:
    """The deck a mapping shaped like the TOML file describes; files are found beside ``path``."""
    filename = str(path)
    unknown = sorted(set(data) - set(DECK_KEYS))
    if unknown:
        raise ReadError(filename, f"unknown key {unknown[0]!r}; a deck has {', '.join(DECK_KEYS)}")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        raise ReadError(filename, f"title must be a string of at most {MAX_TITLE} characters")
    slides = data.get("slide")
    if not isinstance(slides, list) or not slides or not all(isinstance(s, dict) for s in slides):
        raise ReadError(filename, "a deck needs its slides: one [[slide]] table each")
    if len(slides) > MAX_SLIDES:
        raise ReadError(filename, f"has {len(slides):,} slides; a deck has at most {MAX_SLIDES}")
    games: dict[str, Game] = {}  # a game named on several slides is read once
    built = []
    for number, slide in enumerate(slides, 1):
        named = f"slide {number}"
        if isinstance(slide.get("title"), str) and slide["title"].strip():
            named += f" ({slide['title'][:40]!r})"
        try:
            built.append(_slide(slide, path.parent, games))
        except _SlideError as error:
            raise ReadError(filename, f"{named}: {error}") from None
        except RmvizError as error:
            raise ReadError(filename, f"{named}: {error}") from None
    return Deck(tuple(built), title, path)


def _slide(data: dict[str, Any], folder: Path, games: dict[str, Game]) -> Slide:
    title = _text(data.get("title"), "title", MAX_TITLE, required=True)
    notes = _text(data.get("notes", ""), "notes", MAX_NOTES)
    if ("session" in data) == ("game" in data):
        raise _SlideError('give either session = "FILE.rmviz-session.json" or game = "..." (not both)')
    keys = SESSION_KEYS if "session" in data else GAME_KEYS
    unknown = sorted(set(data) - set(keys))
    if unknown:
        kind = "a session slide" if "session" in data else "a game slide"
        raise _SlideError(f"unknown key {unknown[0]!r}; {kind} has {', '.join(keys)}")
    if "session" in data:
        source = folder / _text(data["session"], "session", 4096, required=True)
        session = read_session(source)
        return Slide(title, notes, session, source)
    return Slide(title, notes, _game_session(data, folder, games))


def _game_session(data: dict[str, Any], folder: Path, games: dict[str, Game]) -> Session:
    """The session a game slide describes: its game, algorithm and options, run to
    ``iterations``, shown in presentation mode on ``tab``."""
    spec = _text(data["game"], "game", 4096, required=True)
    if spec not in games:
        games[spec] = load_game(spec if _is_named(spec) else str(folder / spec))
    game = games[spec]
    family = family_of(game)
    algorithm = data.get("algorithm", family.default_algorithm)
    if algorithm not in family.presets:
        raise _SlideError(
            f"algorithm is {algorithm!r}; {family.title} are solved by {', '.join(family.presets)}"
        )
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _SlideError("options must be a table ([slide.options] with key = value lines)")
    config = family.config(algorithm, **_options(family, algorithm, options))
    tab = data.get("tab", "run")
    if tab not in TABS:
        raise _SlideError(f"tab is {tab!r}; choose one of {', '.join(TABS)}")
    view = View(
        tab=tab,
        presentation=True,
        text_steps=_integer(data.get("text_steps", 0), "text_steps", -MAX_TEXT_STEPS, MAX_TEXT_STEPS),
        infoset=_infoset(data.get("infoset"), game, family),
        side_tab=_choice(data.get("side_tab"), SIDE_TABS, "side_tab"),
        recorded=_recorded(data.get("recorded", False), family),
        compared=_compared(data.get("compared"), family),
        joint=_joint(data.get("joint"), game, family),
    )
    iteration = _integer(data.get("iterations", 0), "iterations", 0, MAX_ITERATION)
    if "script" not in data:
        return Session(game, config, iteration, view=view)
    profiles = _script(data["script"], game, family)
    iteration = max(iteration, len(profiles))
    if iteration > MAX_SCRIPTED:
        raise _SlideError(f"a scripted slide runs at most {MAX_SCRIPTED:,} iterations, not {iteration:,}")
    names = [tuple(profile_names(typing.cast(NormalFormGame, game), p)) for p in profiles]
    view = dataclasses.replace(view, script=tuple(names))
    return Session(game, config, iteration, view=view, saved=_scripted_run(game, config, profiles, iteration))


def _script(value: Any, game: Game, family: Family) -> list[Profile]:
    """A slide's ``script``: the Step tab's draws as ``rmviz step --actions`` writes them."""
    if family.infosets:
        raise _SlideError("script chooses the Step tab's draws of a matrix game; this is a game tree")
    text = _text(value, "script", 1_000_000, required=True)
    try:
        return parse_script(typing.cast(NormalFormGame, game), text)
    except ConfigError as error:
        raise _SlideError(f"script: {error}") from None


def _scripted_run(game: Game, config: Any, profiles: list[Profile], iterations: int) -> SavedRun:
    """The run a scripted slide shows, made when the deck is read: each iteration of the
    script draws what it says (:mod:`rmviz.solvers.matrix.script`, as the Step tab does),
    the rest at random, the trace kept on the window's grid; so the slide opens with the
    lecture's own table, exactly."""
    solver = family_of(game).solver(game, config)
    trace = Trace(solver.columns)
    try:
        for profile in profiles:
            step_scripted(typing.cast(RegretMinimizer, solver), profile)
            trace.add(solver.iteration, solver.snapshot(metrics=True).trace_values())
    except ConfigError as error:  # sampled play with simultaneous updates only
        raise _SlideError(f'script: {error} ([slide.options] play = "sampled")') from None
    record_traces(solver, iterations, [trace])
    return SavedRun(dataclasses.replace(solver.checkpoint(), elapsed=0.0), *trace.kept())


def _is_named(spec: str) -> bool:
    """Whether ``spec`` names a game without a file (a catalog id, ``random:`` and the like)."""
    from rmviz.games.catalog import CATALOG

    return spec in CATALOG or spec.split(":", 1)[0] in ("random", "openspiel", "reduced")


def _options(family: Family, algorithm: str, options: dict[str, Any]) -> dict[str, Any]:
    """The slide's solver options checked by name and type against the preset's config (the
    options a session stores: the family's choices and parameters)."""
    base = family.preset(algorithm)
    fields = {f.name for f in dataclasses.fields(typing.cast(Any, base))}
    allowed = [name for name in family.choices + family.parameters if name in fields]
    hints = typing.get_type_hints(type(base))
    checked = {}
    for name, value in options.items():
        if name not in allowed:
            raise _SlideError(f"options has {name!r}; {family.title} take {', '.join(allowed)}")
        checked[name] = _typed(value, hints[name], f"options.{name}")
    return checked


def _typed(value: Any, hint: Any, where: str) -> Any:
    """``value`` as a config field of type ``hint`` (TOML has no null: an option left out
    takes the preset's value)."""
    arguments = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) is not Mapping and len(arguments) == 1:
        hint = arguments[0]  # X | None
    if hint is bool and not isinstance(value, bool):
        raise _SlideError(f"{where} must be true or false, not {value!r}")
    if hint is int:
        return _integer(value, where, 0, 2**63 - 1)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _SlideError(f"{where} must be a number, not {value!r}")
        return float(value)
    if hint is str and not isinstance(value, str):
        raise _SlideError(f"{where} must be a string, not {value!r}")
    if typing.get_origin(hint) is Mapping:
        return _strategies(value, where)
    return value


def _strategies(value: Any, where: str) -> dict[int, tuple[float, ...]]:
    """A table of strategies by player, ``{"0" = [0.5, 0.25, 0.25]}``."""
    if not isinstance(value, dict):
        raise _SlideError(f'{where} must be a table of strategies by player ({{"0" = [0.5, 0.5]}})')
    strategies = {}
    for key, strategy in value.items():
        if not key.isdecimal() or int(key) > 7:
            raise _SlideError(f"{where}: players are numbered 0 to 7, not {key!r}")
        if not isinstance(strategy, list) or not all(
            isinstance(p, int | float) and not isinstance(p, bool) for p in strategy
        ):
            raise _SlideError(f"{where}.{key} must be a list of probabilities, not {strategy!r}")
        strategies[int(key)] = tuple(float(p) for p in strategy)
    return strategies


def _infoset(value: Any, game: Game, family: Family) -> str | None:
    """An information set's label, which the tree must have."""
    if value is None:
        return None
    if not family.infosets:
        raise _SlideError("infoset names an information set of a game tree; this is a matrix game")
    labels = list(compile_tree(typing.cast(Any, game)).infoset_label)
    if value not in labels:
        shown = ", ".join(labels[:20]) + (", ..." if len(labels) > 20 else "")
        raise _SlideError(f"infoset is {value!r}; the tree's information sets are {shown}")
    return str(value)


def _recorded(value: Any, family: Family) -> bool:
    """Whether the last iteration is recorded (the tree window's *Step 1*: its numbers on
    the tree and the information set's update explained)."""
    if not isinstance(value, bool):
        raise _SlideError(f"recorded must be true or false, not {value!r}")
    if value and not family.infosets:
        raise _SlideError("recorded shows a game tree's last iteration step by step; this is a matrix game")
    return value


def _joint(value: Any, game: Game, family: Family) -> str | None:
    """The joint distribution typed into the *Equilibria* tab's CE checker (a matrix game's
    profiles in order, comma-separated), checked as the checker checks it."""
    if value is None:
        return None
    if family.infosets:
        raise _SlideError(
            "joint is a matrix game's joint distribution (the Equilibria tab); this is a game tree"
        )
    text = _text(value, "joint", 1_000_000)
    try:
        check_joint(typing.cast(Any, game), joint_tokens(text))
    except RmvizError as error:
        raise _SlideError(f"joint: {error}") from None
    return text


def _compared(value: Any, family: Family) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(v in family.presets for v in value):
        raise _SlideError(
            f"compared must be a list of {family.title}' algorithms: {', '.join(family.presets)}"
        )
    if len(set(value)) != len(value):
        raise _SlideError(f"compared names an algorithm twice: {value!r}")
    return tuple(value)


def _choice(value: Any, choices: tuple[str, ...], where: str) -> str | None:
    if value is not None and value not in choices:
        raise _SlideError(f"{where} is {value!r}; choose one of {', '.join(choices)}")
    return value


def _text(value: Any, where: str, limit: int, required: bool = False) -> str:
    if not isinstance(value, str) or (required and not value.strip()):
        raise _SlideError(f"{where} must be a{' non-empty' if required else ''} string, not {value!r}")
    if len(value) > limit:
        raise _SlideError(f"{where} is {len(value):,} characters long; at most {limit:,}")
    return value


def _integer(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _SlideError(f"{where} must be a whole number from {low:,} to {high:,}, not {value!r}")
    return value
