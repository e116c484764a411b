"""ES190 unused-suppression: a suppression comment, or one of its codes, that silences nothing;
decided as ruff decides RUF100, never before every finding that can land on the line is known."""

from __future__ import annotations

from pathlib import Path

from rule_support import HEADER_LINES, apply_edits, results, source_of

from evalsubmit.analysis import AnalysisOptions, DocumentAnalyzer, Project, analyze_source
from evalsubmit.analysis.engine.analyze import with_remote_findings

BAD_TARGET = 'client.evaluator.submit(tasks=T, target="not-a-runner")'


def es190(snippet: str, **options: frozenset[str]) -> list[tuple[int, str]]:
    report = analyze_source(
        source_of(snippet),
        path=Path("snippet.py"),
        project=Project(),
        options=AnalysisOptions(**options),
    )
    return [(f.span.line - HEADER_LINES, f.message) for f in report.findings if f.code == "ES190"]


def fixed(snippet: str) -> str:
    """The snippet after the fix of its one ES190 finding."""
    source = source_of(snippet)
    report = analyze_source(source, path=Path("snippet.py"), project=Project())
    [finding] = [f for f in report.findings if f.code == "ES190"]
    return apply_edits(source, finding.fixes[0].edits)[len(source_of("")) :]


def test_a_code_that_silences_a_finding_is_used() -> None:
    for comment in ("# noqa: ES104", "# evalsubmit: ignore[ES104]", "# NOQA:ES104,E501"):
        assert results(f"{BAD_TARGET}  {comment}\n") == []


def test_an_unused_code_is_reported_with_a_fix_that_keeps_the_rest() -> None:
    snippet = f"{BAD_TARGET}  # noqa: E501, ES104, ES109\n"
    assert es190(snippet) == [(1, "Unused `noqa` suppression (unused: `ES109`)")]
    assert fixed(snippet) == f"{BAD_TARGET}  # noqa: E501, ES104\n"
    helper = "def make():\n    return gym_runner  # evalsubmit: ignore[ES104]\n"
    assert es190(helper) == [(2, "Unused `evalsubmit: ignore` suppression (unused: `ES104`)")]
    assert fixed(helper) == "def make():\n    return gym_runner\n"
    explained = "x = 1  # evalsubmit: ignore[ES104] flaky in CI\n"
    assert fixed(explained) == "x = 1  # flaky in CI\n"


def test_a_bare_noqa_and_other_tools_codes_are_never_judged() -> None:
    assert es190("x = 1  # noqa\ny = 2  # noqa: E501, F401\nz = 3  # type: ignore # noqa\n") == []


def test_a_bare_ignore_that_silences_nothing_is_removed_whole() -> None:
    assert es190("x = 1  # evalsubmit: ignore\n") == [
        (1, "`# evalsubmit: ignore` silences nothing")
    ]
    assert fixed("x = 1  # evalsubmit: ignore\n") == "x = 1\n"


def test_a_code_of_a_rule_turned_off_is_non_enabled_as_ruff_says() -> None:
    snippet = f"{BAD_TARGET}  # noqa: ES104\n"
    off = es190(snippet, ignore=frozenset({"ES104"}))
    assert off == [(1, "Unused `noqa` suppression (non-enabled: `ES104`)")]
    assert es190(snippet, ignore=frozenset({"ES104", "ES190"})) == []  # ES190 off: not judged


def test_es190_is_kept_on_purpose_by_naming_it() -> None:
    assert es190("x = 1  # noqa: ES104, ES190\n") == []
    assert es190("# evalsubmit: ignore-file[ES190]\nx = 1  # noqa: ES104\n") == []


def test_a_comment_inside_a_string_is_text() -> None:
    assert es190('NOTE = "see # noqa: ES104"\nDOC = """\n# evalsubmit: ignore[ES109]\n"""\n') == []


def test_nothing_is_called_unused_in_a_file_with_a_syntax_error() -> None:
    snippet = "x = 1  # noqa: ES104\ndef broken(:\n    pass\n"
    report = analyze_source(source_of(snippet), path=Path("snippet.py"), project=Project())
    assert "ES100" in {f.code for f in report.findings}
    assert "ES190" not in {f.code for f in report.findings}


def test_ignore_file_used_and_unused() -> None:
    used = f"# evalsubmit: ignore-file[ES104]\n{BAD_TARGET}\n"
    assert results(used) == []
    unused = f"# evalsubmit: ignore-file[ES104, ES109]\n{BAD_TARGET}\n"
    assert es190(unused) == [(1, "Unused `evalsubmit: ignore-file` suppression (unused: `ES109`)")]
    assert fixed(unused) == f"# evalsubmit: ignore-file[ES104]\n{BAD_TARGET}\n"
    alone = "# evalsubmit: ignore-file[ES109]\nx = 1\n"
    assert fixed(alone) == "x = 1\n"  # the whole line goes


# -- a finding another module places here: judged only once the importers are analysed ------

RUNNERS = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n\n"
    "runner = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
    '    agent="a", agent_config="c.yaml", resources_server="mcqa",\n'
    '    hydra_params={"hook": lambda r: r},  # evalsubmit: ignore[ES107]\n'
    "))\n"
)
SUBMITTER = (
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "from nemo_platform import NeMoPlatform\n\n"
    "from runners import runner\n\n"
    'client = NeMoPlatform(workspace="qa")\n'
    'client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'
)


def codes(report_findings: tuple[object, ...]) -> list[str]:
    return [f.code for f in report_findings]  # type: ignore[attr-defined]


def test_a_suppression_of_a_finding_placed_by_an_importer_is_used(tmp_path: Path) -> None:
    (tmp_path / "job.py").write_text(SUBMITTER, encoding="utf-8")
    path = tmp_path / "runners.py"
    path.write_text(RUNNERS, encoding="utf-8")
    project, options = Project(tmp_path), AnalysisOptions()
    forward = DocumentAnalyzer(path, project, options).analyze(RUNNERS, reverse=False)
    assert codes(forward.findings) == []  # not judged yet: the ES107 arrives with job.py
    whole = with_remote_findings(forward, RUNNERS, path=path, project=project, options=options)
    assert codes(whole.findings) == []  # it arrived and was silenced: used
    assert [f.code for f in whole.suppressed] == ["ES107"]


def test_it_is_unused_once_no_importer_places_it(tmp_path: Path) -> None:
    # job.py imports the runner but no longer submits it: nothing can land here any more
    (tmp_path / "job.py").write_text(SUBMITTER.replace("submit(", "get("), encoding="utf-8")
    path = tmp_path / "runners.py"
    path.write_text(RUNNERS, encoding="utf-8")
    report = analyze_source(RUNNERS, path=path, project=Project(tmp_path))
    assert [(f.code, f.span.line) for f in report.findings] == [("ES190", 5)]
    forward = analyze_source(RUNNERS, path=path, project=Project(tmp_path), reverse=False)
    assert forward.findings == ()  # forward alone never says it


def test_line_ends_of_every_kind_give_the_same_lines() -> None:
    snippet = 'DOC = """\n# noqa: ES104\n"""\nx = 1  # noqa: ES104\n'
    for end in ("\n", "\r\n", "\r"):
        source = source_of(snippet).replace("\n", end)
        report = analyze_source(source, path=Path("snippet.py"), project=Project())
        found = [(f.code, f.span.line - HEADER_LINES) for f in report.findings]
        assert found == [("ES190", 4)], end
