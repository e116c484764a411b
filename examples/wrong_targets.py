"""Taskset submissions whose target is not a submittable Gym runner instance."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.agent_spec import GymRunnerTarget
from nemo_evaluator_sdk import Model
from nemo_evaluator_sdk.agent_eval.runtimes.callable_runtime import CallableAgentTaskRunner
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
smoke = TasksetRef("qa/smoke")
cfg = GymRuntimeConfig(
    agent="simple_agent", agent_config="configs/simple_agent.yaml", resources_server="mcqa"
)

# M4: the wire spec, or the config, instead of the live runner.
spec_target = GymRunnerTarget(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
client.evaluator.submit(tasks=smoke,
                        target=spec_target)  # expect: ES104
client.evaluator.submit(tasks=smoke, target=cfg)  # expect: ES104

# Forgot the target altogether; a model is a row-eval target.
client.evaluator.submit(tasks=smoke)  # expect: ES104
llama = Model(url="http://nim:8000/v1", name="meta/llama-3.1-8b-instruct")
client.evaluator.submit(tasks=smoke, target=llama)  # expect: ES104

# M9: runners that have no wire form.
harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
client.evaluator.submit(tasks=TasksetRef("qa/tb"),
                        target=harbor)  # expect: ES106


async def answer(task: dict) -> str:
    return "42"


client.evaluator.submit(tasks=smoke, target=CallableAgentTaskRunner(answer))  # expect: ES106

# Forgot to instantiate the runner class.
client.evaluator.submit(tasks=smoke, target=GymAgentTaskRunner)  # expect: ES106


class EchoRunner:
    """Satisfies the AgentTaskRunner protocol, but the platform cannot run it."""

    async def run_tasks(self, tasks, config=None):
        return [t for t in tasks]

    def runner_info(self):
        return {"name": "echo"}


class HalfRunner:
    """Only run_tasks: not an AgentTaskRunner at all."""

    async def run_tasks(self, tasks, config=None):
        return []


client.evaluator.submit(tasks=smoke, target=EchoRunner())  # expect: ES106
client.evaluator.submit(tasks=smoke, target=HalfRunner())  # expect: ES104


# A subclass of the Gym runner is submittable.
class TunedGymRunner(GymAgentTaskRunner):
    """Stock Gym runner with a friendlier repr."""

    def __repr__(self) -> str:
        return "TunedGymRunner()"


client.evaluator.submit(tasks=smoke, target=TunedGymRunner(config=cfg))
