"""The server analyses a document in two steps (lsp/jobs.py): its own findings, then what the
modules importing it report into it. Together they must give exactly what the engine's
one-call form gives (``analyze_source(..., reverse=True)``, the CLI's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import AnalysisOptions, DocumentAnalyzer, Project, analyze_source
from evalsubmit.analysis.engine.analyze import with_remote_findings

RUNNERS = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n\n"
    "runner = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
    '    agent="a", agent_config="c.yaml", resources_server="mcqa",\n'
    '    hydra_params={"hook": lambda r: r},{suffix}\n'
    "))\n"
)
PLAIN_RUNNERS = 'config = {"hook": lambda r: r}\n'
SUBMITTER = (
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "from nemo_platform import NeMoPlatform\n\n"
    "from runners import runner\n\n"
    'client = NeMoPlatform(workspace="qa")\n'
    'client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'
)

CASES = {
    "reported here by the importer": RUNNERS.replace("{suffix}", ""),
    "suppressed here": RUNNERS.replace("{suffix}", "  # evalsubmit: ignore[ES107]"),
    "no import, no SDK name": PLAIN_RUNNERS,
    "not analysable": "def broken(:\n    import x\n",
}


@pytest.mark.parametrize("case", list(CASES))
def test_forward_then_reverse_is_the_engines_one_call(tmp_path: Path, case: str) -> None:
    text = CASES[case]
    (tmp_path / "job.py").write_text(SUBMITTER, encoding="utf-8")
    path = tmp_path / "runners.py"
    path.write_text(text, encoding="utf-8")
    options = AnalysisOptions()
    whole = analyze_source(text, path=path, project=Project(tmp_path), options=options)

    project = Project(tmp_path)
    forward = DocumentAnalyzer(path, project, options).analyze(text, reverse=False)
    # the server's reverse step (lsp/jobs.py) is this call on its forward result
    completed = with_remote_findings(forward, text, path=path, project=project, options=options)
    assert completed == whole
    if case == "reported here by the importer":
        assert [f.code for f in whole.findings] == ["ES107"]
        assert forward.findings == ()
