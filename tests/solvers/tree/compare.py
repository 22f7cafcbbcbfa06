"""Compare two CompiledTree objects field by field (arrays exactly, dtype included)."""

from __future__ import annotations

import dataclasses

import numpy as np

from rmviz.solvers.tree.compiled_tree import CompiledTree


def assert_same_compiled(new: CompiledTree, old: CompiledTree) -> None:
    """Field by field, the move labels (made on first use) included; not the flat arrays
    each was compiled from (two games' own)."""
    assert new.move_label == old.move_label
    for field in dataclasses.fields(CompiledTree):
        if field.name == "flat":
            continue
        a, b = getattr(new, field.name), getattr(old, field.name)
        if isinstance(b, np.ndarray):
            assert isinstance(a, np.ndarray), field.name
            assert a.dtype == b.dtype, (field.name, a.dtype, b.dtype)
            assert a.shape == b.shape, (field.name, a.shape, b.shape)
            assert np.array_equal(a, b), field.name
            assert np.array_equal(np.signbit(a), np.signbit(b)) if a.dtype.kind == "f" else True, field.name
        else:
            assert a == b, field.name
            assert type(a) is type(b), field.name
