"""A module's cached bindings are reused only while every module they were built from reads the
same, the modules its imports read included: ``jobs.py`` imports ``settings.py``, which takes a
value from ``limits.py``; editing ``limits.py`` alone must change what ``jobs.py`` reports (a
stale value kept its finding, or its preview, until the editor was restarted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import AnalysisOptions, DocumentAnalyzer, Project, analyze_source
from indirect_project import JOBS, LIMITS, SETTINGS


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    (tmp_path / "limits.py").write_text(LIMITS.format(value=8))
    (tmp_path / "settings.py").write_text(SETTINGS)
    (tmp_path / "jobs.py").write_text(JOBS)
    return tmp_path


def _codes(report_findings: object) -> list[str]:
    return [f.code for f in report_findings]  # type: ignore[attr-defined]


def test_an_edit_on_disk_two_imports_away_is_seen(project_dir: Path) -> None:
    project = Project(project_dir)
    jobs = project_dir / "jobs.py"
    document = DocumentAnalyzer(jobs, project, AnalysisOptions())
    before = document.analyze(JOBS, reverse=False)
    assert _codes(before.findings) == []
    assert project_dir / "limits.py" in before.dependencies

    (project_dir / "limits.py").write_text(LIMITS.format(value=0))
    after = document.analyze(JOBS, reverse=False)
    fresh = analyze_source(JOBS, path=jobs, project=Project(project_dir), reverse=False)
    assert _codes(after.findings) == _codes(fresh.findings) == ["ES109"]
    assert analyze_source(JOBS, path=jobs, project=project, reverse=False) == after


def test_an_unsaved_edit_two_imports_away_is_seen(project_dir: Path) -> None:
    project = Project(project_dir)
    jobs = project_dir / "jobs.py"
    document = DocumentAnalyzer(jobs, project, AnalysisOptions())
    assert document.analyze(JOBS, reverse=False).runners[0].target is not None

    project.set_overlay(project_dir / "limits.py", LIMITS.format(value=0))
    after = document.analyze(JOBS, reverse=False)
    assert _codes(after.findings) == ["ES109"]
    assert after.runners[0].target is None  # the preview no longer offers the old target

    project.drop_overlay(project_dir / "limits.py")
    assert _codes(document.analyze(JOBS, reverse=False).findings) == []
