"""Presets: named configurations of one family, with a person's overrides applied."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
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
