"""Suite definitions as class attributes, submitted from classmethods."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class MathSuite:
    CLIENT = NeMoPlatform(base_url="http://localhost:8080", workspace="math")
    TASKS = TasksetRef("math/gsm8k-agentic")
    RUNNER = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="math_agent", agent_config="math.yaml", resources_server="math")
    )
    PROMPT = "Solve step by step: {{item.question}}"

    @classmethod
    def submit(cls):
        return cls.CLIENT.evaluator.submit(tasks=cls.TASKS, target=cls.RUNNER)

    @classmethod
    def submit_with_prompt(cls):
        return cls.CLIENT.evaluator.submit(tasks=cls.TASKS, target=cls.RUNNER,
                                           prompt_template=cls.PROMPT)  # expect: ES102


class HardMathSuite(MathSuite):
    TASKS = TasksetRef("math/competition")


MathSuite.submit()
HardMathSuite.submit_with_prompt()
