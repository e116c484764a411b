"""enumerate() over runners, with a per-index prompt left over from row evaluations."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

PROMPTS = ["Answer briefly: {{item.q}}", "Think step by step: {{item.q}}"]
RUNNERS = [
    GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=agent, agent_config="a.yaml", resources_server="mcqa")
    )
    for agent in ("simple_agent", "cot_agent")
]

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for index, runner in enumerate(RUNNERS):
    client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner,
                            prompt_template=PROMPTS[index])  # expect: ES102
