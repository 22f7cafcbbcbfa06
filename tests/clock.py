"""A clock a test sets by hand (``clock.now``, seconds), for code that takes a ``clock``
callable: no test waits for real time to pass."""

from __future__ import annotations


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
