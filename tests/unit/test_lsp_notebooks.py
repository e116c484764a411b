"""The language server's notebook layout (lsp/notebooks.py): positions, diagnostics and edits
between a notebook's joined module and its cells, in LSP units."""

from __future__ import annotations

from lsprotocol import types

from evalsubmit.core.cells import Cell
from evalsubmit.lsp.convert import apply_text_edits
from evalsubmit.lsp.notebooks import Layout, split_diagnostics

CELLS = [
    ("c0", Cell("code", "%pip install nemo-platform\nimport os")),
    ("c1", Cell("markdown", "# Title")),
    ("c2", Cell("code", "x = 1\ny = 'é𝄞'\nz = x + 1")),
    ("c3", Cell("code", "print(x)\nprint(z)")),
]


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def joined_position(layout: Layout, needle: str, offset: int = 0) -> types.Position:
    """The LSP (UTF-16) position of ``needle`` in the joined text."""
    for index, line in enumerate(layout.lines):
        if needle in line:
            col = line.index(needle) + offset
            return pos(index, len(line[:col].encode("utf-16-le")) // 2)
    raise AssertionError(needle)


def test_positions_round_trip_through_every_code_cell() -> None:
    layout = Layout.build(1, CELLS)
    for index, (_, cell) in enumerate(CELLS):
        if cell.kind != "code":
            continue
        for line_no, line in enumerate(cell.text.split("\n")):
            if line.startswith("%"):
                continue
            start = pos(line_no, 0)
            joined = layout.from_cell(index, start, "utf-16")
            assert layout.lines[joined.line] == line
            assert layout.to_cell(joined, "utf-16") == (index, start)


def test_a_column_after_an_astral_character_is_kept_in_utf16() -> None:
    layout = Layout.build(1, CELLS)
    after = pos(1, len("y = 'é𝄞".encode("utf-16-le")) // 2)  # 𝄞 is two UTF-16 units
    joined = layout.from_cell(2, after, "utf-16")
    assert joined.character == after.character
    assert layout.to_cell(joined, "utf-16") == (2, after)


def test_diagnostics_split_per_cell_every_cell_listed() -> None:
    layout = Layout.build(1, CELLS)
    start = joined_position(layout, "z = x + 1")
    end = types.Position(line=start.line, character=start.character + 1)
    diag = types.Diagnostic(range=types.Range(start=start, end=end), message="m", code="ES102")
    split = dict(split_diagnostics(layout, [diag], "utf-16"))
    assert set(split) == {"c0", "c1", "c2", "c3"}
    (moved,) = split["c2"]
    assert moved.range.start == pos(2, 0) and moved.code == "ES102"
    assert split["c0"] == split["c1"] == split["c3"] == []


def test_an_edit_becomes_an_edit_of_its_cell_only() -> None:
    layout = Layout.build(1, CELLS)
    at = joined_position(layout, "x + 1", 4)
    edit = types.TextEdit(
        range=types.Range(start=at, end=pos(at.line, at.character + 1)), new_text="2"
    )
    per_cell = layout.cell_edits([edit], "utf-16")
    assert per_cell is not None and set(per_cell) == {2}
    assert apply_text_edits(CELLS[2][1].text, per_cell[2]) == "x = 1\ny = 'é𝄞'\nz = x + 2"


def test_deleting_a_cells_last_line_and_inserting_lines() -> None:
    layout = Layout.build(1, CELLS)
    last = joined_position(layout, "print(z)")
    before = joined_position(layout, "print(x)")
    edits = [
        # delete "print(z)" with the line break before it
        types.TextEdit(
            range=types.Range(start=pos(before.line, len("print(x)")), end=pos(last.line, 8)),
            new_text="",
        ),
        types.TextEdit(range=types.Range(start=before, end=before), new_text="w = 3\n"),
    ]
    per_cell = layout.cell_edits(edits, "utf-16")
    assert per_cell is not None and set(per_cell) == {3}
    assert apply_text_edits(CELLS[3][1].text, per_cell[3]) == "w = 3\nprint(x)"


def test_an_edit_on_masked_ipython_is_refused() -> None:
    layout = Layout.build(1, CELLS)
    edit = types.TextEdit(range=types.Range(start=pos(0, 0), end=pos(0, 0)), new_text="# x\n")
    assert layout.cell_edits([edit], "utf-16") is None


def test_edits_in_two_cells() -> None:
    layout = Layout.build(1, CELLS)
    a, b = joined_position(layout, "x = 1"), joined_position(layout, "print(x)")
    edits = [
        types.TextEdit(range=types.Range(start=a, end=pos(a.line, 5)), new_text="x = 5"),
        types.TextEdit(range=types.Range(start=b, end=pos(b.line, 8)), new_text="print(x, z)"),
    ]
    per_cell = layout.cell_edits(edits, "utf-16")
    assert per_cell is not None and set(per_cell) == {2, 3}
    assert apply_text_edits(CELLS[2][1].text, per_cell[2]).startswith("x = 5\n")
    assert apply_text_edits(CELLS[3][1].text, per_cell[3]) == "print(x, z)\nprint(z)"
