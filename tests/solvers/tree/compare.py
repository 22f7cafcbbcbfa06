"""Compare two CompiledTree objects field by field (arrays exactly, dtype included)."""

from __future__ import annotations

import dataclasses

import numpy as np

from rmviz.solvers.tree.compiled_tree import CompiledTree


def assert_same_compiled(new: CompiledTree, old: CompiledTree) -> None:
    """Field by field, the move labels, dense payoffs and chance probabilities (made on
    first use) included; not the flat arrays each was compiled from (two games' own)."""
    assert new.move_label == old.move_label
    names = [field.name for field in dataclasses.fields(CompiledTree) if field.name != "flat"]
    for name in [*names, "payoffs", "chance_probability"]:  # the last two made on first use
        a, b = getattr(new, name), getattr(old, name)
        if isinstance(b, np.ndarray):
            assert isinstance(a, np.ndarray), name
            assert a.dtype == b.dtype, (name, a.dtype, b.dtype)
            assert a.shape == b.shape, (name, a.shape, b.shape)
            assert np.array_equal(a, b), name
            assert np.array_equal(np.signbit(a), np.signbit(b)) if a.dtype.kind == "f" else True, name
        else:
            assert a == b, name
            assert type(a) is type(b), name
