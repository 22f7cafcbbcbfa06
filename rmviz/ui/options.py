"""The window's command line, ``rmviz [GAME] [window options]``, without importing Qt.

:func:`parse_window_args` reads it (``rmviz.ui.app``) with :func:`app_parser`, whose errors
are one line and exit status 2 like the subcommands' (:class:`rmviz.arguments.Parser`);
:func:`window_help` is the same options as text for ``rmviz --help`` (``rmviz.cli``), which
must work where Qt cannot load.

Everything that can be checked before the game is read is checked here, before any solving
or window: ``--after`` is 0 to :data:`MAX_AFTER` seconds and needs ``--screenshot``,
``--steps`` is 0 to :data:`MAX_STEPS`, and the screenshot's folder exists and can be written
and its suffix is an image format (:data:`SCREENSHOT_SUFFIXES`). Once the game is read,
:func:`family_problem` refuses the options its family has no use for.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from rmviz.arguments import GAME_HELP, Parser, finite_float, whole_number
from rmviz.errors import ConfigError
from rmviz.present.definitions import FIGURE_NAMES

USAGE = "rmviz [GAME] [window options]"
DEFAULT_GAME = "rps-crash"
DEFAULT_AFTER = 2.0
MAX_AFTER = 3600.0  # an hour of solving before a screenshot; a longer run is rmviz export's
MAX_STEPS = 100  # recorded iterations shown first (the last is drawn: Leduc's 100 take ~4 s)
SCREENSHOT_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


def figure_export(text: str) -> tuple[str, Path]:
    """``--export FIGURE=FILE``: a figure's name (``rmviz export --figure``'s) and a file in a
    folder that exists; the figure's formats are checked when it is written, before writing."""
    name, equals, file = text.partition("=")
    if not equals or not file:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give FIGURE=FILE, e.g. gaps=gaps.svg")
    if name not in FIGURE_NAMES:
        raise argparse.ArgumentTypeError(
            f"{name[:40]!r} is no figure; choose one of {', '.join(FIGURE_NAMES)}"
        )
    path = Path(file)
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {file[:200]}: no folder {path.parent}")
    return name, path


def pixel_size(low: int, high: int) -> Callable[[str], tuple[int, int]]:
    """An argparse type for ``WIDTHxHEIGHT`` in pixels, each from ``low`` to ``high``
    (the window's ``--size`` and ``rmviz export --size``)."""

    def parse(text: str) -> tuple[int, int]:
        try:
            width, height = (int(part) for part in text.lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a size like 1280x720") from None
        if not (low <= width <= high and low <= height <= high):
            raise argparse.ArgumentTypeError(f"{text!r}: width and height must be {low} to {high} pixels")
        return width, height

    return parse


window_size = pixel_size(200, 10_000)
# --screenshot's and --export's window without --size: a projector's size, not the offscreen
# platform's 800x600 screen, where the run panel was clipped ("j..." for the joint's title)
HEADLESS_SIZE = (1280, 720)


def after_seconds(text: str) -> float:
    """``--after``: a finite number of seconds from 0 to :data:`MAX_AFTER`."""
    value = finite_float(text)
    if not 0 <= value <= MAX_AFTER:
        raise argparse.ArgumentTypeError(f"{text[:40]}: seconds must be from 0 to {MAX_AFTER:.0f}")
    return value


def step_count(text: str) -> int:
    """``--steps``: a whole number from 0 to :data:`MAX_STEPS`."""
    value = whole_number(text)
    if not 0 <= value <= MAX_STEPS:
        raise argparse.ArgumentTypeError(f"{text[:40]}: recorded iterations must be from 0 to {MAX_STEPS}")
    return value


def positive_step(text: str) -> float:
    """``--field-step``: a step the view can draw (:func:`~rmviz.present.dynamics.check_drawn_step`)."""
    from rmviz.present.dynamics import check_drawn_step

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    try:
        return check_drawn_step(value)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def screenshot_file(text: str) -> Path:
    """``--screenshot``: an image file rmviz can write, checked before anything runs (its
    folder exists and is writable, the suffix is one of :data:`SCREENSHOT_SUFFIXES`)."""
    path = Path(text)
    if path.suffix.lower() not in SCREENSHOT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"{text[:200]}: the window is saved as {', '.join(SCREENSHOT_SUFFIXES)}"
        )
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text[:200]}: no folder {folder}")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text[:200]}: it is a folder")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text[:200]}: permission denied")
    return path


def app_parser(standalone: bool = True) -> argparse.ArgumentParser:
    """The window's options; ``standalone=False``: only the arguments (no usage, description
    or ``--help``), to be shown inside another help text."""
    parser = Parser(
        prog="rmviz",
        usage=USAGE if standalone else argparse.SUPPRESS,
        description=f"Open the rmviz desktop app on GAME (default {DEFAULT_GAME})." if standalone else None,
        add_help=standalone,
    )
    parser.add_argument(
        "game",
        nargs="?",
        default=DEFAULT_GAME,
        metavar="GAME",
        help=f"{GAME_HELP}, or a session file (.rmviz-session.json: the game, settings and iteration saved)",
    )
    parser.add_argument(
        "--screenshot",
        type=screenshot_file,
        metavar="FILE",
        help="save a PNG (or .jpg, .bmp) of the whole window, then quit; the folder must exist",
    )
    parser.add_argument(
        "--export",
        type=figure_export,
        action="append",
        metavar="FIGURE=FILE",
        help="write a figure of the window's run as File > Export figure does (.png, .svg, .pdf; "
        "tikz: .tex), then quit; repeatable, with or without --screenshot",
    )
    parser.add_argument(
        "--after",
        type=after_seconds,
        default=None,
        metavar="SECONDS",
        help=f"seconds of solving before the screenshot or export, 0 to {MAX_AFTER:.0f} (counted once the "
        f"solvers are ready and a session has re-run; default {DEFAULT_AFTER:g}); a game tree, which "
        "opens paused, runs (as with --run) unless --steps is given",
    )
    parser.add_argument(
        "--compare", action="store_true", help="open compare mode with the family's usual algorithms running"
    )
    parser.add_argument("--presentation", action="store_true", help="start in presentation mode")
    parser.add_argument(
        "--size",
        type=window_size,
        metavar="WxH",
        help="the window's size in pixels, e.g. 1920x1080 (presentation mode keeps it, not full screen; "
        f"with --screenshot or --export, {HEADLESS_SIZE[0]}x{HEADLESS_SIZE[1]} by default)",
    )
    parser.add_argument(
        "--steps",
        type=step_count,
        default=None,
        metavar="N",
        help=f"game trees: recorded CFR iterations to show first (0 to {MAX_STEPS})",
    )
    parser.add_argument("--run", action="store_true", help="game trees: start running CFR")
    parser.add_argument(
        "--infoset", metavar="LABEL", help="game trees: the information set shown in the panel"
    )
    parser.add_argument(
        "--field",
        action="store_true",
        help="matrix games: draw the field of the algorithm's continuous-time dynamic under the "
        "simplex (the view's Dynamics box)",
    )
    parser.add_argument(
        "--field-step",
        type=positive_step,
        default=None,
        metavar="ETA",
        help="matrix games, with --field: the algorithm's steps of size ETA beside the flow",
    )
    return parser


def parse_window_args(argv: Sequence[str]) -> argparse.Namespace:
    """The window's options from ``argv``, every check that needs no game done (an error is one
    line on stderr and exit status 2); ``after`` is set (:data:`DEFAULT_AFTER` by default)."""
    parser = app_parser()
    args = parser.parse_args(argv)
    if args.after is not None and args.screenshot is None and not args.export:
        parser.error("--after counts the seconds before --screenshot FILE or --export: give both")
    # seconds of solving asked for: a game tree, which opens paused, runs (not its --steps)
    args.solving = args.after is not None and args.steps is None
    if args.after is None:
        args.after = DEFAULT_AFTER
    return args


class Titled(Protocol):
    """A game family as this module needs it (:class:`rmviz.solvers.family.Family`, which
    it does not import: the start-up parses its options before loading any solver)."""

    @property
    def title(self) -> str: ...


def family_problem(
    args: argparse.Namespace, family: Titled, window_options: Mapping[Titled, Sequence[str]]
) -> str | None:
    """Why the options in ``args`` (from :func:`parse_window_args`) do not fit a game of
    ``family``, or None: an option that another family's window alone uses
    (``window_options``: each family's, :data:`rmviz.ui.app.WINDOW_OPTIONS`) is an error naming
    both families by their titles, not ignored."""
    owners = {option: owner for owner, options in window_options.items() for option in options}
    given = [option for option in owners if getattr(args, option[2:].replace("-", "_")) not in (None, False)]
    foreign = [option for option in given if owners[option] is not family]
    if not foreign:
        return None
    wanted = sorted({owners[option].title for option in foreign})
    verb = "is" if len(foreign) == 1 else "are"
    names = ", ".join(foreign)
    return f"{names} {verb} for {' and '.join(wanted)} only; {args.game} is one of the {family.title}"


def window_help() -> str:
    """The window's arguments and options as help text (no usage line)."""
    text = app_parser(standalone=False).format_help().strip("\n")
    return text.replace("positional arguments:", "the window (plain rmviz):", 1).replace(
        "options:", "window options:", 1
    )
