"""A helper in one module called from another (a test suite, a CLI) is checked with the
arguments of that call: a finding that holds for that call is reported in the helper's module,
named by the call site, once; one that holds for every call is reported once, plainly."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from evalsubmit.cli import main

STAGES = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

RUNNERS = {
    "smoke": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple", agent_config="a.yaml", resources_server="mcqa")
    ),
}


def submit_stage(client, stage):
    runner = RUNNERS.get(stage)
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
"""

TESTS = """\
import pytest
from nemo_platform import NeMoPlatform

from stages import submit_stage


@pytest.fixture
def client():
    return NeMoPlatform(workspace="qa")


def test_smoke(client):
    submit_stage(client, "smoke")


def test_canary(client):
    with pytest.raises(TypeError):
        submit_stage(client, "canary")
"""


def _check(root: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    code = main(["check", "--no-cache", "--output-format", "json", str(root)])
    findings: list[dict[str, object]] = json.loads(capsys.readouterr().out)["findings"]
    assert code == (1 if findings else 0)
    return findings


def test_a_bad_argument_from_a_test_module_is_reported_in_the_helper(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'stages'\n")
    (tmp_path / "stages.py").write_text(STAGES)
    (tmp_path / "test_stages.py").write_text(TESTS)
    findings = _check(tmp_path, capsys)
    assert [(Path(str(f["path"])).name, f["line"], f["code"]) for f in findings] == [
        ("stages.py", 13, "ES104")
    ]
    assert "when submit_stage() is called at test_stages.py:18" in str(findings[0]["message"])


def test_the_good_call_alone_is_silent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'stages'\n")
    (tmp_path / "stages.py").write_text(STAGES)
    (tmp_path / "test_stages.py").write_text(textwrap.dedent(TESTS).split("def test_canary")[0])
    assert _check(tmp_path, capsys) == []
