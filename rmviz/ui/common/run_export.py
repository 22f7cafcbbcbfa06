"""Exports from a window: *Export figure* (any figure of the family's registry,
:mod:`rmviz.figures`, drawn by matplotlib from the run as it stands; one that cannot be
written says why in a dialog) and *Export run data* (the trace with its game, configuration
and seed, as .csv or .json: :func:`~rmviz.runner.record.write_run_data`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from rmviz.errors import RmvizError
from rmviz.figures.registry import save_figure
from rmviz.figures.run import RunData
from rmviz.runner.record import write_run_data
from rmviz.ui.common.export_dialog import ask_figure


class RunExport:
    """Figures and run data of a :class:`~.run_window.RunWindow`'s run (``window``, typed
    loosely: its module imports this one; its ``figure_extras`` adds to the figures' data)."""

    def __init__(self, window: Any) -> None:
        self.window = window

    def run_data(self) -> RunData:
        """The run as it stands: the whole trace and the newest snapshot."""
        thread = self.window.run.thread
        assert thread is not None
        loop = thread.loop
        snapshot = loop.latest()[1]
        trace = loop.trace_data(loop.solver.columns, at=snapshot)  # the schema: fixed
        return RunData.of(loop.solver, trace, snapshot, **self.window.figure_extras())

    def figure(
        self,
        path: str | Path,
        figure: str = "gaps",
        size: tuple[int, int] | None = None,
        dpi: int = 150,
        style: str = "slides",
        run: RunData | None = None,
    ) -> bool:
        """Write ``figure`` of this run (``compare``: the algorithms of the *Compare* tab) at
        ``size`` pixels and ``dpi``, of ``run`` where given (one moment of a run for several
        figures), else of the run as it stands; False, and a dialog saying why, when it cannot."""
        compare = self.window.compare
        try:
            run = self.run_data() if run is None else run
            if figure == "compare":
                compare.activate()
                run = dataclasses.replace(run, compared=compare.traces())
            inches = None if size is None else (size[0] / dpi, size[1] / dpi)
            save_figure(figure, run, path, style, inches, dpi)
        except Exception as error:  # whatever went wrong, the session goes on and says why
            self.window.show_error(f"The {figure} figure was not written to {Path(path).name}: {error}")
            return False
        return True

    def figure_dialog(self) -> None:
        thread = self.window.run.thread  # the sizes offered fit the run's game
        game = None if thread is None else thread.loop.solver.game
        request = ask_figure(self.window, self.window.family.name, game)
        if request is not None:
            self.figure(request.path, request.figure, request.size, request.dpi, request.style)

    def data(self, path: str | Path) -> bool:
        """Write the run's trace with its game, configuration and seed (.csv or .json)."""
        thread = self.window.run.thread
        if thread is None:
            return False
        trace = self.run_data().trace
        try:
            write_run_data(path, thread.loop.solver, trace)
        except RmvizError as error:
            self.window.show_error(str(error))
            return False
        return True

    def data_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Export run data", "run.csv", "CSV (*.csv);;JSON (*.json)"
        )
        if path:
            self.data(path)
