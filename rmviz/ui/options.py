"""The window's command line, ``rmviz [GAME] [window options]``, without importing Qt.

:func:`app_parser` reads it (``rmviz.ui.app``); :func:`window_help` is the same options as
text for ``rmviz --help`` (``rmviz.cli``), which must work where Qt cannot load.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

USAGE = "rmviz [GAME] [window options]"
DEFAULT_GAME = "rps-crash"


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


def app_parser(standalone: bool = True) -> argparse.ArgumentParser:
    """The window's options; ``standalone=False``: only the arguments (no usage, description
    or ``--help``), to be shown inside another help text."""
    parser = argparse.ArgumentParser(
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
        help="a catalog id (rmviz games), a .json/.nfg/.efg file, random:KIND:SHAPE, "
        "or a session file (.rmviz-session.json: the game, settings and iteration saved)",
    )
    parser.add_argument(
        "--screenshot", type=Path, metavar="FILE", help="save a PNG of the whole window, then quit"
    )
    parser.add_argument(
        "--after",
        type=float,
        default=2.0,
        metavar="SECONDS",
        help="seconds of solving before the screenshot (counted once the solvers are ready; default 2)",
    )
    parser.add_argument(
        "--compare", action="store_true", help="open compare mode with every algorithm running"
    )
    parser.add_argument("--presentation", action="store_true", help="start in presentation mode")
    parser.add_argument(
        "--size",
        type=window_size,
        metavar="WxH",
        help="the window's size in pixels, e.g. 1280x720 (presentation mode keeps it, not full screen)",
    )
    parser.add_argument(
        "--steps", type=int, default=0, metavar="N", help="game trees: recorded CFR iterations to show first"
    )
    parser.add_argument("--run", action="store_true", help="game trees: start running CFR")
    parser.add_argument(
        "--infoset", metavar="LABEL", help="game trees: the information set shown in the panel"
    )
    return parser


def window_help() -> str:
    """The window's arguments and options as help text (no usage line)."""
    text = app_parser(standalone=False).format_help().strip("\n")
    return text.replace("positional arguments:", "the window (plain rmviz):", 1).replace(
        "options:", "window options:", 1
    )
