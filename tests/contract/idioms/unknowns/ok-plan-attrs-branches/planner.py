"""An evaluation plan: which fields are set depends on the kind of job."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

ROWS = [{"question": "2+2", "answer": "4"}]


class EvalPlan:
    def __init__(self):
        self.tasks = None
        self.target = None
        self.metric = None
        self.dataset = None


def notify(job):
    print("submitted", job)


def make_plan(kind, suite="qa/smoke"):
    plan = EvalPlan()
    if kind == "agent":
        plan.tasks = TasksetRef(suite)
        plan.target = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
        )
    else:
        plan.metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        plan.dataset = ROWS
    return plan


def run(client, plan):
    job = client.evaluator.submit(
        tasks=plan.tasks,
        target=plan.target,
        metric=plan.metric,
        dataset=plan.dataset,
    )
    notify(job)
    return job
