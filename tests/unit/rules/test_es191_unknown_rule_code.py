"""ES191 unknown-rule-code: a suppression names an evalsubmit code that no rule has (a typo)."""

from __future__ import annotations

from pathlib import Path

from rule_support import HEADER_LINES, apply_edits, results, source_of

from evalsubmit.analysis import AnalysisOptions, Project, analyze_source


def es191(snippet: str) -> list[tuple[int, int, str]]:
    report = analyze_source(source_of(snippet), path=Path("snippet.py"), project=Project())
    return [
        (f.span.line - HEADER_LINES, f.span.col, f.message)
        for f in report.findings
        if f.code == "ES191"
    ]


def test_a_typo_in_each_kind_of_comment() -> None:
    snippet = (
        "a = 1  # noqa: ES1O4, E501\n"
        "b = 2  # evalsubmit: ignore[ES999]\n"
        "# evalsubmit: ignore-file[es1o9]\n"
    )
    assert es191(snippet) == [
        (1, 15, "`ES1O4` is not an evalsubmit rule code (did you mean `ES104`?)"),
        (2, 28, "`ES999` is not an evalsubmit rule code"),  # nothing near enough
        (3, 26, "`ES1O9` is not an evalsubmit rule code (did you mean `ES109`?)"),
    ]


def test_one_character_off_is_suggested_when_only_one_code_is() -> None:
    assert es191("a = 1  # noqa: ES1044\nb = 2  # evalsubmit: ignore[ES10X]\n") == [
        (1, 15, "`ES1044` is not an evalsubmit rule code"),
        (2, 28, "`ES10X` is not an evalsubmit rule code"),  # ES100 to ES109: which one?
    ]
    assert es191("c = 3  # noqa: ES19O\n") == [
        (1, 15, "`ES19O` is not an evalsubmit rule code (did you mean `ES190`?)")
    ]


def test_other_tools_codes_and_known_codes_are_never_reported() -> None:
    assert es191("a = 1  # noqa: E501, F401, RUF100, W291\nb = 2  # noqa\n") == []
    assert results("x = 1  # noqa: ES190\n") == []  # ES190 and ES191 are codes too


def test_the_fix_removes_the_code_and_keeps_the_rest() -> None:
    source = source_of("a = 1  # noqa: ES1O4, E501\nb = 2  # noqa: ES1O4\n")
    report = analyze_source(source, path=Path("snippet.py"), project=Project())
    out = source
    for finding in sorted(
        (f for f in report.findings if f.code == "ES191"), key=lambda f: f.span, reverse=True
    ):
        out = apply_edits(out, finding.fixes[0].edits)
    assert out.endswith("a = 1  # noqa: E501\nb = 2\n")


def test_it_follows_select_and_ignore() -> None:
    report = analyze_source(
        "a = 1  # noqa: ES1O4\n",
        path=Path("a.py"),
        options=AnalysisOptions(ignore=frozenset({"ES191"})),
    )
    assert report.findings == ()
    report = analyze_source("a = 1  # noqa: ES1O4\n", path=Path("a.py"))
    assert [f.code for f in report.findings] == ["ES191"]  # in a module that cannot reach the SDK
