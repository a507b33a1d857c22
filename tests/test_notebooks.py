"""The notebooks run top to bottom on a fresh kernel, and are committed clean.

The kernel is ipykernel's own ``python3`` spec, which jupyter_client launches
with this interpreter (``sys.executable``), so the notebooks see the same
installed midas_graph as the tests.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_there():
    assert {p.name for p in NOTEBOOKS} >= {"quickstart.ipynb", "belief_timeline.ipynb"}


# Not marked slow: each takes a few seconds (the quickstart loads the local models).
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_without_errors(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        # generous guards against a hang, not timings: a loaded machine starts a kernel slowly
        nb, kernel_name="python3", timeout=600, startup_timeout=600, allow_errors=False,
        resources={"metadata": {"path": str(tmp_path)}},  # anything a notebook writes lands here
    )
    started = time.perf_counter()
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    elapsed = time.perf_counter() - started
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []
    if path.stem == "belief_timeline":  # the plots are rendered inline, as images
        images = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                  if "image/png" in o.get("data", {})]
        assert len(images) == 2
    print(f"{path.name}: {elapsed:.1f} s")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebooks_have_no_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.outputs or c.execution_count is not None)]
    assert dirty == [], f"{path.name}: cells {dirty} keep outputs; strip them before committing"
