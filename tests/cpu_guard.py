"""A hang guard that holds on a busy machine: it bounds the CPU time this process spends (all
its threads, system time included), not the wall clock, which other work on a shared 2-core
machine stretches (tests wait for conditions, never assert on wall-clock time)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cpu_under(seconds: float) -> Iterator[None]:
    """Fail when the block took ``seconds`` of this process's CPU time or more."""
    started = time.process_time()
    yield
    spent = time.process_time() - started
    assert spent < seconds, f"{spent:.2f} s of CPU time, over the guard's {seconds:g} s"
