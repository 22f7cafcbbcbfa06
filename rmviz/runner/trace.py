"""A bounded history of a run, for live plots: memory stays flat however long it runs.

Columns are :class:`~rmviz.solvers.columns.Column` values (the solver's ``columns``), rows
are arrays in that order. Points are kept on a geometric grid of iterations,
``points_per_decade`` per factor of ten
(every iteration while the grid is finer than one iteration, i.e. up to about
``points_per_decade / 2.3``), plus the newest point. A run of 1e8 iterations keeps about
``8 x points_per_decade`` points: evenly spaced on the log-log axes where gaps are read, and
dense enough on linear axes because the grid's spacing is never more than
``10**(1/points_per_decade) - 1`` (1.2% at 200 points per decade) of the iteration.
``every=N`` keeps every N-th iteration instead (``rmviz solve --trace --every N``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from rmviz.solvers.checkpoint import Checkpoint
from rmviz.solvers.columns import Column


@dataclass(frozen=True)
class TraceData:
    """A run's kept iterations and the values of its columns, newest point included: the one
    shape a trace has from the solver to files, figures, the windows and the notebook API
    (:meth:`Trace.data`, :meth:`~rmviz.runner.loop.RunLoop.trace_data`)."""

    iterations: np.ndarray
    columns: Mapping[Column, np.ndarray]


@dataclass(frozen=True)
class SavedRun:
    """A run to go on with: the solver's :class:`~rmviz.solvers.checkpoint.Checkpoint` and
    its trace's kept points (:meth:`Trace.kept`), as a session file holds them."""

    checkpoint: Checkpoint
    trace_iterations: np.ndarray
    trace_rows: np.ndarray


class Trace:
    """Columns of floats indexed by iteration, on a grid (see the module docstring).

    ``add(iteration, values)`` takes one float per column; ``column(c)`` returns the kept
    values of column ``c``, newest point included.
    """

    def __init__(
        self, columns: Sequence[Column], points_per_decade: int = 200, every: int | None = None
    ) -> None:
        if points_per_decade < 1:
            raise ValueError("points_per_decade must be at least 1")
        if every is not None and every < 1:
            raise ValueError("every must be at least 1")
        self.columns = tuple(columns)
        self._index = {column: k for k, column in enumerate(self.columns)}
        self.ratio = 10.0 ** (1.0 / points_per_decade)
        self.points_per_decade = points_per_decade
        self.every = every
        self._data = np.empty((64, len(self.columns)))
        self._iterations = np.empty(64, dtype=np.int64)
        self._size = 0
        self._next = float(every or 1)  # smallest iteration the grid accepts next
        self._latest: tuple[int, np.ndarray] | None = None

    @property
    def next_iteration(self) -> int:
        """The smallest iteration the grid keeps next (a point earlier is only the newest)."""
        return math.ceil(self._next)

    def __len__(self) -> int:
        return self._size + (1 if self._latest is not None else 0)

    def clear(self) -> None:
        self.__init__(self.columns, self.points_per_decade, self.every)  # type: ignore[misc]

    def add(self, iteration: int, values: np.ndarray) -> None:
        """Record the state at ``iteration`` (non-decreasing); kept if it is on the grid.

        A second point at the iteration of the last kept one is ignored.
        """
        if self._size and iteration == self._iterations[self._size - 1]:
            return
        row = np.asarray(values, dtype=np.float64)
        if row.shape != (len(self.columns),):
            raise ValueError(f"a trace row has {len(self.columns)} values, got {row.shape}")
        if iteration >= self._next:
            if self._size == len(self._iterations):  # grow (amortised doubling; bounded by the grid)
                self._data = np.concatenate([self._data, np.empty_like(self._data)])
                self._iterations = np.concatenate([self._iterations, np.empty_like(self._iterations)])
            self._data[self._size] = row
            self._iterations[self._size] = iteration
            self._size += 1
            self._advance(iteration)
            self._latest = None
        else:
            self._latest = (iteration, row)

    def iterations(self) -> np.ndarray:
        kept = self._iterations[: self._size]
        if self._latest is None:
            return kept.copy()
        return np.append(kept, self._latest[0])

    def column(self, column: Column) -> np.ndarray:
        index = self._index[column]
        kept = self._data[: self._size, index]
        if self._latest is None:
            return kept.copy()
        return np.append(kept, self._latest[1][index])

    def data(
        self,
        columns: Sequence[Column] | None = None,
        newest: bool = False,
        at: tuple[int, np.ndarray] | None = None,
    ) -> TraceData:
        """The kept iterations and ``columns`` (default: every column), newest point included;
        copies, so the trace goes on growing. The columns are copied at once, each a row of
        one new array: a wide set's 1,005 columns one by one cost 16 ms a redraw. With
        ``newest``, the newest point alone (what a view chooses the moves it draws from:
        copying a 1,000-move set's whole columns to read their last values cost 4-7 ms).

        ``at``: an iteration and its row of every column, as :meth:`add` took them: the trace
        as it was when that point was its newest, the kept points before it, then it (none
        at iteration 0, which a trace never holds). The run loop adds the point of each
        snapshot it publishes and records on between publications, so a view drawn from a
        snapshot and from the trace at it shows one moment (a screenshot's plots ended at
        226,000 iterations under a status bar that said 199,096)."""
        wanted = self.columns if columns is None else columns
        index = [self._index[column] for column in wanted]
        size, latest = self._size, self._latest
        if at is not None:
            size = int(np.searchsorted(self._iterations[:size], at[0]))
            latest = (at[0], np.asarray(at[1], dtype=np.float64)) if at[0] >= 1 else None
        kept = self._data[:size]
        if newest:
            kept = kept[:0] if latest is not None else kept[-1:]
        rows = kept[:, index]
        iterations = self._iterations[size - len(kept) : size].copy()
        if latest is not None:
            rows = np.vstack([rows, latest[1][index]])
            iterations = np.append(iterations, latest[0])
        return TraceData(iterations, dict(zip(wanted, np.ascontiguousarray(rows.T), strict=True)))

    def kept(self) -> tuple[np.ndarray, np.ndarray]:
        """The kept points, newest excepted: iterations ``(k,)`` and rows ``(k, columns)``
        (copies; what a session saves, :meth:`restore` takes back)."""
        return self._iterations[: self._size].copy(), self._data[: self._size].copy()

    def restore(self, iterations: np.ndarray, rows: np.ndarray) -> None:
        """Keep exactly these points (increasing positive iterations, one row of every
        column each) and go on from the last as if it had just been added."""
        iterations = np.asarray(iterations, dtype=np.int64)
        rows = np.asarray(rows, dtype=np.float64)
        if rows.shape != (len(iterations), len(self.columns)):
            raise ValueError(f"a trace of {len(self.columns)} columns cannot keep rows of shape {rows.shape}")
        if len(iterations) and (iterations[0] < 1 or np.any(np.diff(iterations) <= 0)):
            raise ValueError("a trace's iterations increase from 1")
        self.clear()
        size = max(len(self._iterations), len(iterations))
        self._iterations, self._data = np.empty(size, dtype=np.int64), np.empty((size, len(self.columns)))
        self._iterations[: len(iterations)], self._data[: len(iterations)] = iterations, rows
        self._size = len(iterations)
        if self._size:
            self._advance(int(iterations[-1]))

    def _advance(self, iteration: int) -> None:
        """The grid's next iteration after keeping ``iteration``."""
        if self.every is not None:
            self._next = (iteration // self.every + 1) * self.every
        else:
            self._next = max(iteration + 1.0, iteration * self.ratio)

    def nbytes(self) -> int:
        """Memory held by the kept points."""
        return int(self._data.nbytes + self._iterations.nbytes)
