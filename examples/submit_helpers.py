"""CI submission script: shortcuts for submit() — an alias, partials and keyword dicts.

Run with ``python submit_helpers.py`` after ``nemo auth login``.
"""

import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, FieldMapping
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

NIGHTLY = TasksetRef("qa/mcqa-nightly")

client = NeMoPlatform(workspace="qa")
submit = client.evaluator.submit

config = GymRuntimeConfig(
    agent="simple_agent", agent_config="configs/simple_agent.yaml", resources_server="mcqa"
)
runner = GymAgentTaskRunner(config=config)

# A partial per suite.
smoke = functools.partial(submit, tasks=TasksetRef("qa/smoke"))
smoke(target=runner)
smoke(target=config)  # expect: ES104

# Keyword dicts, built at once, derived, or key by key.
nightly_kw = dict(tasks=NIGHTLY, target=runner)
submit(**nightly_kw)
prompted_kw = dict(nightly_kw,
                   prompt_template="Answer: {{item.question}}")  # expect: ES102
submit(**prompted_kw)

em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
job = {}
job["tasks"] = NIGHTLY
job["target"] = runner
job["metric"] = em
submit(**job)  # expect: ES101

submit(tasks=NIGHTLY, target=runner, **{"field_mapping": FieldMapping(input="question")})  # expect: ES102

# A row evaluation sharing the metric; the runner does not belong here.
score = functools.partial(client.evaluator.submit, metric=em)
score(dataset=[{"question": "2+2?", "answer": "4"}])
score(dataset=[{"question": "2+2?", "answer": "4"}], target=runner)  # expect: ES105
