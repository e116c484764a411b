"""Weekly sweep: every agent variant against every suite, plus a few one-off comparisons.

Run with ``python sweep.py`` after ``nemo auth login``.
"""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.callable_runtime import CallableAgentTaskRunner
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent_config": "configs/agent.yaml", "resources_server": "mcqa"}
AGENTS = {
    "simple_agent": {"concurrency": 8},
    "tool_agent": {"concurrency": 16, "num_repeats": 2},
    "rag_agent": {
        "startup_timeout_s": 0,  # expect: ES109
    },
}
SUITES = [TasksetRef("qa/mcqa"), TasksetRef("qa/tool-use"), TasksetRef("qa/retrieval#v2")]


async def baseline_agent(task):
    return {"output_text": ""}


def build_configs():
    return {
        name: GymRuntimeConfig(**{**BASE, "agent": name, **extra}) for name, extra in AGENTS.items()
    }


def main():
    client = NeMoPlatform(workspace="qa")
    configs = build_configs()
    runners = {name: GymAgentTaskRunner(config=config) for name, config in configs.items()}

    for suite in SUITES:
        for name, runner in sorted(runners.items()):
            client.evaluator.submit(tasks=suite, target=runner)

    # Compare against the in-process baseline.
    for runner in [runners["simple_agent"], CallableAgentTaskRunner(baseline_agent)]:
        client.evaluator.submit(tasks=SUITES[0], target=runner)  # expect: ES106

    # Variants of the simple agent, derived with model_copy (validated only at submit).
    simple = configs["simple_agent"]
    variants = {
        "cold-start": simple.model_copy(update={"startup_timeout_s": 600}),
        "single": simple.model_copy(update={"num_repeats": 0}),  # expect: ES109
    }
    for label, config in variants.items():
        client.evaluator.submit(tasks=TasksetRef(f"qa/{label}"),
                                target=GymAgentTaskRunner(config=config))

    # One config per seed; the seed list must be materialised.
    for seed in range(3):
        seeded = GymRuntimeConfig(
            **BASE,
            agent="simple_agent",
            hydra_params={
                "seed": seed,
                "eval_seeds": (seed * 100 + i for i in range(5)),  # expect: ES107
                "all_seeds": [seed * 100 + i for i in range(5)],
            },
        )
        client.evaluator.submit(tasks=SUITES[0], target=GymAgentTaskRunner(config=seeded))

    # Submitted straight from the table of configs.
    for name, config in configs.items():
        client.evaluator.submit(tasks=TasksetRef(f"qa/{name}"), target=config)  # expect: ES104


if __name__ == "__main__":
    main()
