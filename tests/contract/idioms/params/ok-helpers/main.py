"""Helpers with defaults, called correctly from several places."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def make_runner(agent="simple_agent", concurrency=4, hydra_params=None, **env):
    config = GymRuntimeConfig(
        agent=agent,
        agent_config=f"configs/{agent}.yaml",
        resources_server="mcqa",
        concurrency=concurrency,
        hydra_params=hydra_params or {},
        env_vars=env,
    )
    return GymAgentTaskRunner(config=config)


def submit_agent(runner, suite="qa/mcqa", options=None):
    return client.evaluator.submit(tasks=TasksetRef(suite), target=runner, **(options or {}))


def submit_rows(rows, config=None):
    metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    return client.evaluator.submit(metric=metric, dataset=rows, config=config)


submit_agent(make_runner())
submit_agent(make_runner("tool_agent", 16, {"temperature": 0.5}, HF_HOME="/models/hf"), "qa/tools")
submit_agent(make_runner(), options={"config": None})
submit_rows([{"answer": "4"}])
submit_rows([{"answer": "4"}], config=RunConfig(parallelism=2))
