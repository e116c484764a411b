"""Release gate: every candidate agent runs the regression suites before a release.

A few helpers with defaults, called from many places. Run with ``python release_gate.py``.
"""

from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

REGRESSION = "qa/regression"


def score_rollout(rollout):
    return rollout["reward"]


def build_config(agent, concurrency=4, hydra_params=None, **env):
    return GymRuntimeConfig(
        agent=agent,
        agent_config=f"configs/{agent}.yaml",
        resources_server="mcqa",
        concurrency=concurrency,
        hydra_params={"temperature": 0.0, **(hydra_params or {})},
        env_vars={"HF_HOME": "/models/hf", **env},
    )


def build_runner(agent, concurrency=4, hydra_params=None, **env):
    return GymAgentTaskRunner(config=build_config(agent, concurrency, hydra_params, **env))


def submit_candidate(client, runner, suite=REGRESSION, options=None):
    options = options or {}
    return client.evaluator.submit(tasks=suite, target=runner, **options)


def gate(client, candidates, suites=(REGRESSION, "qa/safety#v4")):
    return [submit_candidate(client, runner, suite) for runner in candidates for suite in suites]


def main():
    client = NeMoPlatform(workspace="release")
    gate(client, [build_runner("simple_agent"), build_runner("tool_agent", concurrency=16)])

    # One-off candidates, each submitted by hand.
    submit_candidate(client, build_runner("rag_agent"), "qa/tool use")  # expect: ES108
    submit_candidate(client, build_runner("cot_agent", concurrency=0))  # expect: ES109
    submit_candidate(client, build_runner("judge_agent", CUDA_VISIBLE_DEVICES=0))  # expect: ES109
    submit_candidate(
        client,
        build_runner("scored_agent", hydra_params={
            "scorer": score_rollout,  # expect: ES107
        }),
    )
    submit_candidate(client, build_config("plain_agent"))  # expect: ES104
    submit_candidate(client, build_runner("simple_agent"),
                     options={"config": RunConfig(parallelism=8)})  # expect: ES102
    submit_candidate(client, build_runner("simple_agent"), options={"config": None})


if __name__ == "__main__":
    main()
