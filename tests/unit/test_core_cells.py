"""core/cells.py: a notebook's code cells as one module, IPython masked to same-length Python,
a broken cell blanked with its error kept, positions both ways."""

from __future__ import annotations

import ast

import pytest

from evalsubmit.core.cells import Cell, CellMap

IPYTHON = [
    "%pip install -q nemo-platform",
    "%env NMP_BASE_URL=http://127.0.0.1:8080",
    "%load_ext autoreload",
    "!ls -la configs/",
    "files = !ls configs/*.yaml",
    "env = %env",
    "runner?",
    "??GymAgentTaskRunner",
]


@pytest.mark.parametrize("line", IPYTHON)
def test_ipython_lines_are_masked_to_the_same_length(line: str) -> None:
    cell_map = CellMap.build([Cell("code", f"{line}\nx = 1")])
    masked, kept = cell_map.text.split("\n")
    assert len(masked) == len(line) and kept == "x = 1"
    ast.parse(cell_map.text)
    assert cell_map.cell_syntax_errors == []
    assert cell_map.locate(0, 0) is None and cell_map.locate(1, 2) == (0, 1, 2)


def test_an_assigned_shell_escape_keeps_its_name_and_a_block_stays_valid() -> None:
    text = "files = !ls\nfor f in files:\n    !echo {f}\n    print(f)"
    cell_map = CellMap.build([Cell("code", text)])
    tree = ast.parse(cell_map.text)
    assert isinstance(tree.body[0], ast.Assign) and tree.body[0].targets[0].id == "files"  # type: ignore[attr-defined]
    assert [len(line) for line in cell_map.text.split("\n")] == [len(x) for x in text.split("\n")]


def test_cell_magics() -> None:
    cells = [
        Cell("code", "%%bash\necho $HOME\nfor x in a b; do echo $x; done"),
        Cell("code", "%%writefile configs/agent.yaml\nagent: simple_agent"),
        Cell("code", "%%time\nrunner = make_runner()"),
    ]
    cell_map = CellMap.build(cells)
    ast.parse(cell_map.text)
    lines = cell_map.text.split("\n")
    assert all(line.strip() in ("", "0") for line in lines[:5])  # not Python at all
    assert lines[-1] == "runner = make_runner()"  # %%time's body is Python
    assert cell_map.locate(len(lines) - 1, 3) == (2, 1, 3)


def test_a_broken_cell_is_blanked_and_its_error_kept_in_the_cell() -> None:
    cells = [
        Cell("code", "import os"),
        Cell("markdown", "# Results"),
        Cell("code", "x = 1\ndef summarise(results:\n    return results"),
        Cell("code", "y = x + 1"),
    ]
    cell_map = CellMap.build(cells)
    assert cell_map.text.split("\n") == ["import os", "", "", "", "y = x + 1"]
    (error,) = cell_map.cell_syntax_errors
    assert (error.cell, error.line, error.col) == (2, 1, len("def summarise"))
    assert "never closed" in error.message
    assert cell_map.locate(2, 0) is None
    assert cell_map.position(3, 0, 4) == (4, 4) and cell_map.locate(4, 4) == (3, 0, 4)


def test_positions_of_cells_not_in_the_module() -> None:
    cell_map = CellMap.build([Cell("markdown", "# t"), Cell("code", "a = 1"), Cell("raw", "x")])
    assert cell_map.position(0, 0, 0) is None and cell_map.position(2, 0, 0) is None
    assert cell_map.position(1, 1, 0) is None  # past the cell's end
    assert cell_map.position(1, 0, 2) == (0, 2)
