"""argparse as every rmviz command line uses it: the subcommands (:mod:`rmviz.cli`) and the
window's options (:mod:`rmviz.ui.options`). No Qt, so ``rmviz --help`` works where Qt cannot
load.

:class:`Parser` turns every mistake argparse finds into one line on stderr and exit status
:data:`EXIT_USAGE` (argparse's own prints a usage block first); the argument types here raise
:class:`argparse.ArgumentTypeError`, which it reports so.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, NoReturn

from rmviz.errors import one_line

EXIT_USAGE = 2
# what names a game on every command line (rmviz.formats.load_game reads them)
GAME_HELP = (
    "a catalog id (rmviz games lists them), a file (.json, .nfg, .efg), random:KIND:SHAPE[:seed=N], "
    "openspiel:NAME(PARAMS) or reduced:TREE (a game tree's reduced strategic form, a matrix game)"
)


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr and exit status 2, like every other mistake
    a person can make on the command line (argparse's own prints a usage block first)."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(one_line(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")
        raise SystemExit(EXIT_USAGE)

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        """argparse's, refusing ``--`` as an option's own value (``--seed=--``, ``-n=--``,
        ``-n--``): Python 3.11's argparse takes it for the end of the options and gives the
        option an empty list, past every type check (a TypeError; issue 33)."""
        if action.option_strings and action.nargs in (None, argparse.OPTIONAL) and arg_strings == ["--"]:
            names = "/".join(action.option_strings)
            self.error(f"argument {names}: expected one argument, not '--' (it ends the options)")
        return super()._get_values(action, arg_strings)


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None


def finite_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text[:40]} is not a finite number")
    return value


INCHES_PER = {"cm": 1 / 2.54, "mm": 1 / 25.4, "in": 1.0, "pt": 1 / 72.27}  # TeX's points


def length_inches(text: str) -> float:
    """A positive length with its unit (``10.8cm``, ``120mm``, ``4.25in``, ``300pt``; a bare
    number is centimetres) in inches."""
    unit = next((u for u in INCHES_PER if text.strip().endswith(u)), "")
    value = finite_float(text.strip()[: len(text.strip()) - len(unit)] if unit else text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a positive length")
    return value * INCHES_PER.get(unit, INCHES_PER["cm"])
