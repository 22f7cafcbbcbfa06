"""The iteration axis's range (rmviz.present.panels.x_range): figures end at the data; live
plots round the end up on nested grids that coarsen as the axis spans more decades."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rmviz.present.panels import X_STEP, x_range
from rmviz.runner.trace import TraceData


def ends(first: float, lasts: np.ndarray, step: float) -> list[float]:
    return [math.log10(x_range({None: TraceData(np.array([first, last]), {})}, step)[1]) for last in lasts]


def test_figures_end_at_the_data_and_span_a_decade_at_least():
    assert x_range({None: TraceData(np.array([1.0, 12_345.0]), {})}) == pytest.approx((1.0, 12_345.0))
    assert x_range({None: TraceData(np.array([100.0, 200.0]), {})}) == pytest.approx((100.0, 1000.0))


def test_a_live_axis_end_moves_on_rarely_never_back_and_stays_near_the_data():
    lasts = np.geomspace(10, 1e12, 20_000)
    live = ends(1.0, lasts, X_STEP)
    assert (np.diff(live) >= 0).all()  # never back as the run goes on
    data = np.log10(lasts)
    assert (np.array(live) >= data - 1e-9).all()  # the newest point is on the axis
    # the room left after it: a tenth of a decade early on, a tenth of the span at most
    room = np.array(live) - data
    assert (room <= np.maximum(X_STEP, data / 10) + 1e-9).all()
    assert room[data < 2].max() <= X_STEP + 1e-9
    moves = np.flatnonzero(np.diff(live))  # the axis laid out again
    assert len(moves) <= 10 * 2 + 10 * 10  # ten a decade up to 2 decades, then ~10 per doubling
    late = data[moves + 1] > 6  # from a million iterations on: each move at least 0.4 decade apart
    assert (np.diff(np.array(live)[moves + 1][late]) >= 0.4 - 1e-9).all()
