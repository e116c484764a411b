"""ES111 sdk-version-mismatch (information): the SDK installed in the user's environment (read
from its dist-info METADATA) is not the release the rules are for; once per file, on its
first SDK import."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import (
    AnalysisOptions,
    DocumentAnalyzer,
    Project,
    Severity,
    analyze_source,
)
from evalsubmit.analysis.rules import RULES
from evalsubmit.sdk.releases import RELEASES, SUPPORTED, version_note
from evalsubmit.sdk.version import SDK_VERSION
from fake_env import sdk_env

JOB = """\
import os
from nemo_evaluator.api.schemas import (
    TasksetRef,
)
from nemo_platform import NeMoPlatform

NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa smoke"), target=None)
"""


def es111(python: Path | None, text: str = JOB, **options: frozenset[str]) -> list[tuple[int, str]]:
    ws = python.parent.parent if python else Path("/nonexistent")
    report = analyze_source(
        text,
        path=ws / "job.py",
        project=Project(ws, python=python),
        options=AnalysisOptions(**options),
    )
    return [(f.span.line, f.message) for f in report.findings if f.code == "ES111"]


NOTE = f"rules are for nemo-platform {SDK_VERSION}; 0.7.1 is installed: results may differ"


def test_another_version_is_noted_once_on_the_first_sdk_import(tmp_path: Path) -> None:
    python = sdk_env(tmp_path / "venv", nemo_platform="0.7.1")
    assert es111(python) == [(2, NOTE)]
    ws = python.parent.parent
    report = analyze_source(JOB, path=ws / "job.py", project=Project(ws, python=python))
    [found] = [f for f in report.findings if f.code == "ES111"]
    assert found.severity is Severity.INFORMATION and found.kind == "sdk-version-mismatch"
    assert (found.span.line, found.span.end_line) == (2, 2)  # the first line of the import
    assert {"ES104", "ES108"} <= {f.code for f in report.findings}  # the rules still run


def test_the_supported_version_and_no_sdk_are_silent(tmp_path: Path) -> None:
    assert es111(sdk_env(tmp_path / "same", nemo_platform=SDK_VERSION)) == []
    assert es111(sdk_env(tmp_path / "none")) == []
    assert es111(None) == []


def test_a_separate_evaluator_sdk_is_noted(tmp_path: Path) -> None:
    python = sdk_env(tmp_path / "venv", nemo_evaluator_sdk="1.0.0")
    [(line, message)] = es111(python)
    assert line == 2 and "nemo-evaluator-sdk 1.0.0 is installed" in message


def test_files_without_an_sdk_import_are_silent(tmp_path: Path) -> None:
    python = sdk_env(tmp_path / "venv", nemo_platform="0.7.1")
    assert es111(python, "import os\nimport helpers\nhelpers.submit()\n") == []


def test_it_can_be_ignored_like_any_rule(tmp_path: Path) -> None:
    python = sdk_env(tmp_path / "venv", nemo_platform="0.7.1")
    assert es111(python, ignore=frozenset({"ES111"})) == []
    silenced = JOB.replace("import (", "import (  # evalsubmit: ignore[ES111]")
    assert es111(python, silenced) == []


def test_the_release_table() -> None:
    """One entry per known release; the rules check against the one of sdk/version.py."""
    assert RELEASES[SDK_VERSION] is SUPPORTED
    assert RULES["ES111"].severity is Severity.INFORMATION
    assert version_note({}) is None
    assert version_note({"nemo-platform": SDK_VERSION}) is None
    assert version_note({"nemo-platform": "0.7.1"}) == NOTE


@pytest.mark.parametrize("version", ["0.6.0rc1", "0.6.1", "1.0.0"])
def test_every_other_version_is_noted(version: str) -> None:
    note = version_note({"nemo-platform": version})
    assert note is not None and f"; {version} is installed" in note


def test_the_note_follows_an_import_in_a_body_below_an_edit(tmp_path: Path) -> None:
    """An Enter above a function that imports the SDK in its body: the import's line moves
    (the nodes inside a statement below an edit move after the findings, unless read first)."""
    python = sdk_env(tmp_path / "venv", nemo_platform="0.7.1")
    ws = python.parent.parent
    project = Project(ws, python=python)
    text = "x = 1\n\n\ndef go():\n    from nemo_platform import NeMoPlatform\n    return 1\n"
    analyzer = DocumentAnalyzer(ws / "job.py", project)
    for version in (text, "\n\n" + text, "\n" + text):
        edited = analyzer.analyze(version)
        fresh = analyze_source(version, path=ws / "job.py", project=project)
        assert [f.span for f in edited.findings if f.code == "ES111"] == [
            f.span for f in fresh.findings if f.code == "ES111"
        ]
        assert [f.span.line for f in fresh.findings if f.code == "ES111"] == [
            version.splitlines().index("    from nemo_platform import NeMoPlatform") + 1
        ]
