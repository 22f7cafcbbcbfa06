"""rmviz.watch in a real Jupyter kernel, headless (nbclient, as tests/docs/test_notebooks.py
runs the example notebooks): the cell shows the widget, frames arrive while the run goes on,
pause stops them, and the frames reach the widget's models through the kernel's comms."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
PNG = b"\x89PNG\r\n\x1a\n"

CELLS = [
    'import rmviz\nlive = rmviz.watch("rps", "rm+")\nlive',
    "\n".join(
        [
            "assert live.wait_frames(2, timeout=240), live.status",
            "assert live.running",
            "live.pause()",
            "assert live.wait_idle(timeout=240), live.status",
            "drawn, at = live.frames, live.iteration",
            "assert not live.wait_frames(1, timeout=1.0)",
            "assert (live.frames, live.iteration) == (drawn, at) and at > 0",
            "print(drawn, 'frames;', live.status)",
        ]
    ),
    "live.step(10)\nassert live.wait_idle(timeout=240)\nassert live.iteration == at + 10\nlive.close()",
]


@pytest.mark.slow  # a kernel start, numba's cache and a few frames: 20-40 s on 2 cores
def test_watch_runs_in_a_kernel():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("ipywidgets")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3")
    client.execute(cwd=str(ROOT))  # raises CellExecutionError on any failed assert

    shown = [output for output in notebook.cells[0].outputs if output.output_type == "display_data"]
    assert len(shown) == 1 and WIDGET_VIEW in shown[0].data
    errors = [o for cell in notebook.cells for o in cell.outputs if o.output_type == "error"]
    assert errors == []
    printed = "".join(o.get("text", "") for o in notebook.cells[1].outputs if o.output_type == "stream")
    assert "frames;" in printed and "paused" in printed
    models = notebook.metadata.widgets[WIDGET_STATE]["state"].values()
    kinds = {model["model_name"] for model in models}
    assert {"ImageModel", "HTMLModel", "ButtonModel", "VBoxModel"} <= kinds
    statuses = [model["state"]["value"] for model in models if model["model_name"] == "HTMLModel"]
    assert any("closed" in status for status in statuses)  # the last status reached the model
    frames = [  # set by the frames thread, sent through the kernel's comms
        base64.b64decode(buffer["data"])
        for model in models
        if model["model_name"] == "ImageModel"
        for buffer in model.get("buffers", [])
        if buffer["path"] == ["value"]
    ]
    assert len(frames) == 1 and frames[0].startswith(PNG)
