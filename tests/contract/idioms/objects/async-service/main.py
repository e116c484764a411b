"""An async scoring service: rows are scored, agents are run."""

import asyncio

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import AsyncNeMoPlatform

ROWS = [{"question": "2+2?", "answer": "4"}, {"question": "3*3?", "answer": "9"}]


class ScoringService:
    def __init__(self):
        self.client = AsyncNeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        self.metric = ExactMatchMetric(
            reference="{{item.answer}}", candidate="{{sample.output_text}}"
        )
        self.runner = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
        )

    async def score_rows(self):
        return await self.client.evaluator.submit(metric=self.metric, dataset=ROWS)

    async def score_agent(self):
        return await self.client.evaluator.submit(
            metric=self.metric,
            dataset=ROWS,
            target=self.runner,  # expect: ES105
        )


async def main():
    service = ScoringService()
    await service.score_rows()
    await service.score_agent()


asyncio.run(main())
