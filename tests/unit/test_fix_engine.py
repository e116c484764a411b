"""The one fix engine (``analysis.engine.fixes``) of the editor's fix-all and ``check --fix``:
never a module that no longer parses, the original kept when a round fails, bounded rounds,
safe fixes unless unsafe ones are asked for."""

from __future__ import annotations

from pathlib import Path

from cli_project import NIGHTLY, make_project
from evalsubmit.analysis import AnalysisOptions, ModuleReport, Project, analyze_source
from evalsubmit.analysis.engine.fixes import MAX_ROUNDS, fix_all, fix_source
from evalsubmit.core.findings import Applicability, Edit, Finding, Fix, Severity, Span


def finding(span: Span, *edits: Edit, applicability: Applicability = Applicability.SAFE) -> Finding:
    fix = Fix("fix it", edits, applicability)
    return Finding("ES102", "row-option-on-taskset", Severity.ERROR, "m", span, (fix,))


def test_a_fix_that_would_break_the_parse_is_left_out() -> None:
    text = "job = submit(tasks=t, config=c)\n"
    breaking = finding(Span(1, 22, 1, 30), Edit(Span(1, 20, 1, 30), "("))
    removing = finding(Span(1, 6, 1, 12), Edit(Span(1, 6, 1, 12), "run"))
    report = ModuleReport(None, (breaking, removing))
    outcome = fix_source(text, report, lambda t: ModuleReport(None, (breaking,)))
    assert outcome.text == "job = run(tasks=t, config=c)\n"
    assert outcome.fixed == 1 and outcome.rejected == [breaking]


def test_a_failing_reanalysis_keeps_the_original() -> None:
    text = "job = submit(tasks=t, config=c)\n"
    removing = finding(Span(1, 20, 1, 30), Edit(Span(1, 20, 1, 30), ""))

    def analyze(_: str) -> ModuleReport:
        raise RecursionError("nested too deeply")

    outcome = fix_source(text, ModuleReport(None, (removing,)), analyze)
    assert outcome.text == text and outcome.fixed == 0 and not outcome.changed
    assert outcome.failure == (
        "re-analysing the fixed text failed (RecursionError: nested too deeply)"
    )


def test_rounds_are_bounded() -> None:
    endless = finding(Span(1, 0, 1, 0), Edit(Span(1, 0, 1, 0), "# "))  # never fixes itself
    outcome = fix_source(
        "x = 1\n", ModuleReport(None, (endless,)), lambda t: ModuleReport(None, (endless,))
    )
    assert outcome.text == "# " * MAX_ROUNDS + "x = 1\n"
    assert outcome.converged is False


def test_unsafe_fixes_only_when_asked() -> None:
    unsafe = finding(
        Span(1, 0, 1, 3), Edit(Span(1, 0, 1, 3), "y"), applicability=Applicability.UNSAFE
    )
    report = ModuleReport(None, (unsafe,))
    clean = lambda t: ModuleReport(None)  # noqa: E731
    assert fix_source("abc = 1\n", report, clean).text == "abc = 1\n"
    assert fix_source("abc = 1\n", report, clean, unsafe=True).text == "y = 1\n"
    assert fix_all("abc = 1\n", report, clean) is None  # the editor's fix-all: safe only


def test_the_editor_fix_all_is_the_cli_fix(tmp_path: Path) -> None:
    root = make_project(tmp_path / "team")
    path = root / "jobs" / "nightly.py"
    project = Project(root)

    def analyze(text: str) -> ModuleReport:
        return analyze_source(text, path=path, project=project, options=AnalysisOptions())

    fixed = fix_all(NIGHTLY, analyze(NIGHTLY), analyze)
    assert fixed == (root / "jobs" / "nightly.py").read_text(encoding="utf-8").replace(
        ",\n    config=RunConfig(parallelism=16)", ""
    )
    assert "metric=metric" in fixed  # ES101's fix is unsafe: not in fix-all


def test_a_module_that_does_not_parse_is_not_fixed() -> None:
    text = "job = submit(tasks=t, config=c\n"  # the closing parenthesis is missing
    removing = finding(Span(1, 20, 1, 30), Edit(Span(1, 20, 1, 30), ""))
    outcome = fix_source(text, ModuleReport(None, (removing,)), lambda t: ModuleReport(None))
    assert outcome.text == text and outcome.fixed == 0
    assert outcome.failure == "the module does not parse: fix its syntax first"
    assert fix_source(text, ModuleReport(None), lambda t: ModuleReport(None)).failure is None


def test_each_rule_declares_the_applicability_of_its_fixes_and_documents_it() -> None:
    from evalsubmit.analysis.rules import RULES

    examples = Path(__file__).resolve().parents[2] / "examples"
    project = Project(examples)
    seen: set[str] = set()
    # ES105's fix names the taskset to run: offered with a default-taskset only
    options = AnalysisOptions(default_taskset="qa/smoke")
    for path in sorted(examples.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for found in analyze_source(text, path=path, project=project, options=options).findings:
            for fix in found.fixes:
                assert fix.applicability is RULES[found.code].fix, (found.code, fix.title)
                seen.add(found.code)
    assert seen == {"ES101", "ES102", "ES105", "ES107", "ES109"}  # every rule with a fix
    for rule in RULES.values():
        assert ("**Fix safety:** " + str(rule.fix) in rule.docs) is (rule.fix is not None)
