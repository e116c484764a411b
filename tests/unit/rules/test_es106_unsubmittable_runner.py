"""ES106 unsubmittable-runner: a taskset call whose target is a runner but not a
GymAgentTaskRunner instance (reference §4.3, §6.3 derivation step 1, mistake M9)."""

from __future__ import annotations

import pytest
from rule_support import Result, analyse, results

CASES: list[tuple[str, str, Result]] = [
    (
        "M9: a Harbor runner, anchored on target=",
        """
        harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
        client.evaluator.submit(tasks=TasksetRef("qa/tb"),
                                target=harbor)
        """,
        [(3, "ES106")],
    ),
    (
        "outcome table: a callable runner",
        """
        async def agent(task):
            return "42"
        client.evaluator.submit(tasks=T, target=CallableAgentTaskRunner(agent))
        """,
        [(3, "ES106")],
    ),
    (
        "the runner class, not an instance",
        "client.evaluator.submit(tasks=T, target=GymAgentTaskRunner)\n",
        [(1, "ES106")],
    ),
    (
        "outcome table: a user class with both protocol methods",
        """
        class MyRunner:
            async def run_tasks(self, tasks, config=None):
                return []
            def runner_info(self):
                return {"name": "mine"}
        client.evaluator.submit(tasks=T, target=MyRunner())
        """,
        [(6, "ES106")],
    ),
    (
        "a user class declaring the AgentTaskRunner protocol as its base: runner_info inherited",
        """
        from nemo_evaluator_sdk.agent_eval.trials import AgentTaskRunner
        class ReplayRunner(AgentTaskRunner):
            def __init__(self, recordings):
                self.recordings = recordings
            async def run_tasks(self, tasks, config=None):
                return [self.recordings[task.id] for task in tasks]
        class Scripted(ReplayRunner):
            pass
        client.evaluator.submit(tasks=T, target=ReplayRunner(recordings={}))
        client.evaluator.submit(tasks=T, target=Scripted({}))
        def launch(runner: AgentTaskRunner):
            client.evaluator.submit(tasks=T, target=runner)
        """,
        [(9, "ES106"), (10, "ES106")],
    ),
    (
        "a Fabric runtime (any harness)",
        """
        from nemo_evaluator_sdk.agent_eval.runtimes.fabric.runtime import FabricAgentRuntime
        codex = FabricAgentRuntime(config={"harness": {"adapter_id": "codex"}})
        client.evaluator.submit(tasks=T, target=codex)
        """,
        [(3, "ES106")],
    ),
    (
        "a Docker sandbox runtime",
        """
        from nemo_evaluator_sdk.agent_eval.runtimes.docker_sandbox import DockerSandboxAgentRuntime
        client.evaluator.submit(tasks=T, target=DockerSandboxAgentRuntime(image="agent:latest"))
        """,
        [(2, "ES106")],
    ),
    (
        "a subclass of the Harbor runner",
        """
        class MyHarbor(HarborAgentTaskRunner):
            pass
        client.evaluator.submit(tasks=T, target=MyHarbor(config=HarborRuntimeConfig(
            jobs_dir=Path("runs"))))
        """,
        [(3, "ES106")],
    ),
    (
        "non-mistake: a subclass of GymAgentTaskRunner",
        """
        class TunedGym(GymAgentTaskRunner):
            def __repr__(self):
                return "TunedGym()"
        client.evaluator.submit(tasks=T, target=TunedGym(config=cfg))
        """,
        [],
    ),
    (
        "non-mistake: a subclass of a subclass",
        """
        class A(GymAgentTaskRunner):
            pass
        class B(A):
            pass
        client.evaluator.submit(tasks=T, target=B(config=cfg))
        """,
        [],
    ),
    (
        "row options are reported instead (shape check first)",
        "client.evaluator.submit(tasks=T, target=harbor, config=RunConfig())\n",
        [(1, "ES102")],
    ),
    (
        "independent of a malformed plain-string taskset: both reported",
        "client.evaluator.submit(tasks='a/b/c', target=harbor)\n",
        [(1, "ES106"), (1, "ES108")],
    ),
    (
        "a runner only run locally is not a submission",
        """
        async def main():
            await AgentEvaluator().run(tasks=[], target=harbor)
        AgentEvaluator().run_sync(tasks=[], target=harbor)
        """,
        [],
    ),
    (
        "async: no-shape only",
        """
        async def main():
            await aclient.evaluator.submit(tasks=T, target=harbor)
        """,
        [(2, "ES103")],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es106(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es106_kind_and_message() -> None:
    line = "client.evaluator.submit(tasks=T, target=harbor)"
    (finding,) = analyse(line + "\n")
    assert finding.kind == "unsubmittable-runner"
    assert "HarborAgentTaskRunner" in finding.message
    assert finding.span.col == line.index("target")
