"""Position conversion (code points <-> UTF-16/UTF-8/UTF-32) and edit helpers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.protocol import default_converter

from evalsubmit.analysis import Edit, Finding, Fix, Project, Severity, Span, analyze_source
from evalsubmit.core.edits import apply_edits, minimal_edit
from evalsubmit.lsp import convert
from evalsubmit.lsp.code_actions import suppression_edit

LINE = "x = '🙂é'  # a"  # 🙂 is outside the BMP: 2 UTF-16 units, 4 UTF-8 bytes


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [
        (convert.UTF16, [0, 5, 7, 8, 9]),
        (convert.UTF8, [0, 5, 9, 11, 12]),
        (convert.UTF32, [0, 5, 6, 7, 8]),
    ],
)
def test_columns_round_trip(encoding: str, expected: list[int]) -> None:
    cols = [0, 5, 6, 7, 8]  # before x, before 🙂, before é, before ', after '
    assert [convert.to_lsp_character(LINE, c, encoding) for c in cols] == expected
    assert [convert.from_lsp_character(LINE, e, encoding) for e in expected] == cols


def _units_one_by_one(line: str, col: int, encoding: str) -> int:
    """The definition: the sum of each code point's units (a lone surrogate is one unit)."""
    prefix = line[: max(0, min(col, len(line)))]
    if encoding == convert.UTF8:
        return sum(len(ch.encode("utf-8", "surrogatepass")) for ch in prefix)
    if encoding == convert.UTF16:
        return sum(2 if ord(ch) > 0xFFFF else 1 for ch in prefix)
    return len(prefix)


@pytest.mark.parametrize("encoding", [convert.UTF8, convert.UTF16, convert.UTF32])
def test_columns_agree_with_the_definition_on_any_text(encoding: str) -> None:
    """The whole-prefix shortcuts (ASCII, one encode) give what counting code point by code
    point gives, on ASCII, BMP, astral and lone-surrogate text, and clamp alike."""
    rng = random.Random(7)
    alphabet = ["a", " ", "é", "中", "🙂", "\ud800", "\U0010ffff"]
    for _ in range(3000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        col = rng.randint(-2, 13)
        units = _units_one_by_one(line, col, encoding)
        assert convert.to_lsp_character(line, col, encoding) == units, (line, col)
        assert convert.from_lsp_character(line, units, encoding) == max(0, min(col, len(line)))


def test_split_surrogate_rounds_down_and_clamps() -> None:
    assert convert.from_lsp_character(LINE, 6) == 5  # inside the surrogate pair
    assert convert.from_lsp_character(LINE, 999) == len(LINE)
    assert convert.to_lsp_character(LINE, 999) == convert.to_lsp_character(LINE, len(LINE))


def test_lines_split_like_the_lsp() -> None:
    assert convert.split_lines("a\r\nb\rc\nd\x0ce\u2028f") == ["a", "b", "c", "d\x0ce\u2028f"]


def test_range_and_position_clamp_past_the_end() -> None:
    lines = ["ab", "🙂"]
    rng = convert.lsp_range(Span(2, 0, 9, 0), lines)
    assert rng.start == types.Position(line=1, character=0)
    assert rng.end == types.Position(line=1, character=2)
    assert convert.core_position(types.Position(line=7, character=1), lines) == (2, 0)


def test_diagnostic_fields() -> None:
    finding = Finding(
        "ES999",
        "made-up",
        Severity.WARNING,
        "message",
        Span(1, 4, 1, 7),
        (Fix("title", (Edit(Span(1, 4, 1, 7), "new"),)),),
    )
    diag = convert.diagnostic(
        finding, ["x = '🙂'"], version=3, severity_overrides={"ES999": "hint"}
    )
    assert diag.severity == types.DiagnosticSeverity.Hint
    assert diag.source == "evalsubmit" and diag.code == "ES999"
    assert diag.code_description is None  # unknown rule: no docs link
    assert diag.range.end.character == 8
    assert diag.data == {
        "kind": "made-up",
        "version": 3,
        "fixes": [
            {
                "title": "title",
                "edits": [
                    {
                        "range": {
                            "start": {"line": 0, "character": 4},
                            "end": {"line": 0, "character": 8},
                        },
                        "newText": "new",
                    }
                ],
            }
        ],
    }
    (edit,) = convert.edits_from_data(diag.data["fixes"][0])  # type: ignore[index]
    assert convert.apply_text_edits("x = '🙂'", [edit]) == "x = new"


def _findings_of_the_examples() -> list[tuple[list[str], Finding]]:
    root = Path(__file__).resolve().parents[2]
    found = []
    for path in sorted((root / "examples").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        report = analyze_source(text, path=path, project=Project(path.parent))
        assert report.skipped is None and not report.internal_errors, (path, report.skipped)
        found += [(convert.split_lines(text), finding) for finding in report.findings]
    return found


@pytest.mark.parametrize("encoding", [convert.UTF16, convert.UTF8, convert.UTF32])
def test_a_diagnostic_made_as_json_is_what_the_converter_makes(encoding: str) -> None:
    """A push sends diagnostics made as JSON (``diagnostic_json``): the same JSON as pygls's
    converter makes of ``diagnostic``'s, for every finding of the examples (fixes, rules with
    and without a docs link), severities overridden, on non-ASCII lines and past the end."""
    converter = default_converter()
    odd = [
        Finding("ES999", "made-up", Severity.WARNING, "m", Span(1, 4, 1, 7), ()),
        Finding("ES999", "made-up", Severity.ERROR, "m", Span(0, 0, 9, 3), ()),
    ]
    cases = [*_findings_of_the_examples(), *((["x = '🙂é'", "y"], f) for f in odd)]
    assert len(cases) > 30 and any(f.fixes for _, f in cases)
    for version, overrides in [(None, {}), (7, {"ES105": "hint", "ES999": "error"})]:
        for lines, finding in cases:
            made = convert.diagnostic(
                finding, lines, version=version, severity_overrides=overrides, encoding=encoding
            )
            as_json = convert.diagnostic_json(
                finding, lines, version=version, severity_overrides=overrides, encoding=encoding
            )
            assert json.dumps(as_json) == json.dumps(converter.unstructure(made))


def test_apply_edits_crlf_and_minimal_edit() -> None:
    text = "a = 1\r\nb = '🙂'\r\nc = 3\r\n"
    edited = apply_edits(text, [Edit(Span(2, 4, 2, 7), "2"), Edit(Span(3, 0, 3, 1), "d")])
    assert edited == "a = 1\r\nb = 2\r\nd = 3\r\n"
    edit = minimal_edit(text, edited)
    assert apply_edits(text, [edit]) == edited
    assert edit.span.line == 2


def test_suppression_edit_appends_and_merges() -> None:
    lines = ["f(x)   ", "g(y)  # evalsubmit: ignore[ES109]"]
    append = suppression_edit(lines, 0, "ES107")
    assert apply_edits("\n".join(lines), [append]).split("\n")[0] == (
        "f(x)  # evalsubmit: ignore[ES107]"
    )
    merge = suppression_edit(lines, 1, "ES101")
    assert merge.new_text == "# evalsubmit: ignore[ES101, ES109]"
