"""The notebooks of rmviz/examples/notebooks run from top to bottom (their cells assert what they
teach), so they stay true (issue 14), and every cell that plots shows an image (issue 32). Each
takes 5-10 s once numba's cache is warm. ``RMVIZ_NOTEBOOKS_OUT=DIR`` keeps the executed
notebooks there, to look at their figures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rmviz.examples import NOTEBOOKS as NOTEBOOKS_FOLDER
from rmviz.examples import folder

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(Path(str(folder(NOTEBOOKS_FOLDER))).glob("*.ipynb"))


def test_the_notebooks_are_found():
    assert {path.name for path in NOTEBOOKS} >= {"regret-matching.ipynb", "kuhn-cfr.ipynb"}


@pytest.mark.slow  # 12 s: executed by .ci/run's second step (pytest -m slow)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs(path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), (
        "notebooks are stored without outputs"
    )
    # the kernel starts in the repository root, so it imports this checkout's rmviz; with
    # Jupyter's own matplotlib backend (inline), as a notebook's user has it, not MPLBACKEND=Agg
    monkeypatch.delenv("MPLBACKEND", raising=False)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3")
    client.execute(cwd=str(ROOT))
    keep = os.environ.get("RMVIZ_NOTEBOOKS_OUT")
    if keep:
        nbformat.write(notebook, Path(keep) / path.name)
    plots = [cell for cell in notebook.cells if cell.cell_type == "code" and ".plot(" in cell.source]
    assert plots, "the notebook draws figures"
    for cell in plots:
        images = [
            output for output in cell.outputs if {"image/png", "image/svg+xml"} & set(output.get("data", {}))
        ]
        assert images, f"no image from the cell {cell.source!r}: {[o.get('data', o) for o in cell.outputs]}"
