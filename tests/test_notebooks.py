"""Every notebook runs top to bottom without an error (redeal's habit: every example runs in CI).

The notebooks read ``SMEAR_SIM_NOTEBOOK_SCALE`` (1 unless set: the sizes their committed outputs come from) and
multiply their large table sizes by it. Here they run at a tenth of those sizes: every cell and chart runs the same
code on fewer hands, which is what this test checks, at a tenth of the time.
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
SCALE = "0.1"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("SMEAR_SIM_NOTEBOOK_SCALE", SCALE)  # the kernel inherits this process's environment
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
              if o.output_type == "error"]
    assert not errors
    images = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
              if "image/png" in o.get("data", {})]
    assert len(images) >= 4  # the charts were drawn


def test_there_is_a_notebook():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_read_the_scale_and_publish_full_sizes(path):
    """Each notebook scales its sizes by SMEAR_SIM_NOTEBOOK_SCALE, defaulting to 1, so that the published run (no
    variable set) is the one its committed outputs show."""
    first = next(cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code")
    assert 'SCALE = float(os.environ.get("SMEAR_SIM_NOTEBOOK_SCALE", "1"))' in first
