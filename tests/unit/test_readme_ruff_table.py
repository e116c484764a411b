"""The README's table of ruff's flags cannot rot: every row names at least one test, and each
named test exists (``path::name``, a ``def test_name`` in that file of the test tree)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = "| ruff | evalsubmit | tested by |"
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")


def table_rows(readme: str) -> list[list[str]]:
    """The rows of the table whose header is :data:`HEADER`, as cells (escaped ``|`` kept)."""
    lines = readme.splitlines()
    start = lines.index(HEADER)
    rows: list[list[str]] = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        rows.append(cells)
    return rows


def test_every_row_names_tests_that_exist() -> None:
    rows = table_rows((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(rows) >= 30
    missing: list[str] = []
    for cells in rows:
        assert len(cells) == 3, cells
        named = REFERENCE.findall(cells[2])
        assert named, f"row without a test: {cells[0]}"
        for path, name in named:
            source = ROOT / path
            text = source.read_text(encoding="utf-8") if source.is_file() else ""
            if not re.search(rf"^(async )?def {name}\(", text, re.MULTILINE):
                missing.append(f"{path}::{name}")
    assert not missing, missing


def test_a_row_naming_a_missing_test_is_caught(tmp_path: Path) -> None:
    readme = f"{HEADER}\n| --- | --- | --- |\n| `--x` | `--x` | `tests/unit/nope.py::test_nope` |\n"
    rows = table_rows(readme)
    assert REFERENCE.findall(rows[0][2]) == [("tests/unit/nope.py", "test_nope")]
    assert not (ROOT / "tests/unit/nope.py").exists()
