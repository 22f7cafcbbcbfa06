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
from collections.abc import Callable, Iterator, Mapping
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
    rng = getattr(state, "rng", None)
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise NotCapturable(f"the state of a {type(rng).__name__} cannot be saved")
    arrays = {
        key: np.array(value if isinstance(value, float) else to_host(value))
        for key, _, _, value in _arrays(state)
    }
    saved_rng = None if rng is None else rng.bit_generator.state
    return Checkpoint(int(state.iteration), int(seed), float(elapsed), arrays, saved_rng)


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
    updates: dict[str, Any] = {"iteration": checkpoint.iteration}
    if checkpoint.rng is not None:
        rng = np.random.Generator(np.random.PCG64())
        try:
            rng.bit_generator.state = dict(checkpoint.rng)
        except (TypeError, ValueError, KeyError) as error:
            raise ConfigError(f"the saved random generator state cannot be used: {error}") from None
        updates["rng"] = rng
    for key, name, index, value in _arrays(state):
        array = checkpoint.arrays[key]
        restored = float(array) if isinstance(value, float) else asarray(array.copy())
        if index is None:
            updates[name] = restored
        else:  # a new list: the kernels notice the new arrays by their identity
            updates.setdefault(name, list(getattr(state, name)))[index] = restored
    for name, value in updates.items():
        setattr(state, name, value)


def capture_layout(state: Any) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """The name, shape and dtype of each array a checkpoint of ``state`` holds."""
    return {
        key: (
            tuple(np.shape(value)),
            np.dtype(np.float64) if isinstance(value, float) else np.dtype(value.dtype),
        )
        for key, _, _, value in _arrays(state)
    }


def _arrays(state: Any) -> Iterator[tuple[str, str, int | None, Any]]:
    """``(key, field, index, value)`` of every array a checkpoint of ``state`` holds, in
    declaration order: each array field, each item of a list field (``index``; key
    ``field/index``) and each float scalar; not the iteration, the generator or a field
    that is None (a quantity not tracked)."""
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name in ("iteration", "rng") or value is None:
            continue
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield f"{f.name}{SEPARATOR}{index}", f.name, index, item
        else:
            yield f.name, f.name, None, value


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
