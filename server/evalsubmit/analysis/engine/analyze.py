"""Entry point of the analysis core: text -> parse -> interpret -> rules -> report."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from evalsubmit.analysis import rules as registry
from evalsubmit.analysis.engine.incremental import AnalysisCaches, GroupResult
from evalsubmit.analysis.interp.facts import ConstructionKind, FactGroup, SubmitFact
from evalsubmit.analysis.interp.interpreter import Interpreter
from evalsubmit.analysis.report import ModuleReport, Shape, SubmitReport, TargetPreview
from evalsubmit.analysis.rules import (
    es101_mixed_shape,
    es102_row_option_on_taskset,
    es103_no_shape,
    es104_non_runner_target,
    es105_runner_on_row_path,
    es106_unsubmittable_runner,
    es107_unserializable_config,
    es108_bad_taskset_ref,
    es109_invalid_config_value,
    es110_literal_secret,
)
from evalsubmit.analysis.rules.base import RuleContext
from evalsubmit.analysis.source.parse import ParsedModule, parse_source
from evalsubmit.analysis.target.derive import Derivation
from evalsubmit.analysis.values.domain import Instance, Known
from evalsubmit.core.findings import Finding, Span
from evalsubmit.workspace.project import Project

# Cheap pre-filter: a module that never mentions the SDK cannot hold a finding.
_RELEVANT = re.compile(r"nemo_|TasksetRef|GymRuntimeConfig|GymAgentTaskRunner|import")
_SUPPRESSION = re.compile(r"#\s*evalsubmit:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)

TASKSET_CHECKS = (
    es101_mixed_shape.check,
    es104_non_runner_target.check,
    es102_row_option_on_taskset.check,
)
CONTENT_CHECKS = (
    es106_unsubmittable_runner.check,
    es107_unserializable_config.check,
    es108_bad_taskset_ref.check_submit,
)
CONSTRUCTION_CHECKS = (
    es108_bad_taskset_ref.check_construction,
    es109_invalid_config_value.check_construction,
    es110_literal_secret.check_construction,
)

assert registry.RULES, "rule modules register on import"


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    select: frozenset[str] = frozenset()
    """Codes (or prefixes such as ``ES1``) to report; empty means all."""
    ignore: frozenset[str] = frozenset()
    max_bytes: int = 2_000_000
    """Larger sources are skipped with a reason instead of analysed."""

    def enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        return not any(code.startswith(i) for i in self.ignore)


def analyze_source(
    source: str,
    *,
    path: Path | None = None,
    project: Project | None = None,
    options: AnalysisOptions | None = None,
    reverse: bool = True,
    caches: AnalysisCaches | None = None,
) -> ModuleReport:
    """Analyse one module. With ``reverse``, also collect what sibling modules that import this
    one report into it (a bad value written here but submitted there). ``caches`` (kept per
    document by ``DocumentAnalyzer``) make a re-analysis after a small edit re-parse and re-walk
    only what the edit can have changed."""
    options = options or AnalysisOptions()
    if len(source) > options.max_bytes:
        return ModuleReport(path=path, skipped=f"file is larger than {options.max_bytes} bytes")
    if not _RELEVANT.search(source):
        return ModuleReport(path=path)
    parsed = parse_source(source, caches.chunks if caches else None)
    if parsed is None:
        return ModuleReport(path=path, skipped="the file could not be parsed")
    resolved = path.resolve() if path is not None else None
    module_name = project.module_name(resolved) if project and resolved else "__main__"
    interpreter = Interpreter(
        parsed, path=resolved, module_name=module_name, project=project, collect=True
    )
    if caches is not None:
        caches.prepare(interpreter, parsed, project)
    try:
        interpreter.run_module()
    except RecursionError:
        return ModuleReport(path=path, skipped="the file is nested too deeply to analyse")
    try:
        results = [_group_result(group, parsed, resolved, caches) for group in interpreter.groups]
        if caches is not None:
            caches.keep(group.key for group in interpreter.groups)
        findings = [f for result in results for f in result.findings]
        if reverse and project is not None and resolved is not None:
            findings.extend(project.remote_findings_for(resolved, options))
    except RecursionError:  # a value nested thousands deep, or one that contains itself
        return ModuleReport(path=path, skipped="a value is nested too deeply to analyse")
    findings = visible(findings, parsed.lines, options)
    findings.sort(key=lambda f: (f.span, f.code))
    return ModuleReport(
        path=path,
        findings=tuple(_dedupe(findings)),
        runners=tuple(p for result in results for p in result.runners),
        submits=tuple(s for result in results for s in result.submits),
        dependencies=frozenset(interpreter.dependencies),
        remote_findings=tuple(r for result in results for r in result.remote),
        workspaces=tuple(dict.fromkeys(w for result in results for w in result.workspaces)),
    )


def _group_result(
    group: FactGroup, parsed: ParsedModule, path: Path | None, caches: AnalysisCaches | None
) -> GroupResult:
    if group.facts is None:
        assert caches is not None and group.key is not None
        caches.reused += 1
        return caches.groups[group.key]
    if caches is not None and group.key is not None:
        caches.walked += 1
    ctx = RuleContext(parsed, path, group.facts)
    findings = _run_rules(ctx)
    result = GroupResult(
        tuple(findings),
        tuple(_runner_previews(ctx)),
        tuple(_submit_reports(ctx, findings)),
        tuple(ctx.remote),
        tuple(group.facts.workspaces),
    )
    if caches is not None and group.key is not None:
        caches.groups[group.key] = result
    return result


def _run_rules(ctx: RuleContext) -> list[Finding]:
    findings: list[Finding] = []
    for construction in ctx.facts.constructions:
        for check in CONSTRUCTION_CHECKS:
            findings.extend(check(construction, ctx))
    for submit in ctx.facts.submits:
        findings.extend(_check_submit(submit, ctx))
    return findings


def _check_submit(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    """Call-level rules in the SDK's runtime order: the first shape failure only."""
    if fact.is_async:
        return es103_no_shape.check(fact, ctx) or es105_runner_on_row_path.check(fact, ctx)
    tasks = fact.supplied("tasks")
    if tasks is None:
        return []
    if tasks:
        for check in TASKSET_CHECKS:
            found = check(fact, ctx)
            if found:
                return found
        return [finding for check in CONTENT_CHECKS for finding in check(fact, ctx)]
    return es103_no_shape.check(fact, ctx) or es105_runner_on_row_path.check(fact, ctx)


def visible(
    findings: list[Finding], lines: Sequence[str], options: AnalysisOptions
) -> list[Finding]:
    """The findings that ``select``/``ignore`` and the suppression comments let through."""
    return [f for f in findings if options.enabled(f.code) and not _suppressed(f, lines)]


def _suppressed(finding: Finding, lines: Sequence[str]) -> bool:
    line = lines[finding.span.line - 1] if finding.span.line <= len(lines) else ""
    match = _SUPPRESSION.search(line)
    if match is None:
        return False
    codes = match.group("codes")
    if codes is None:
        return True
    return finding.code in {code.strip().upper() for code in codes.split(",")}


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, Span, str]] = set()
    unique = []
    for finding in findings:
        key = (finding.code, finding.span, finding.message)
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    return unique


def _runner_previews(ctx: RuleContext) -> list[TargetPreview]:
    from evalsubmit.analysis.target.derive import derive

    previews: list[TargetPreview] = []
    for construction in ctx.facts.constructions:
        if construction.kind in {ConstructionKind.GYM_RUNNER, ConstructionKind.RUNNER}:
            preview = derive(construction.value, construction.span, ctx.path).preview
            if preview is not None:
                previews.append(preview)
    for span, value in ctx.facts.runner_bindings:
        preview = derive(value, span, ctx.path).preview
        if preview is not None:
            previews.append(_moved(preview, span))
    return previews


def _moved(preview: TargetPreview, span: Span) -> TargetPreview:
    return preview.moved(span)


def _submit_reports(ctx: RuleContext, findings: list[Finding]) -> list[SubmitReport]:
    reports = []
    error_lines = sorted(f.span.line for f in findings if f.severity == "error")
    for fact in ctx.facts.submits:
        derivation = fact.derivation if isinstance(fact.derivation, Derivation) else None
        preview = derivation.preview if derivation else None
        if preview is not None and "target" in fact.keyword_value_spans:
            preview = _moved(preview, fact.keyword_value_spans["target"])
        first = bisect.bisect_left(error_lines, fact.span.line)
        has_errors = first < len(error_lines) and error_lines[first] <= fact.span.end_line
        if derivation and derivation.content:
            has_errors = True
        client = _client_of(fact.evaluator)
        reports.append(
            SubmitReport(
                span=fact.span,
                name_span=fact.name_span,
                shape=_shape(fact),
                is_async=fact.is_async,
                tasks=_tasks(fact),
                target=preview,
                workspace=_literal(client, "workspace"),
                base_url=_literal(client, "base_url"),
                has_errors=has_errors,
            )
        )
    return reports


def _shape(fact: SubmitFact) -> Shape:
    tasks = bool(fact.supplied("tasks"))
    rows = bool(fact.supplied("metric")) or bool(fact.supplied("dataset"))
    if tasks and rows:
        return Shape.MIXED
    if tasks:
        return Shape.TASKSET
    if fact.supplied("metric") and fact.supplied("dataset"):
        return Shape.ROW
    return Shape.NONE


def _tasks(fact: SubmitFact) -> str | None:
    value = fact.value("tasks")
    if isinstance(value, Instance) and value.args.positional:
        value = value.args.positional[0]
    elif isinstance(value, Instance):
        value = value.args.keywords.get("root")
    valid = isinstance(value, Known) and isinstance(value.obj, str)
    if valid and es108_bad_taskset_ref.problem(value.obj) is None:  # type: ignore[union-attr]
        return value.obj  # type: ignore[union-attr, no-any-return]
    return None


def _client_of(evaluator: Instance) -> Instance | None:
    client = evaluator.args.keywords.get("client")
    if isinstance(client, Instance):
        inner = client.args.keywords.get("client")
        return inner if isinstance(inner, Instance) else client
    if evaluator.args.positional and isinstance(evaluator.args.positional[0], Instance):
        return evaluator.args.positional[0]
    return None


def _literal(instance: Instance | None, name: str) -> str | None:
    if instance is None:
        return None
    value = instance.args.keywords.get(name)
    return value.obj if isinstance(value, Known) and isinstance(value.obj, str) else None
