"""A run's configuration as JSON, said once: ``rmviz solve --json`` (its ``config``) and
run data files (:func:`rmviz.runner.record.run_metadata`) write this record.

Every field of the run's config, so the record re-runs it (its algorithm with the options
among its fields a person sets: ``rmviz.solve(game, record["algorithm"], **options)``):
what a person left to its default is written as the solver resolved it (a
matrix game's starting profile: the catalog's for a catalog game, else uniform; the greedy
weights' floor), a parameter the algorithm does not use as null, and players are numbered
as the Python API numbers them, from 0.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from rmviz.solvers.family import PARAMETER_LABELS


def plain(value: Any) -> Any:
    """A config field as JSON: mappings with string keys, sequences and arrays as lists."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def config_record(config: Any, **resolved: Any) -> dict[str, Any]:
    """Every field of ``config`` (a dataclass) as JSON, the ``resolved`` values in place of
    theirs, and null for the numerical parameters its algorithm does not use (RM's record
    had discounted RM's alpha = 1.5, which it never read)."""
    fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    unused = {name: None for name in PARAMETER_LABELS if name in fields and name not in config.parameters()}
    return {name: plain(value) for name, value in {**fields, **resolved, **unused}.items()}
