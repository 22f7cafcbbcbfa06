"""A headless window (``--screenshot``, ``--export``) never waits for a person: an error while
its windows are built or shown is printed in one line and the run ends with exit status 2,
instead of a dialog nobody can close (issue 33)."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import sys
from rmviz.errors import RmvizError
from rmviz.solvers import exact

def failing(game):
    raise RmvizError("the linear programme failed: Model error")

exact.zero_sum_solution = failing  # as HiGHS failed on payoffs from 1e20
from rmviz.ui.app import main
sys.exit(main(["rps", "--screenshot", sys.argv[1], "--size", "640x480"]))
"""


def test_an_error_while_the_window_is_built_is_one_line_not_a_dialog(tmp_path):
    shot = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(shot)], capture_output=True, text=True, timeout=300, env=env
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("rmviz")]
    assert done.returncode == 2, done.stderr
    assert lines == ["rmviz: the linear programme failed: Model error"]
    assert shot.exists()  # the picture is taken all the same
