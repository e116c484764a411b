"""The bundled examples are the acceptance test of the engine: every planted finding is marked
with a trailing ``# expect: ES10x`` comment on its anchor line, and nothing else may be reported.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from evalsubmit.analysis import AnalysisOptions, Project, analyze_source

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
EVALSUBMIT = REPO / ".venv" / "bin" / "evalsubmit"

MARKER = re.compile(r"#\s*expect:\s*(ES\d{3}(?:\s*,\s*ES\d{3})*)\s*$")
TEXT_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>ES\d{3}) (?P<msg>.+)$")
ALL_CODES = {f"ES{n}" for n in range(101, 111)}

Key = tuple[int, str]


def example_files() -> list[Path]:
    return sorted(p for p in EXAMPLES.rglob("*.py") if "__pycache__" not in p.parts)


def project_root(path: Path) -> Path:
    """Top-level scripts belong to ``examples/``; a sub-directory is its own small project."""
    rel = path.relative_to(EXAMPLES)
    return EXAMPLES if len(rel.parts) == 1 else EXAMPLES / rel.parts[0]


def expected_markers(path: Path) -> Counter[Key]:
    expected: Counter[Key] = Counter()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = MARKER.search(line)
        if match:
            for code in match.group(1).split(","):
                expected[(lineno, code.strip())] += 1
    return expected


def analyse(path: Path) -> Counter[Key]:
    report = analyze_source(
        path.read_text(encoding="utf-8"), path=path, project=Project(root=project_root(path))
    )
    return Counter((f.span.line, f.code) for f in report.findings)


def all_expected() -> Counter[tuple[str, int, str]]:
    total: Counter[tuple[str, int, str]] = Counter()
    for path in example_files():
        rel = path.relative_to(REPO).as_posix()
        for (line, code), n in expected_markers(path).items():
            total[(rel, line, code)] += n
    for notebook in sorted(EXAMPLES.rglob("*.ipynb")):  # as `check` prints them: "nb.ipynb:cell 3"
        rel = notebook.relative_to(REPO).as_posix()
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(cells, start=1):
            source = "".join(cell["source"])
            for lineno, line in enumerate(source.splitlines(), start=1):
                if (match := MARKER.search(line)) is not None:
                    for code in match.group(1).split(","):
                        total[(f"{rel}:cell {number}", lineno, code.strip())] += 1
    return total


def test_examples_exist() -> None:
    names = {p.relative_to(EXAMPLES).as_posix() for p in example_files()}
    assert {"nightly/runners.py", "nightly/submit_nightly.py", "async_eval.py"} <= names
    assert len(names) >= 10


def test_markers_cover_every_rule() -> None:
    codes = {code for (_, _, code) in all_expected()}
    assert codes == ALL_CODES


def test_readme_describes_every_example() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for path in example_files():
        assert path.relative_to(EXAMPLES).as_posix() in readme, path


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.relative_to(EXAMPLES).as_posix())
def test_example_findings_match_markers(path: Path) -> None:
    got = analyse(path)
    expected = expected_markers(path)
    missing = sorted((expected - got).elements())
    unexpected = sorted((got - expected).elements())
    assert (missing, unexpected) == ([], []), f"missing={missing} unexpected={unexpected}"


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.relative_to(EXAMPLES).as_posix())
def test_example_findings_are_well_formed(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    report = analyze_source(text, path=path, project=Project(root=project_root(path)))
    for finding in report.findings:
        assert finding.code in ALL_CODES
        assert finding.kind
        assert finding.message.strip()
        span = finding.span
        assert 1 <= span.line <= span.end_line <= len(lines)
        assert 0 <= span.col <= len(lines[span.line - 1])
        assert 0 <= span.end_col <= len(lines[span.end_line - 1])
        assert (span.line, span.col) < (span.end_line, span.end_col)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(EVALSUBMIT), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_demo_reports_exactly_the_planted_findings() -> None:
    proc = run_cli("check", "examples/")
    assert proc.returncode == 1, proc.stderr
    got: Counter[tuple[str, int, str]] = Counter()
    cols: dict[tuple[str, int, str], set[int]] = {}
    for line in proc.stdout.splitlines():
        match = TEXT_LINE.match(line)
        if not match:
            continue
        rel = (REPO / match["path"]).resolve().relative_to(REPO).as_posix()
        key = (rel, int(match["line"]), match["code"])
        got[key] += 1
        cols.setdefault(key, set()).add(int(match["col"]))
    expected = all_expected()
    missing = sorted((expected - got).elements())
    unexpected = sorted((got - expected).elements())
    assert (missing, unexpected) == ([], []), f"missing={missing} unexpected={unexpected}"

    # Columns are 1-based in the text output: the engine's 0-based column plus one.
    for path in example_files():
        rel = path.relative_to(REPO).as_posix()
        report = analyze_source(
            path.read_text(encoding="utf-8"), path=path, project=Project(root=project_root(path))
        )
        for finding in report.findings:
            key = (rel, finding.span.line, finding.code)
            assert finding.span.col + 1 in cols.get(key, set()), (key, cols.get(key))


def test_demo_on_a_clean_file_exits_zero() -> None:
    proc = run_cli("check", "examples/lookalikes.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not [line for line in proc.stdout.splitlines() if TEXT_LINE.match(line)]


@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_findings_do_not_depend_on_the_summaries(path: Path) -> None:
    """``check`` turns previews and submit summaries off; the findings must be the same."""
    source = path.read_text(encoding="utf-8")
    project = Project(project_root(path))
    full = analyze_source(source, path=path, project=project)
    findings_only = analyze_source(
        source, path=path, project=project, options=AnalysisOptions(summaries=False)
    )
    assert findings_only.findings == full.findings
    assert findings_only.remote_findings == full.remote_findings
    assert (findings_only.runners, findings_only.submits) == ((), ())
