"""Types, not only values (issue 11, section 2)."""

from __future__ import annotations

from idiom_support import check


def test_annotations_in_every_form() -> None:
    check("""
    from typing import TYPE_CHECKING, Optional, Union

    if TYPE_CHECKING:
        from nemo_evaluator.sdk import Evaluator

    def with_string_annotation(client: "NeMoPlatform"):
        client.evaluator.submit(target=gym_runner)  # expect: ES103

    def with_optional_client(client: Optional[NeMoPlatform]):
        # if it is None, the attribute fails first: used as a client, it is one
        client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106

    def with_optional_runner(runner: GymAgentTaskRunner | None):
        client.evaluator.submit(tasks=T, target=runner)  # may be None: not known

    def with_union(runner: Union[GymAgentTaskRunner, HarborAgentTaskRunner]):
        client.evaluator.submit(tasks=T, target=runner)  # either: not known

    def with_list(runners: list[HarborAgentTaskRunner]):
        for runner in runners:
            client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
        client.evaluator.submit(tasks=T, target=runners[0])  # expect: ES106

    def with_dict(by_name: dict[str, HarborAgentTaskRunner]):
        client.evaluator.submit(tasks=T, target=by_name["x"])  # expect: ES106
        for name, runner in by_name.items():
            client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    def make() -> tuple["Evaluator", int]:
        raise NotImplementedError

    evaluator, count = make()
    evaluator.submit(tasks=T, target=gym_runner, metric=em)  # expect: ES101
    """)


def test_new_cast_and_isinstance() -> None:
    check("""
    from typing import cast
    from nemo_evaluator.sdk import Evaluator

    evaluator = Evaluator.__new__(Evaluator)
    evaluator.submit(tasks=T)  # expect: ES104

    def from_anywhere(obj, thing):
        typed = cast(NeMoPlatform, obj)
        typed.evaluator.submit(tasks=T, target=gym_runner, dataset=rows)  # expect: ES101
        if isinstance(thing, HarborAgentTaskRunner):
            client.evaluator.submit(tasks=T, target=thing)  # expect: ES106
        else:
            client.evaluator.submit(tasks=T, target=thing)
    """)


def test_a_constructor_call_is_never_none() -> None:
    check("""
    from nemo_evaluator_sdk import FieldMapping

    client.evaluator.submit(
        tasks=T,
        target=gym_runner,
        field_mapping=FieldMapping(question="prompt"),  # expect: ES102
    )
    """)


def test_stdlib_results_have_types() -> None:
    check("""
    import random
    import uuid

    config = GymRuntimeConfig(
        agent="a",
        agent_config="c.yaml",
        resources_server="r",
        env_vars={
            "DATA": Path(os.environ["DATA_ROOT"]) / "tasks",  # expect: ES109
            "RUN_ID": uuid.uuid4(),  # expect: ES109
            "CPUS": os.cpu_count(),  # expect: ES109
            "HOME": os.environ["HOME"],
            "WHERE": str(Path(os.environ["DATA_ROOT"]) / "tasks"),
        },
        hydra_params={"rng": random.Random(0)},  # expect: ES107
        num_repeats=os.cpu_count(),
    )
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    """)


def test_unknown_stays_silent() -> None:
    check("""
    import json
    import sys

    settings = json.loads(open("settings.json").read())
    config = GymRuntimeConfig(**settings)
    runner = GymAgentTaskRunner(config=config)
    client.evaluator.submit(tasks=sys.argv[1], target=runner)

    def anything(x, y):
        client.evaluator.submit(tasks=x, target=y)
    """)


def test_a_union_reports_only_what_every_member_shares() -> None:
    check("""
    from typing import Union

    def local_only(runner: Union[HarborAgentTaskRunner, CallableAgentTaskRunner]):
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    def not_runners(target: RunConfig | Model):
        client.evaluator.submit(tasks=T, target=target)  # expect: ES104

    def maybe_gym(runner: GymAgentTaskRunner | HarborAgentTaskRunner):
        client.evaluator.submit(tasks=T, target=runner)

    def mixed(target: HarborAgentTaskRunner | RunConfig):
        client.evaluator.submit(tasks=T, target=target)
    """)
