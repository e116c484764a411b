"""Runners keyed by agent name, built by a dict comprehension."""

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent_config": "a.yaml", "resources_server": "mcqa"}
AGENTS = ("simple_agent", "tool_agent")
runners = {
    name: GymAgentTaskRunner(config=GymRuntimeConfig(agent=name, **BASE)) for name in AGENTS
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
client.evaluator.submit(metric=em, dataset=[{"answer": "4"}],
                        target=runners["tool_agent"])  # expect: ES105
