"""Shared helpers for the per-rule tests: a standard preamble, line-relative results, fixes.

Every snippet is analysed after :data:`HEADER` (imports plus a client, a valid Gym runner, a
metric and rows). Expected lines are relative to the snippet: line 1 is its first line.
"""

from __future__ import annotations

import ast
import itertools
import textwrap
from pathlib import Path

from evalsubmit.analysis import AnalysisOptions, Edit, Finding, Project, analyze_source

HEADER = """\
import collections
import datetime
import functools
import io
import logging
import os
import threading
import types
from pathlib import Path, PurePosixPath

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.agent_spec import GymRunnerTarget
from nemo_evaluator.sdk import FilesetRef
from nemo_evaluator_sdk import ExactMatchMetric, Model, RunConfig, RunConfigOnlineModel
from nemo_evaluator_sdk.agent_eval.evaluator import AgentEvaluator
from nemo_evaluator_sdk.agent_eval.runtimes.callable_runtime import CallableAgentTaskRunner
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_evaluator_sdk.agent_eval.tasks import AgentEvalRunConfig
from nemo_platform import AsyncNeMoPlatform, NeMoPlatform

client = NeMoPlatform(workspace="qa")
aclient = AsyncNeMoPlatform(workspace="qa")
cfg = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
gym_runner = GymAgentTaskRunner(config=cfg)
harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
em = ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")
rows = [{"a": "1", "b": "1"}]
T = TasksetRef("qa/smoke")
"""
HEADER_LINES = HEADER.count("\n")

Result = list[tuple[int, str]]


def source_of(snippet: str) -> str:
    return HEADER + textwrap.dedent(snippet).lstrip("\n")


def analyse(snippet: str, *, path: Path | None = None) -> list[Finding]:
    """Findings for the snippet (spans are in the full text: subtract HEADER_LINES)."""
    report = analyze_source(source_of(snippet), path=path or Path("snippet.py"), project=Project())
    assert report.skipped is None, report.skipped
    for f in report.findings:
        assert f.span.line > HEADER_LINES, f"finding inside the preamble: {f}"
    return list(report.findings)


def results(snippet: str) -> Result:
    """Sorted (snippet-relative line, code) of every finding."""
    return sorted((f.span.line - HEADER_LINES, f.code) for f in analyse(snippet))


def only(snippet: str, code: str) -> list[Finding]:
    return [f for f in analyse(snippet) if f.code == code]


def apply_edits(text: str, edits: tuple[Edit, ...]) -> str:
    """Apply edits (1-based lines, 0-based code-point columns) to the text."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if line - 1 >= len(lines):
            return len(text)
        return starts[line - 1] + col

    out = text
    ordered = sorted(edits, key=lambda e: (e.span.line, e.span.col), reverse=True)
    for a, b in itertools.pairwise(ordered):
        assert (b.span.end_line, b.span.end_col) <= (a.span.line, a.span.col), "overlapping edits"
    for edit in ordered:
        start = offset(edit.span.line, edit.span.col)
        end = offset(edit.span.end_line, edit.span.end_col)
        out = out[:start] + edit.new_text + out[end:]
    return out


def same_code(a: str, b: str) -> bool:
    return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))


def fixed_sources(snippet: str, code: str, options: AnalysisOptions | None = None) -> list[str]:
    """Every full source text obtained by applying one fix of one finding with this code."""
    source = source_of(snippet)
    report = analyze_source(source, path=Path("snippet.py"), project=Project(), options=options)
    out = []
    for finding in report.findings:
        if finding.code == code:
            out.extend(apply_edits(source, fix.edits) for fix in finding.fixes)
    return out


def assert_fix(snippet: str, code: str, expected: str) -> None:
    """Some fix of a `code` finding turns the snippet into `expected` (compared as syntax trees),
    and the fixed text parses and re-analyses without any `code` finding."""
    candidates = fixed_sources(snippet, code)
    assert candidates, f"no fix offered for {code}"
    want = source_of(expected)
    matching = [text for text in candidates if same_code(text, want)]
    assert matching, "no fix gives the expected code; got:\n" + "\n----\n".join(
        text[len(HEADER) :] for text in candidates
    )
    fixed = matching[0]
    ast.parse(fixed)
    again = analyze_source(fixed, path=Path("snippet.py"), project=Project())
    assert [f for f in again.findings if f.code == code] == []
