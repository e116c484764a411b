"""Entry point of the analysis core: text -> parse -> interpret -> rules -> report.

``analyze_module`` analyses one module forward: the findings of its own code, plus the
findings its ``submit()`` calls place in other modules (``remote_findings``, for those modules'
reports). ``analyze_source`` adds the reverse direction: what other modules of the project
report into this one (:mod:`.crossfile`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, compress
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.analysis.engine.dedupe import deduplicated
from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.analysis.engine.results import GroupResult
from evalsubmit.analysis.engine.suppressing import judged, partition
from evalsubmit.analysis.interp.facts import FactGroup
from evalsubmit.analysis.interp.interpreter import Interpreter
from evalsubmit.analysis.interp.modules import ModuleResolver
from evalsubmit.analysis.report import ModuleReport, Question, internal_error
from evalsubmit.analysis.rules import run_module_rules, run_rules
from evalsubmit.analysis.rules.context import ModuleContext, RuleContext
from evalsubmit.analysis.source.budget import too_many_tokens
from evalsubmit.analysis.source.parse import ParsedModule, parse_source
from evalsubmit.analysis.values.store import sealed
from evalsubmit.core.collection import paused_collection
from evalsubmit.core.findings import Finding
from evalsubmit.core.lines import split_lines_keepends
from evalsubmit.core.records import Record, replace
from evalsubmit.workspace.project import Project, installed_sdk

if TYPE_CHECKING:  # only the editor's DocumentAnalyzer keeps caches: a check imports none of it
    from evalsubmit.analysis.engine.caches import AnalysisCaches
    from evalsubmit.core.suppression import Marked

# Cheap pre-filter: a module with no import and no SDK name has no finding of its own (what it
# defines reaches a submit only through a module importing it: with_remote_findings).
_RELEVANT = re.compile(r"nemo_|TasksetRef|GymRuntimeConfig|GymAgentTaskRunner|import")


def analyze_source(
    source: str,
    *,
    path: Path | None = None,
    project: Project | None = None,
    options: AnalysisOptions | None = None,
    reverse: bool = True,
    caches: AnalysisCaches | None = None,
    on_findings: Callable[[ModuleReport], None] | None = None,
) -> ModuleReport:
    """Analyse one module. With ``reverse``, also collect what sibling modules that import this
    one report into it (a bad value written here but submitted there). ``caches`` (kept per
    document by ``DocumentAnalyzer``) make a re-analysis after a small edit re-parse and re-walk
    only what the edit can have changed. ``on_findings`` gets the forward findings as soon as
    they are known, before the runner previews and submit summaries are made (its report has
    none), so that diagnostics need not wait for them."""
    options = options or AnalysisOptions()
    report, _ = analyze_module(
        source,
        path=path,
        project=project,
        options=options,
        caches=caches,
        on_findings=on_findings,
    )
    if not reverse:
        return report
    return with_remote_findings(report, source, path=path, project=project, options=options)


def with_remote_findings(
    report: ModuleReport,
    source: str,
    *,
    path: Path | None,
    project: Project | None,
    options: AnalysisOptions,
) -> ModuleReport:
    """``report`` (the forward analysis of ``source``) with what sibling modules that import
    this one report into it. A module with no import and no SDK name is not analysed forward,
    but a value written there (``PARAMS = {...}``) may be submitted by an importer: this step
    runs for it too."""
    if report.skipped is not None:
        return report
    lines = split_lines_keepends(source)
    remote: list[Finding] = []
    answers = dict(report.store_answers)
    if project is not None and path is not None:
        from evalsubmit.analysis.engine.crossfile import remote_findings_for  # not for a check

        try:
            resolved = project.resolved(path)
            remote = remote_findings_for(project, resolved, options, analyze_module, answers)
        except RecursionError:  # a value nested thousands deep, or one that contains itself
            return ModuleReport(path=path, skipped="a value is nested too deeply to analyse")
    kept, silenced = partition(remote, lines, options)
    findings = [*report.findings, *kept]
    findings.sort(key=lambda f: (f.span, f.code))
    suppressed = (*report.suppressed, *(f for f in silenced if f not in report.suppressed))
    # every finding that can land here is known now: each suppression is judged
    final = judged(
        settled(deduplicated(findings), options),
        suppressed,
        lines,
        options,
        complete=True,
        partial=bool(report.internal_errors),
    )
    return replace(
        report,
        findings=tuple(final),
        suppressed=suppressed,
        store_answers=tuple(answers.items()),  # a re-check asks the importers' questions too
    )


def analyze_module(
    source: str,
    *,
    path: Path | None,
    project: Project | None,
    options: AnalysisOptions,
    caches: AnalysisCaches | None = None,
    on_findings: Callable[[ModuleReport], None] | None = None,
) -> tuple[ModuleReport, ParsedModule | None]:
    """The module's own findings (forward only) and its parse (None when not analysed)."""
    if len(source) > options.max_chars:
        skipped = f"file is larger than {options.max_chars} characters"
        return ModuleReport(path=path, skipped=skipped), None
    if not _RELEVANT.search(source):  # no finding of its own; its suppressions are judged
        lines = split_lines_keepends(source)
        return ModuleReport(path=path, findings=tuple(_judged_early([], [], lines, options))), None
    if reason := too_many_tokens(source, options.max_tokens):
        return ModuleReport(path=path, skipped=reason), None
    parsed = parse_source(source, caches.chunks if caches else None)
    if parsed is None:
        return ModuleReport(path=path, skipped="the file could not be parsed"), None
    # imported modules' values are shared: what this module changes stays in its layer (sealed)
    with paused_collection(), sealed():
        report = _analyze_parsed(parsed, path, project, options, caches, on_findings, source)
    return report, parsed if report.skipped is None else None


def _analyze_parsed(
    parsed: ParsedModule,
    path: Path | None,
    project: Project | None,
    options: AnalysisOptions,
    caches: AnalysisCaches | None,
    on_findings: Callable[[ModuleReport], None] | None = None,
    source: str | None = None,
) -> ModuleReport:
    if path is None:
        resolved = None
    else:
        resolved = project.resolved(path) if project is not None else path.resolve()
    resolver = ModuleResolver.of(project) if project is not None else None
    if resolver is not None and resolved is not None and caches is not None and source:
        # an editor buffer's stores are kept per piece, if asked (pieces of this parse only)
        chunks, kept = parsed.chunks, caches.chunks
        resolver.note_pieces(resolved, source, lambda: kept.piece_texts(chunks))
    outside = resolver.outside if resolver is not None else _nowhere
    grouping = caches.grouping(parsed, project, resolved) if caches is not None else None
    interpreter = Interpreter(
        parsed,
        path=resolved,
        module_name=project.module_name(resolved) if project and resolved else "__main__",
        resolver=resolver,
        collect=True,
        grouping=grouping,
    )
    try:
        interpreter.run_module()
    except RecursionError:
        return ModuleReport(path=path, skipped="the file is nested too deeply to analyse")
    rule_errors: list[str] = []
    done: list[tuple[FactGroup, GroupResult]] = []
    # Summaries are made once every finding is known (and handed on): the walks' values are
    # still as the walks left them (sealed), so they are the same as when made group by group.
    later: list[_Summaries] | None = [] if options.summaries else None
    try:
        for group in interpreter.groups:
            try:
                result = _group_result(group, parsed, resolved, options, caches, outside, later)
            except RecursionError:
                raise
            except Exception as error:  # an engine bug costs this group's findings only
                rule_errors.append(internal_error("rules", error))
                result = GroupResult(
                    (), (), (), (), (), group.dependencies, group.errors, questions=group.questions
                )
            done.append((group, result))
    except RecursionError:  # a value nested thousands deep, or one that contains itself
        return ModuleReport(path=path, skipped="a value is nested too deeply to analyse")
    if caches is not None:
        results = caches.place(grouping, done, len(parsed.tree.body))
    else:
        results = [result for _, result in done]
    # Gathered with C-level iteration: a long module has thousands of results, most empty
    # (picked out first; the runner previews and submit summaries are filled in later).
    gathered = list(compress(results, map(attrgetter("gathered"), results)))
    dependencies: frozenset[Path] = _united(gathered, "dependencies")
    internal_errors = list(_joined(gathered, "errors"))
    texts = dict(interpreter.dependencies.texts)
    questions = interpreter.dependencies.questions
    if caches is not None:
        caches.remember(texts, dependencies, questions)
        texts = caches.texts
        # the questions of this walk and of the results kept (the caches' are every answer
        # since they were last dropped: those of code since removed too)
        in_results: frozenset[Question] = _united(gathered, "questions")
        questions = {
            question: answer
            for question, answer in caches.questions.items()
            if question in questions or question in in_results
        }
    declared = options.sdk_version is not None
    sdk = installed_sdk(project, options.sdk_version)
    module = ModuleContext(parsed, resolved, sdk, sdk_declared=declared)
    findings = list(_joined(gathered, "findings"))
    findings += run_module_rules(module, options.enabled)
    findings, silenced = partition(findings, parsed.lines, options, parsed.marked)
    findings.sort(key=lambda f: (f.span, f.code))
    suppressed = tuple(dict.fromkeys(silenced))
    partial = bool(internal_errors or rule_errors or parsed.blanked)
    findings = _judged_early(
        deduplicated(findings), suppressed, parsed.lines, options, partial, parsed.marked
    )
    report = ModuleReport(
        path=path,
        findings=tuple(settled(findings, options)),
        suppressed=suppressed,
        dependencies=dependencies,
        dependency_texts=tuple(sorted((p, texts.get(p, "")) for p in dependencies)),
        store_answers=tuple(questions.items()),
        # settled here too: a placeholder must not outlive the analysis (nor reach the cache)
        remote_findings=tuple(
            (where, _settled(finding, options))
            for where, finding in _joined(gathered, "remote")
            if not outside(where)
        ),
        workspaces=tuple(dict.fromkeys(_joined(gathered, "workspaces"))),
        internal_errors=tuple(internal_errors + rule_errors),
    )
    if on_findings is not None:
        on_findings(report)
    if caches is not None:
        caches.settle()
        caches.key()
    if later:
        try:
            failures = [failure for s in later if (failure := s.fill()) is not None]
        except RecursionError:
            return ModuleReport(path=path, skipped="a value is nested too deeply to analyse")
        if failures:
            rule_errors += failures
            report = replace(report, internal_errors=tuple(internal_errors + rule_errors))
    if caches is not None and not rule_errors:
        caches.completed()
    return replace(
        report,
        runners=tuple(_joined(results, "runners")),
        submits=tuple(_joined(results, "submits")),
    )


class _Summaries(Record, hash=False):
    """A group's runner previews and submit summaries, to make once its findings are out."""

    __slots__ = ("ctx", "findings", "result")
    result: GroupResult
    ctx: RuleContext
    findings: list[Finding]

    def __init__(self, result: GroupResult, ctx: RuleContext, findings: list[Finding]) -> None:
        self.result = result
        self.ctx = ctx
        self.findings = findings

    def fill(self) -> str | None:
        """Fill them in (an engine bug costs this group's summaries only: what went wrong)."""
        from evalsubmit.analysis.engine.shift import summary_reach
        from evalsubmit.analysis.engine.summaries import runner_previews, submit_reports

        try:
            self.result.runners = tuple(runner_previews(self.ctx))
            self.result.submits = tuple(submit_reports(self.ctx, self.findings))
            self.result.reach = summary_reach(self.result.runners, self.result.submits)
        except RecursionError:
            raise
        except Exception as error:
            return internal_error("summaries", error)
        return None


def _joined(results: list[GroupResult], part: str) -> Iterator[Any]:
    """Every result's ``part`` (a tuple), one after the other (the empty ones, most of them,
    left out before they are chained: an empty tuple costs the chain more than the filter)."""
    return chain.from_iterable(filter(None, map(attrgetter(part), results)))


def _united(results: list[GroupResult], part: str) -> frozenset[Any]:
    """The union of every result's ``part`` (a frozenset), the empty ones left out first."""
    return frozenset().union(*filter(None, map(attrgetter(part), results)))


def _nowhere(path: Path) -> bool:
    return False


def _group_result(
    group: FactGroup,
    parsed: ParsedModule,
    path: Path | None,
    options: AnalysisOptions,
    caches: AnalysisCaches | None,
    outside: Callable[[Path], bool],
    later: list[_Summaries] | None,
) -> GroupResult:
    if group.facts is None:
        assert caches is not None and group.key is not None
        caches.reused += 1
        return caches.groups[group.key]
    if caches is not None and group.key is not None:
        caches.walked += 1
    ctx = RuleContext(parsed, path, group.facts, outside=outside)
    findings = run_rules(ctx, options.enabled)
    result = GroupResult(
        tuple(findings),
        (),
        (),
        tuple(ctx.remote),
        tuple(group.facts.workspaces),
        group.dependencies,
        group.errors,
        questions=group.questions,
    )
    if later is not None:
        later.append(_Summaries(result, ctx, findings))
    if caches is not None and group.key is not None:
        caches.groups[group.key] = result
    return result


def settled(findings: Iterable[Finding], options: AnalysisOptions) -> list[Finding]:
    """``findings`` (deduplicated) with each fix that holds a placeholder filled in from the
    configuration (``default-taskset``), kept as it is for an editor that lets the user type
    the value (``options.placeholders``), or else dropped."""
    return [_settled(finding, options) for finding in findings]


def _settled(finding: Finding, options: AnalysisOptions) -> Finding:
    if not any(fix.placeholder for fix in finding.fixes):
        return finding
    values = {"default-taskset": options.default_taskset}
    fixes = []
    for fix in finding.fixes:
        value = values.get(fix.placeholder.setting) if fix.placeholder else None
        if fix.placeholder is None:
            fixes.append(fix)
        elif value is not None:
            title = f"{fix.title} (`{fix.placeholder.setting}` {value})"
            fixes.append(fix.filled(value, title))
        elif options.placeholders:
            fixes.append(fix)
    return replace(finding, fixes=tuple(fixes))


def _judged_early(
    findings: list[Finding],
    suppressed: Sequence[Finding],
    lines: Sequence[str],
    options: AnalysisOptions,
    partial: bool = False,
    marked: Marked | None = None,
) -> list[Finding]:
    """The forward findings with what is already sure about the suppressions: one that could
    silence a finding another module places here is judged later (``with_remote_findings``,
    or ``check`` once it has routed the findings of every checked file)."""
    return judged(
        findings, suppressed, lines, options, complete=False, partial=partial, marked=marked
    )
