"""Presets: named configurations of one family, with a person's overrides applied."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any, TypeVar

from rmviz.errors import ConfigError

PresetTable = Mapping[str, tuple[str, Mapping[str, Any]]]  # name -> (description, config fields)
C = TypeVar("C")


def from_preset(
    config_type: type[C], presets: PresetTable, name: str, overrides: Mapping[str, Any], what: str
) -> C:
    """``config_type(algorithm=name, **preset fields, **overrides)``, validated; overrides that
    are ``None`` are ignored; an unknown name is a :class:`ConfigError` listing ``what`` there is."""
    if name not in presets:
        raise ConfigError(f"unknown {what} {name!r}; choose one of {', '.join(presets)}")
    fields = {**presets[name][1], **{k: v for k, v in overrides.items() if v is not None}}
    names = {f.name for f in dataclasses.fields(config_type)}  # type: ignore[arg-type]
    unknown = sorted(set(fields) - names)
    if unknown:
        raise ConfigError(f"{name} has no option {unknown[0]!r}")
    return config_type(algorithm=name, **fields).validated()  # type: ignore[attr-defined,call-arg]


def check_numbers(config: Any, names: Iterable[str]) -> None:
    """Refuse, naming the field, a value of ``config``'s numerical fields ``names`` that is not a
    real number (a string, a list, a table or a bool from a file or a call: comparisons with
    it ended in TypeError); ``None`` (a default) passes."""
    for name in names:
        value = getattr(config, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, Real)):
            raise ConfigError(f"{name} must be a number, not {_quoted(value)}")


def check_finite(config: Any, names: Iterable[str]) -> None:
    """Refuse, naming the field, an infinite or NaN value of ``config``'s fields ``names``: the
    one check and message of both families' configs, and so of the CLI and the solver panel."""
    for name in names:
        if not math.isfinite(getattr(config, name)):
            raise ConfigError(f"{name} must be a finite number")


def check_strategies(value: Any, what: str) -> None:
    """Refuse what cannot be ``{player number: [probability, ...]}`` (``what``: "start",
    "fixed_strategies"); the game checks the rest (players, lengths, sums) when it is known."""
    if not isinstance(value, Mapping):
        raise ConfigError(f"{what} must map player numbers to strategies, not {_quoted(value)}")
    for player, strategy in value.items():
        if not _number(player, Integral):
            raise ConfigError(f"{what}: players are numbered 0, 1, ...; got {_quoted(player)}")
        # a list, a tuple or a one-dimensional NumPy array of numbers (the notebook's idiom)
        numbers = (isinstance(strategy, Sequence) and not isinstance(strategy, str)) or (
            getattr(strategy, "ndim", None) == 1 and getattr(strategy, "dtype", None) is not None
        )
        if not numbers or not all(_number(p, Real) for p in strategy):
            raise ConfigError(f"{what} of player {player}: a list of probabilities, not {_quoted(strategy)}")


def _number(value: Any, kind: type) -> bool:
    """Whether ``value`` is a number of ``kind`` (NumPy's included), not a truth value."""
    return isinstance(value, kind) and not isinstance(value, bool) and type(value).__name__ != "bool_"


def _quoted(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
