"""Async client: row evaluations work, live runners cannot be submitted in 0.6.0 (M11)."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.sdk import AsyncEvaluator
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import AsyncNeMoPlatform

em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{item.prediction}}")
rows = [{"answer": "4", "prediction": "4"}]
gym_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


async def main() -> None:
    aclient = AsyncNeMoPlatform(workspace="qa")

    job = await aclient.evaluator.submit(metric=em, dataset=rows)
    print(job.name)

    # M11: the async evaluator has no taskset shape.
    job = await aclient.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym_runner)  # expect: ES103

    evaluator = AsyncEvaluator.from_sdk(aclient)
    await evaluator.submit(metric=em)  # expect: ES103
    await evaluator.submit(metric=em, dataset=rows,
                           target=gym_runner)  # expect: ES105

    # asyncio's own helpers are not evaluator submissions.
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, print, "done")


asyncio.run(main())
