"""A solver's whole state as host arrays, to save a run and go on with it exactly.

A :class:`Checkpoint` holds what the next iterate depends on: every array of the family's
state dataclass (:class:`~rmviz.solvers.matrix.state.MatrixState`,
:class:`~rmviz.solvers.tree.state.CFRState`; a list of arrays is kept as ``name/0``,
``name/1``...; a float scalar as a 0-d array), the iteration, the seed and the state of the
random generator that sampled play draws from. Monte-Carlo CFR draws from the seed and the
iteration alone, so its checkpoint has no generator. Restoring one into a solver of the same
game and config gives the state it was taken from, bit for bit, so the run goes on with
the iterates it would have had (``tests/solvers/test_checkpoint.py``). Restoring checks every
name, shape and dtype against the solver's own state first and changes nothing when one
differs (:class:`~rmviz.errors.ConfigError`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from rmviz.errors import ConfigError

SEPARATOR = "/"  # between a list field's name and the index of its array


@dataclass(frozen=True)
class Checkpoint:
    """A solver's state after ``iteration`` iterations (module docstring). ``rng``: the
    NumPy bit generator's ``state`` dictionary, or None for a state without a generator;
    ``elapsed``: the seconds the solver had stepped."""

    iteration: int
    seed: int
    elapsed: float
    arrays: Mapping[str, np.ndarray]
    rng: Mapping[str, Any] | None = None


class NotCapturable(Exception):
    """A state that no checkpoint can hold exactly (a generator other than NumPy's: CuPy's)."""


def capture(state: Any, seed: int, elapsed: float, to_host: Callable[[Any], np.ndarray]) -> Checkpoint:
    """The checkpoint of ``state`` (a family's state dataclass), arrays copied to the host.
    Raises :class:`NotCapturable` for a generator whose state cannot be saved."""
    arrays: dict[str, np.ndarray] = {}
    rng: Mapping[str, Any] | None = None
    for name, value in _fields(state):
        if name == "rng":
            if not isinstance(value, np.random.Generator):
                raise NotCapturable(f"the state of a {type(value).__name__} cannot be saved")
            rng = value.bit_generator.state
        elif isinstance(value, list):
            for index, item in enumerate(value):
                arrays[f"{name}{SEPARATOR}{index}"] = np.array(to_host(item))
        elif isinstance(value, float):
            arrays[name] = np.array(value)
        elif value is not None:
            arrays[name] = np.array(to_host(value))
    return Checkpoint(int(state.iteration), int(seed), float(elapsed), arrays, rng)


def restore(state: Any, checkpoint: Checkpoint, asarray: Callable[[np.ndarray], Any]) -> None:
    """Put ``checkpoint`` into ``state`` in place (its solver's fresh state: every name,
    shape and dtype must match, else :class:`ConfigError` and ``state`` is unchanged)."""
    expected = capture_layout(state)
    saved = {name: (array.shape, array.dtype) for name, array in checkpoint.arrays.items()}
    if saved != expected:
        raise ConfigError(
            f"the saved solver state does not fit this game and algorithm ({_difference(saved, expected)})"
        )
    if (checkpoint.rng is None) != (getattr(state, "rng", None) is None):
        raise ConfigError("the saved solver state and this algorithm differ in their random generator")
    rng = None
    if checkpoint.rng is not None:
        rng = np.random.Generator(np.random.PCG64())
        try:
            rng.bit_generator.state = dict(checkpoint.rng)
        except (TypeError, ValueError, KeyError) as error:
            raise ConfigError(f"the saved random generator state cannot be used: {error}") from None
    updates: dict[str, Any] = {"iteration": checkpoint.iteration}
    for name, value in _fields(state):
        if name == "rng":
            updates[name] = rng
        elif isinstance(value, list):
            updates[name] = [
                asarray(checkpoint.arrays[f"{name}{SEPARATOR}{i}"].copy()) for i in range(len(value))
            ]
        elif isinstance(value, float):
            updates[name] = float(checkpoint.arrays[name])
        elif value is not None:
            updates[name] = asarray(checkpoint.arrays[name].copy())
    for name, value in updates.items():
        setattr(state, name, value)


def capture_layout(state: Any) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """The name, shape and dtype of each array a checkpoint of ``state`` holds."""
    layout: dict[str, tuple[tuple[int, ...], np.dtype]] = {}
    for name, value in _fields(state):
        if name == "rng" or value is None:
            continue
        items = (
            [(f"{name}{SEPARATOR}{i}", v) for i, v in enumerate(value)]
            if isinstance(value, list)
            else [(name, value)]
        )
        for key, item in items:
            dtype = np.dtype(np.float64) if isinstance(item, float) else np.dtype(item.dtype)
            layout[key] = (tuple(np.shape(item)), dtype)
    return layout


def _fields(state: Any) -> list[tuple[str, Any]]:
    """The state's fields but its iteration, in declaration order."""
    return [(f.name, getattr(state, f.name)) for f in dataclasses.fields(state) if f.name != "iteration"]


def _difference(saved: Mapping[str, Any], expected: Mapping[str, Any]) -> str:
    """The first array the saved state and the solver's disagree on, in words."""
    for name in sorted(set(saved) | set(expected)):
        if name not in saved:
            return f"it lacks {name}"
        if name not in expected:
            return f"it has {name}, which this run does not"
        if saved[name] != expected[name]:
            (shape, dtype), (want, want_dtype) = saved[name], expected[name]
            return f"{name} is {dtype} {list(shape)}, not {want_dtype} {list(want)}"
    return "they differ"


__all__ = ["Checkpoint", "NotCapturable", "capture", "capture_layout", "restore"]
