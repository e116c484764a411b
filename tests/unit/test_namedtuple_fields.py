"""A NamedTuple built with arguments is modelled as its tuple: reading a field the tuple type
does not have (``plan.env``) is a value known only at run time, never a method of the tuple.
It was read as a "bound method": ES104 then said ``target=plan.runner`` got a function, and
the preview had to recognise the method by its name to show it as unknown."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from evalsubmit.cli import main

PLANS = textwrap.dedent("""\
    from typing import NamedTuple

    from nemo_evaluator.api.schemas import TasksetRef
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform


    class Plan(NamedTuple):
        agent: str
        env: str
        runner: object


    def runner_for(plan: Plan) -> GymAgentTaskRunner:
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent=plan.agent,
                agent_config="agents/simple.yaml",
                resources_server="mcqa",
                env_vars={"STAGE": plan.env, "SHOUT": plan.env.upper()},
            )
        )


    class Launcher:
        def __init__(self, client: NeMoPlatform) -> None:
            self.client = client

        def launch(self, plan: Plan) -> None:
            self.client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=plan.runner)


    PLAN = Plan("simple_agent", "prod", runner_for(Plan("simple_agent", "dev", None)))
    Launcher(NeMoPlatform(workspace="qa")).launch(PLAN)
    """)


@pytest.fixture
def plans(tmp_path: Path) -> Path:
    path = tmp_path / "jobs" / "plans.py"
    path.parent.mkdir()
    path.write_text(PLANS, encoding="utf-8")
    return path


def test_a_field_passed_as_target_is_unknown_not_a_function(
    plans: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "--no-cache", "--output-format", "json", str(plans)])
    report = json.loads(capsys.readouterr().out)
    assert (code, report["findings"], report["files_checked"]) == (0, [], 1)


def test_the_preview_shows_a_field_as_unknown_read_at_run_time(
    plans: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["preview", f"{plans}:15"])
    target = json.loads(capsys.readouterr().out)
    assert target["agent"] == "<unknown: the attribute .agent, read at run time>"
    assert target["env_vars"] == {
        "STAGE": "<unknown: the attribute .env, read at run time>",
        "SHOUT": "<unknown: the result of a call>",
    }
