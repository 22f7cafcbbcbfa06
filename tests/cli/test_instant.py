"""`rmviz solve` on a small matrix game imports only what it uses: no numba (a short run takes
the array code, which plays the kernels' floats: rmviz.solvers.jit.SHORT_RUN), no scipy, no
figures, no Qt, no game-tree family; and it prints the iterates a process with numba prints.
The commands run in fresh processes under ``python -X importtime``, which names every module
a process imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rmviz.solvers.jit import AVAILABLE, SHORT_RUN

# what `rmviz solve MATRIX` must not import: the whole package or any of its submodules
HEAVY = (
    "numba",
    "llvmlite",
    "scipy",
    "matplotlib",
    "pandas",
    "PySide6",
    "rmviz.figures",
    "rmviz.ui.app",
    "rmviz.api",
    "rmviz.sweep",
)
# the iterates, which the array code and the kernels give bit for bit (the summation rule)
ITERATES = ("average_strategy", "current_strategy", "nash_conv", "exploitability", "cce_gap")


def imported(*argv: str, first: str = "") -> tuple[set[str], str]:
    """The modules ``rmviz ARGV`` imports in a new process (after ``first``, a statement run
    before the command), and what it printed."""
    code = f"{first}\nimport sys\nfrom rmviz.cli import main\nsys.exit(main({list(argv)!r}))"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:")
    }
    return modules, result.stdout


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_solving_a_small_matrix_game_imports_nothing_heavy():
    modules, out = imported("solve", "rps-crash", "-n", "1000")
    assert "rmviz.solvers.matrix.solver" in modules  # the parse found the modules
    assert heavy(modules) == []
    assert "exploitability" in out
    # its rate is the array code's, and the summary says so (2,000 iterations read 7,903
    # it/s beside 4,300,000 for 2,047, with nothing said)
    assert f"it/s in NumPy: a run of up to {SHORT_RUN:,} iterations skips the compiled kernels)" in out


@pytest.mark.skipif(not AVAILABLE, reason="numba is not installed")
def test_a_longer_run_loads_the_kernels_before_it_starts():
    modules, out = imported("solve", "rps-crash", "-n", str(SHORT_RUN + 1))
    assert "numba" in modules
    assert "in NumPy" not in out
    modules, out = imported("solve", "rps-crash", "-n", "100", "--json")
    assert json.loads(out)["compiled"] is False


@pytest.mark.skipif(not AVAILABLE, reason="numba is not installed")
@pytest.mark.parametrize(
    "options",
    [
        ["-a", "rm"],
        ["-a", "rm+", "--updates", "alternating"],
        ["-a", "greedy-rm"],
        ["-a", "rm", "--play", "sampled", "--seed", "5"],
        ["-a", "hedge"],
    ],
)
def test_the_array_code_prints_the_kernels_iterates(options):
    """Without numba (the array code) and with it imported first (the compiled kernel)."""
    argv = ("solve", "chicken", "-n", "700", "--json", *options)
    array_modules, array_out = imported(*argv)
    kernel_modules, kernel_out = imported(*argv, first="import numba")
    assert "numba" not in array_modules and "numba" in kernel_modules
    array, kernel = json.loads(array_out), json.loads(kernel_out)
    for name in ITERATES:
        assert array[name] == kernel[name], name
    # the CE accumulator and the joint distribution are sums the kernel may order its own
    # way (rounding apart); the iterates above never read them
    assert array["ce_gap"] == pytest.approx(kernel["ce_gap"], rel=1e-12, abs=1e-15)
    joint = [p for row in array["joint"] for p in row]
    assert joint == pytest.approx([p for row in kernel["joint"] for p in row], rel=1e-12, abs=1e-15)


def test_the_matrix_window_imports_no_linear_programming_until_it_solves_one():
    """SciPy's optimize and sparse (~0.3 s of CPU) wait for a zero-sum value or a best CE."""
    code = (
        "import sys\n"
        "import rmviz.ui.app, rmviz.ui.matrix.window, rmviz.solvers.exact\n"
        "from rmviz.games.catalog import catalog_game\n"
        "from rmviz.solvers.exact import reference\n"
        "reference(catalog_game('chicken'))  # general-sum: no LP\n"
        "assert not {'scipy.optimize', 'scipy.sparse'} & set(sys.modules), 'before'\n"
        "reference(catalog_game('rps-crash'))  # zero-sum: the value by LP\n"
        "assert 'scipy.optimize' in sys.modules, 'after'\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env
    )
    assert result.returncode == 0, result.stderr[-2000:]
