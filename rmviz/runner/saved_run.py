"""A run's state in a session file: the ``"state"`` object (docs/session-format.md).

It holds the solver's :class:`~rmviz.solvers.checkpoint.Checkpoint` (iteration, seed,
seconds stepped, the random generator's state, every state array) and the trace's kept
points (:class:`~rmviz.runner.trace.SavedRun`). Arrays are written as their little-endian
bytes in base64 with their dtype and shape, so every float comes back bit for bit and a
large tree's state stays a fraction of its JSON-list size. Reading checks each field (types,
sizes against the bytes, state values of at most 1e150 in magnitude like payoffs, so sums
and squares stay finite; increasing trace iterations) and raises
``ValueError`` naming the field; whether the arrays fit the game and algorithm is checked
when the run is restored (:func:`rmviz.solvers.checkpoint.restore`).
"""

from __future__ import annotations

import base64
import binascii
import math
from typing import Any

import numpy as np

from rmviz.games.normal_form import MAX_PAYOFF
from rmviz.runner.trace import SavedRun
from rmviz.solvers.checkpoint import Checkpoint

DTYPES: dict[str, np.dtype[Any]] = {
    "float64": np.dtype("<f8"),
    "float32": np.dtype("<f4"),
    "int64": np.dtype("<i8"),
}
MAX_DIMENSIONS = 3
MAX_ARRAYS = 64
UINT128 = 2**128
MAX_ITERATION = 2**53  # as run.iteration


def saved_run_to_dict(saved: SavedRun) -> dict[str, Any]:
    """The JSON-ready ``"state"`` object of ``saved``."""
    checkpoint = saved.checkpoint
    return {
        "iteration": checkpoint.iteration,
        "seed": checkpoint.seed,
        "elapsed": checkpoint.elapsed,
        "rng": None if checkpoint.rng is None else dict(checkpoint.rng),
        "arrays": {name: encode_array(array) for name, array in checkpoint.arrays.items()},
        "trace": {"iterations": encode_array(saved.trace_iterations), "rows": encode_array(saved.trace_rows)},
    }


def encode_array(array: np.ndarray) -> dict[str, Any]:
    """``{"dtype", "shape", "base64"}``: the array's little-endian bytes, C order."""
    name = array.dtype.name  # one of DTYPES
    data = np.ascontiguousarray(array, dtype=DTYPES[name]).tobytes()
    return {"dtype": name, "shape": list(array.shape), "base64": base64.b64encode(data).decode("ascii")}


def saved_run_from_dict(data: Any, iteration: int | None, max_seed: int, where: str = "state") -> SavedRun:
    """The :class:`SavedRun` a ``"state"`` object describes (``where``: its name in
    messages), of a run at ``iteration`` (the session's ``run.iteration``, one less after a
    recorded step), or at any iteration up to :data:`MAX_ITERATION` when None."""
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object {{...}}, not {type(data).__name__}")
    reached = data.get("iteration")
    if iteration is None:
        if isinstance(reached, bool) or not isinstance(reached, int) or not 0 <= reached <= MAX_ITERATION:
            raise ValueError(f"{where}.iteration must be a whole number from 0 to {MAX_ITERATION:,}")
        iteration = reached
    elif reached != iteration or isinstance(reached, bool):
        raise ValueError(f"{where}.iteration must be {iteration:,} (run.iteration, less a recorded step)")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= max_seed:
        raise ValueError(f"{where}.seed must be a whole number from 0 to {max_seed:,}")
    elapsed = data.get("elapsed")
    if isinstance(elapsed, bool) or not isinstance(elapsed, int | float) or not 0 <= elapsed < math.inf:
        raise ValueError(f"{where}.elapsed must be a number of seconds, 0 or more")
    arrays = data.get("arrays")
    if not isinstance(arrays, dict) or len(arrays) > MAX_ARRAYS:
        raise ValueError(f"{where}.arrays must be an object of at most {MAX_ARRAYS} named arrays")
    decoded = {}
    for name, value in arrays.items():
        array = decode_array(value, f"{where}.arrays.{name}", ("float64", "float32"))
        if not np.all(np.abs(array) <= MAX_PAYOFF):  # NaN too
            raise ValueError(f"{where}.arrays.{name} holds a value that is not a number of at most 1e150")
        decoded[name] = array
    trace = data.get("trace")
    if not isinstance(trace, dict):
        raise ValueError(f"{where}.trace must be an object {{iterations, rows}}")
    iterations = decode_array(trace.get("iterations"), f"{where}.trace.iterations", ("int64",))
    rows = decode_array(trace.get("rows"), f"{where}.trace.rows", ("float64",))
    if iterations.ndim != 1 or rows.ndim != 2 or len(rows) != len(iterations):
        raise ValueError(f"{where}.trace must hold one row per iteration")
    if len(iterations) and (
        iterations[0] < 1 or np.any(np.diff(iterations) <= 0) or iterations[-1] > iteration
    ):
        raise ValueError(f"{where}.trace.iterations must increase from 1 to at most {iteration:,}")
    if np.any(np.isinf(rows)):
        raise ValueError(f"{where}.trace.rows holds an infinite value")
    checkpoint = Checkpoint(iteration, seed, float(elapsed), decoded, _rng(data.get("rng"), where))
    return SavedRun(checkpoint, iterations, rows)


def decode_array(value: Any, where: str, dtypes: tuple[str, ...]) -> np.ndarray:
    """The array an ``encode_array`` object holds, of one of ``dtypes``."""
    if not isinstance(value, dict) or set(value) != {"dtype", "shape", "base64"}:
        raise ValueError(f"{where} must be an object {{dtype, shape, base64}}")
    if value["dtype"] not in dtypes:
        raise ValueError(f"{where}.dtype must be one of {', '.join(dtypes)}")
    shape = value["shape"]
    if (
        not isinstance(shape, list)
        or len(shape) > MAX_DIMENSIONS
        or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**40 for n in shape)
    ):
        raise ValueError(f"{where}.shape must be a list of at most {MAX_DIMENSIONS} sizes")
    text = value["base64"]
    if not isinstance(text, str):
        raise ValueError(f"{where}.base64 must be a string")
    dtype = DTYPES[value["dtype"]]
    if len(text) != 4 * math.ceil(math.prod(shape) * dtype.itemsize / 3):
        raise ValueError(f"{where} holds {len(text):,} base64 characters, not the bytes of shape {shape}")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{where}.base64 is not base64") from None
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise ValueError(f"{where} holds {len(data):,} bytes, not the bytes of shape {shape}")
    return np.frombuffer(data, dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))


def _rng(value: Any, where: str) -> dict[str, Any] | None:
    """A NumPy PCG64 generator's ``state`` dictionary, checked field by field (or None)."""
    if value is None:
        return None

    def whole(number: Any, high: int) -> bool:
        return isinstance(number, int) and not isinstance(number, bool) and 0 <= number < high

    inner = value.get("state") if isinstance(value, dict) else None
    if (
        not isinstance(value, dict)
        or value.get("bit_generator") != "PCG64"
        or set(value) != {"bit_generator", "state", "has_uint32", "uinteger"}
        or not isinstance(inner, dict)
        or set(inner) != {"state", "inc"}
        or not all(whole(inner[key], UINT128) for key in ("state", "inc"))
        or not whole(value["has_uint32"], 2)
        or not whole(value["uinteger"], 2**32)
    ):
        raise ValueError(f"{where}.rng must be a PCG64 generator state, as NumPy writes it, or null")
    return {**value, "state": dict(inner)}


__all__ = ["decode_array", "encode_array", "saved_run_from_dict", "saved_run_to_dict"]
