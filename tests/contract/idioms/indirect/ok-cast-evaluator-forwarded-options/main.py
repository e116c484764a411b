"""A scoring service that reaches the plugin evaluator through `cast(AsyncEvaluator, ...)` and
forwards the online options as collected keyword arguments: offline rows, online rows (a model
target and its prompt template), a local JSONL file and a stored fileset split."""

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any, cast

from nemo_evaluator.sdk import FilesetRef
from nemo_evaluator.sdk.resources import AsyncEvaluator
from nemo_evaluator.sdk.types import RunConfig, RunConfigOnlineModel
from nemo_evaluator.shared.metric_bundles.cloudpickle import CloudpickleMetricBundlePackager
from nemo_evaluator_sdk.metrics.exact_match import ExactMatchMetric
from nemo_evaluator_sdk.metrics.protocol import Metric, MetricInput, MetricOutput, MetricOutputSpec, MetricResult
from nemo_evaluator_sdk.values import Model, SecretRef
from nemo_platform import AsyncNeMoPlatform

GRADER = Model(url="http://nim:8000/v1/chat/completions", name="grader", api_key_secret=SecretRef(root="nim-key"))
CHAT = {"messages": [{"role": "user", "content": "{{item.question}}"}]}


class AnswerLength:
    type = "answer-length"

    def output_spec(self) -> list[MetricOutputSpec]:
        return [MetricOutputSpec.continuous_score("answer-length")]

    async def compute_scores(self, input: MetricInput) -> MetricResult:
        answer = str(input.row.data.get("answer", ""))
        return MetricResult(outputs=[MetricOutput(name="answer-length", value=float(len(answer)))])


async def score(
    evaluator: AsyncEvaluator,
    *,
    metric: Metric,
    dataset: Any,
    config: RunConfig | RunConfigOnlineModel,
    **options: Any,
) -> str:
    job = await evaluator.submit(
        metric=metric,
        dataset=dataset,
        config=config,
        metric_bundle_packager=CloudpickleMetricBundlePackager(),
        **options,
    )
    return job.name


async def score_split(client: AsyncNeMoPlatform, dataset: Any, *, online: bool) -> str:
    evaluator = cast(AsyncEvaluator, client.evaluator)
    options: dict[str, Any] = {}
    metric: Metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{item.answer}}")
    config: RunConfig | RunConfigOnlineModel = RunConfig(limit_samples=2)
    if online:
        metric = ExactMatchMetric(reference="{{item.answer}}")
        config = RunConfigOnlineModel(parallelism=4, limit_samples=2)
        options["target"] = GRADER
        options["prompt_template"] = CHAT
    return await score(evaluator, metric=metric, dataset=dataset, config=config, **options)


async def main() -> None:
    client = AsyncNeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    split = FilesetRef(root="qa/answers").with_fragment("validation.jsonl")
    await score_split(client, split, online=False)
    await score_split(client, split, online=True)
    with tempfile.TemporaryDirectory() as folder:
        rows = Path(folder) / "rows.jsonl"
        rows.write_text(json.dumps({"question": "2+2?", "answer": "4"}) + "\n", encoding="utf-8")
        await score_split(client, rows, online=False)
    evaluator = cast(AsyncEvaluator, client.evaluator)
    await score(evaluator, metric=AnswerLength(), dataset=[{"answer": "four"}], config=RunConfig(limit_samples=1))


if __name__ == "__main__":
    asyncio.run(main())
