"""``ModuleReport.preview_at`` / ``submit_at`` (what hover, the submit command and the CLI's
preview ask for a cursor position) answer exactly what a plain scan of every runner and submit
with ``Span.contains`` answers: the same object, at every position of a module whose spans nest
(a runner built inside a submit call, several on one line, calls over several lines)."""

from __future__ import annotations

from pathlib import Path

from evalsubmit.analysis import AnalysisOptions, ModuleReport, Project, analyze_source
from evalsubmit.analysis.report import SubmitReport, TargetPreview

SOURCE = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
cfg = GymRuntimeConfig(agent="simple_agent", agent_config="c.yaml", resources_server="mcqa")
runner = GymAgentTaskRunner(config=cfg)
a, b = GymAgentTaskRunner(config=cfg), GymAgentTaskRunner(config=cfg)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
client.evaluator.submit(
    tasks="qa/smoke",
    target=GymAgentTaskRunner(
        config=GymRuntimeConfig(
            agent="simple_agent", agent_config="c.yaml", resources_server="mcqa"
        )
    ),
)


def job(n: int) -> None:
    inner = GymAgentTaskRunner(config=GymRuntimeConfig(
        agent="x", agent_config="c.yaml", resources_server="mcqa", concurrency=n))
    client.evaluator.submit(tasks="qa/smoke", target=inner); client.evaluator.submit(
        tasks="qa/other", target=GymAgentTaskRunner(config=cfg))
"""


def size(item: TargetPreview | SubmitReport) -> tuple[int, int]:
    return item.span.end_line - item.span.line, item.span.end_col - item.span.col


def scanned_preview(report: ModuleReport, line: int, col: int) -> TargetPreview | None:
    hits = [p for p in report.runners if p.span.contains(line, col)]
    hits += [s.target for s in report.submits if s.target and s.target.span.contains(line, col)]
    return min(hits, key=size, default=None)


def scanned_submit(report: ModuleReport, line: int, col: int) -> SubmitReport | None:
    hits = [s for s in report.submits if s.span.contains(line, col)]
    return min(hits, key=size, default=None)


def test_lookups_match_a_plain_scan_at_every_position(tmp_path: Path) -> None:
    path = tmp_path / "job.py"
    report = analyze_source(SOURCE, path=path, project=Project(tmp_path), options=AnalysisOptions())
    assert len(report.submits) == 4 and len(report.runners) >= 6  # the nesting is really there
    lines = SOURCE.split("\n")
    found_previews = found_submits = 0
    for line, text in enumerate(lines, start=1):
        for col in range(len(text) + 2):
            preview = report.preview_at(line, col)
            submit = report.submit_at(line, col)
            assert preview is scanned_preview(report, line, col), (line, col)
            assert submit is scanned_submit(report, line, col), (line, col)
            found_previews += preview is not None
            found_submits += submit is not None
    assert found_previews and found_submits
