"""`rmviz bench`'s small-matrix rows: the CE gap and joint tracked and untracked, beside the
single-pass floor, measured in one run (issue 34)."""

from __future__ import annotations

import pytest

from rmviz.bench import bench_small_matrices

pytest.importorskip("numba")


def test_small_matrix_rows_give_the_price_and_the_floor_ratios():
    lines: list[str] = []
    bench_small_matrices(0.01, lines.append, sizes=(4, 5))
    head, *rows = [line for line in lines if line]
    assert head.split()[-5:] == ["it/s", "price", "vs", "floor", "CPU"]
    assert [row.split()[2] for row in rows] == ["4x4", "5x5"]
    for row in rows:
        tracked, untracked = (float(value.replace(",", "")) for value in row.split()[3:5])
        price, floor, cpu = (float(value.rstrip("x")) for value in row.split()[5:])
        assert tracked > 0 and untracked > 0 and floor > 0 and cpu > 0
        assert price == pytest.approx(untracked / tracked, rel=0.01)
