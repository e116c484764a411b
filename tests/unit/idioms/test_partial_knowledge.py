"""Partial knowledge: what is known of a value survives what is not (issue 24, section 3).

Whether a value can be None is tracked apart from what it is: calling a class never gives
None (a ``MagicMock()`` is a value, so the SDK refuses it beside ``tasks=``); a mapping read at
run time keeps the keys stored into it afterwards; ``x or {}`` and ``os.environ.get(k, "x")``
are never None."""

from __future__ import annotations

from idiom_support import check


def test_mocks_in_a_test_suite_are_values() -> None:
    check("""
    from unittest import mock
    from unittest.mock import MagicMock, create_autospec

    def test_mixed_shape_is_refused():
        client.evaluator.submit(tasks=T, target=gym_runner, metric=MagicMock())  # expect: ES101

    def test_runner_on_the_row_path():
        client.evaluator.submit(metric=em, dataset=mock.Mock(), target=gym_runner)  # expect: ES105

    def test_row_options_from_a_mapping():
        option = "config"
        client.evaluator.submit(tasks=T, target=gym_runner, **{option: MagicMock()})  # expect: ES102

    def test_an_autospec_metric():
        metric = create_autospec(ExactMatchMetric)
        client.evaluator.submit(tasks=T, target=gym_runner, metric=metric)  # expect: ES101

    def test_a_mock_runner_is_unknown_not_wrong():
        client.evaluator.submit(tasks=T, target=MagicMock(spec=GymAgentTaskRunner))
    """)


def test_a_yaml_base_keeps_the_keys_added_after() -> None:
    check("""
    import yaml

    def load_runner(path, hook):
        with open(path) as handle:
            params = yaml.safe_load(handle)
        params["postprocess"] = hook  # expect: ES107
        params["seed"] = 7
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="a", agent_config="c.yaml", resources_server="r", hydra_params=params
            )
        )

    def keep(rollout):
        return rollout

    def load_plain(path):
        with open(path) as handle:
            params = yaml.safe_load(handle)
        params["seed"] = 7
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="a", agent_config="c.yaml", resources_server="r", hydra_params=params
            )
        )

    client.evaluator.submit(tasks=T, target=load_runner("p.yaml", keep))
    client.evaluator.submit(tasks=T, target=load_plain("p.yaml"))
    """)


def test_or_default_and_environment_defaults_are_never_none() -> None:
    check("""
    import os

    def submit_rows(metric=None, extra=None):
        options = extra or {}
        return client.evaluator.submit(tasks=T, target=gym_runner, metric=metric or em, **options)  # expect: ES101

    def submit_suite():
        name = os.environ.get("EVAL_SUITE", "qa/smoke")
        return client.evaluator.submit(tasks=TasksetRef(name), target=gym_runner, dataset=name)  # expect: ES101

    def submit_maybe():
        name = os.environ.get("EVAL_SUITE")
        return client.evaluator.submit(tasks=T, target=gym_runner, dataset=name)
    """)


def test_a_string_from_the_environment_is_not_a_runner() -> None:
    check("""
    import os

    def submit_agent():
        return client.evaluator.submit(tasks=T, target=os.environ.get("AGENT", "simple_agent"))  # expect: ES104

    def submit_maybe():
        return client.evaluator.submit(tasks=T, target=os.environ.get("AGENT"))
    """)


def test_argparse_options_are_typed_and_not_none_when_the_parser_says_so() -> None:
    check("""
    import argparse

    def main(argv=None):
        parser = argparse.ArgumentParser()
        parser.add_argument("--suite", type=str, default="qa/smoke")
        parser.add_argument("--runner", required=True, choices=["gym", "harbor"])
        parser.add_argument("--metric")
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("workspace")
        args = parser.parse_args(argv)
        client.evaluator.submit(tasks=TasksetRef(args.suite), target=args.runner)  # expect: ES104
        client.evaluator.submit(tasks=T, target=gym_runner, dataset=args.workspace)  # expect: ES101
        client.evaluator.submit(tasks=T, target=gym_runner, metric=args.metric)
        if args.dry_run:
            return None
        return client.evaluator.submit(tasks=T, target=gym_runner)
    """)


def test_a_key_not_known_statically_may_replace_the_keys_before_it() -> None:
    check("""
    import os

    options = {"tasks": 0, os.environ["FIELD"]: T}
    client.evaluator.submit(target=gym_runner, **options)
    client.evaluator.submit(target=gym_runner, **{"tasks": 0})  # expect: ES108
    """)
