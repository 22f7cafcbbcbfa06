"""Freed memory given back to the system once a big tree's solver is built (issue 34).

glibc's allocator keeps a freed block below its mmap threshold in the heap for reuse, and
the threshold rises to the largest block freed (up to 32 MB on 64-bit Linux), so a big
tree's builder and compile leave tens of megabytes of freed temporaries resident: on the
binary tree of 2^21 histories the process held 135 bytes per history after building its
CFR solver, of which the game and the solver keep 98 (``tracemalloc``). ``malloc_trim(0)``
returns the heap's free pages (its whole free space since glibc 2.8), in under 1 ms there.
It is called once per solver, from :data:`TRIM_MIN_HISTORIES` histories: a small heap's
free blocks are reused by the next allocations, and giving them back would only cost page
faults. Elsewhere (macOS, Windows, other C libraries) nothing is done.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from typing import Any

TRIM_MIN_HISTORIES = 100_000  # the big trees: 10^5 to 10^7 histories


def give_back_freed_memory() -> bool:
    """Return the allocator's free heap pages to the system; whether there was a way to."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@functools.cache
def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or None where the process has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has it; others may not)
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim
