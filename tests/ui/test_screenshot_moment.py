"""A screenshot shows one moment of the run: every plot drawn from the snapshot the status
bar names. The live window redraws one row of plots per tick (a repaint never holds the
event loop for the whole dashboard), so a picture taken after an ordinary redraw showed the
strategies at one iteration and the distances at another."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

SCRIPT = """
import json
import sys
from PySide6.QtWidgets import QWidget
from rmviz.ui.matrix.window import MatrixWindow

grab = QWidget.grab

def checked(self, *args):
    ends = {
        plot.panel.title: float(curve.xData[-1])
        for row in self.dashboard.plots.rows
        for plot in row
        for curve in plot.curves.values()
        if curve.xData is not None and len(curve.xData)
    }
    print("ends", json.dumps(sorted(set(ends.values()))), self.iteration_label.text())
    return grab(self, *args)

MatrixWindow.grab = checked
from rmviz.ui.app import main
sys.exit(main(["rps-crash", "--screenshot", sys.argv[1], "--after", "0.5"]))
"""


def test_every_plot_of_a_screenshot_ends_at_one_iteration(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "shot.png")],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("ends ")]
    ends, status = line.removeprefix("ends ").split("] ", 1)
    (end,) = json.loads(ends + "]")  # every plot's last point at one x
    shown = int(status.removeprefix("iteration ").replace(",", ""))
    assert end == pytest.approx(math.log10(shown)), line  # the one the status bar names
