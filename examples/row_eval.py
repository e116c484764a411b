"""Score saved answers offline and a live model online (row-shaped submissions)."""

from pathlib import Path

from nemo_evaluator.sdk import FilesetRef
from nemo_evaluator_sdk import (
    ExactMatchMetric,
    F1Metric,
    Model,
    RunConfig,
    RunConfigOnlineModel,
)
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
evaluator = client.evaluator

em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{item.prediction}}")
rows = [
    {"question": "2+2?", "answer": "4", "prediction": "4"},
    {"question": "Capital of France?", "answer": "Paris", "prediction": "Paris"},
]

# Offline rows.
offline = evaluator.submit(metric=em, dataset=rows)
offline.wait_until_done()
print(offline.get_result())

# Rows from a stored fileset, and from a local file, with a run config.
f1 = F1Metric(reference="{{item.answer}}", candidate="{{item.prediction}}")
evaluator.submit(metric=f1, dataset=FilesetRef("qa/mcqa-rows"), config=RunConfig(parallelism=16))
evaluator.submit(metric=f1, dataset=Path("data/answers.jsonl"), config=None)

# Online: the model answers each row.
llama = Model(url="http://nim:8000/v1", name="meta/llama-3.1-8b-instruct")
evaluator.submit(
    metric=em,
    dataset=rows,
    target=llama,
    config=RunConfigOnlineModel(parallelism=8, system_prompt="Answer briefly."),
    prompt_template="{{item.question}}",
)

gym_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent", agent_config="configs/simple_agent.yaml", resources_server="mcqa"
    )
)

# M5: forgot tasks=, or used the row path with a runner.
evaluator.submit(target=gym_runner)  # expect: ES103
evaluator.submit(metric=em, dataset=rows,
                 target=gym_runner)  # expect: ES105

# Half a row shape: metric without dataset (explicit None counts as omitted).
evaluator.submit(metric=em)  # expect: ES103
evaluator.submit(metric=em, dataset=None)  # expect: ES103
