"""Freed memory given back once a big tree's solver is built (``rmviz.solvers.memory``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rmviz.games.random_trees import binary_tree
from rmviz.solvers import memory
from rmviz.solvers.tree import solver as tree_solver
from rmviz.solvers.tree.config import preset

# A child fills the heap with 1 MB blocks below the mmap threshold (raised to 2 MB by freeing
# a 2 MB block), keeps the last one so that the heap's top stays, frees the others and
# reports its resident set before and after the call, in kB.
_CHILD = r"""
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from rmviz.solvers.memory import give_back_freed_memory

def resident():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))

np.ones(2 << 20, dtype=np.uint8)  # freed at once: that raises glibc's mmap threshold to 2 MB
blocks = [np.ones(1 << 20, dtype=np.uint8) for _ in range(96)]
pin = blocks.pop()
del blocks
before = resident()
print(give_back_freed_memory(), before, resident())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_freed_heap_pages_go_back_to_the_system() -> None:
    root = str(Path(memory.__file__).resolve().parents[2])
    done = subprocess.run([sys.executable, "-c", _CHILD, root], capture_output=True, text=True, check=True)
    gave, before, after = done.stdout.split()
    assert gave == "True"
    assert int(before) - int(after) > 64 * 1024, (before, after)  # of the 95 MB freed


def test_off_linux_nothing_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    memory._malloc_trim.cache_clear()
    monkeypatch.setattr(memory.sys, "platform", "darwin")
    try:
        assert memory.give_back_freed_memory() is False
    finally:
        memory._malloc_trim.cache_clear()


@pytest.mark.parametrize(("levels", "calls"), [(5, 0), (16, 1)])
def test_a_big_trees_solver_gives_back_its_builds_temporaries(
    monkeypatch: pytest.MonkeyPatch, levels: int, calls: int
) -> None:
    made: list[int] = []
    monkeypatch.setattr(tree_solver, "give_back_freed_memory", lambda: made.append(1) or True)
    solver = tree_solver.CFRSolver(binary_tree(levels), preset("cfr"))
    assert (solver.tree.n_nodes >= memory.TRIM_MIN_HISTORIES) == bool(calls)
    assert len(made) == calls
