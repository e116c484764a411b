"""A config changed after it was built. Pydantic validates a ``GymRuntimeConfig`` when it is
constructed, not when a field is set afterwards (``cfg.num_repeats = 0``): the SDK refuses such
a value only when the runner is submitted, so it is reported when the config reaches a
``submit()`` after the change, wherever that code is (a test function nothing calls, a method),
and not when it never does. Validation also copies the dicts passed as ``hydra_params`` and
``env_vars``: a store into the caller's dict afterwards does not reach the config."""

from __future__ import annotations

import textwrap
from pathlib import Path

from idiom_support import check, findings

from evalsubmit.analysis import Project, analyze_source
from unit.rules.rule_support import HEADER


def test_a_field_set_in_test_functions_nothing_calls() -> None:
    check("""
    import pytest

    def make_config(**overrides):
        return GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", **overrides)

    def test_repeats_are_overridden():
        config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")
        config.num_repeats = 0  # expect: ES109
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))

    def test_timeout_from_a_helper_is_overridden():
        config = make_config()
        config.startup_timeout_s = -5.0  # expect: ES109
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))

    class TestNightly:
        def test_secret_set_afterwards(self):
            config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")
            config.env_vars = {"OPENAI_API_KEY": "sk-proj-3xAmpl3k3yTh4tL00ksR34l"}  # expect: ES110
            runner = GymAgentTaskRunner(config=config)
            client.evaluator.submit(tasks=T, target=runner)

        def test_secret_stored_afterwards(self):
            config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", env_vars={"MODE": "eval"})
            config.env_vars["HF_TOKEN"] = "hf_k3yTh4tL00ksR34lAnd1sLong"  # expect: ES110
            config.env_vars["RETRIES"] = 3  # expect: ES109
            client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))

        def test_a_copy_keeps_what_was_set(self):
            config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")
            config.concurrency = 0  # expect: ES109
            client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config.model_copy()))
    """)


def test_a_field_set_only_after_the_last_submit_is_not_sent() -> None:
    check("""
    config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    config.num_repeats = 0

    def rerun():
        again = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=again))
        again.concurrency = 0
        local = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")
        local.concurrency = 0  # never submitted: the SDK never validates it again
        local.env_vars["RETRIES"] = 3
    """)


def test_a_bad_value_written_at_construction_is_reported_there_only() -> None:
    check("""
    def test_env():
        config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", env_vars={"GPUS": 8})  # expect: ES109
        config.env_vars["MODE"] = "eval"
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    """)


def test_a_field_set_then_submitted_twice_is_reported_once() -> None:
    snippet = """
    config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")
    config.num_repeats = 0  # expect: ES109
    runner = GymAgentTaskRunner(config=config)
    client.evaluator.submit(tasks=T, target=runner)
    client.evaluator.submit(tasks=T, target=runner)
    """
    check(snippet)
    (finding,) = findings(snippet)
    assert finding.message == "`num_repeats` must be ≥ 1, got 0"


def test_the_dict_passed_in_is_copied_by_validation() -> None:
    check("""
    def build(seed: int):
        params = {"seed": seed}
        config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=params)
        params["on_step"] = lambda step: step  # the config holds a copy: not sent
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))

    def build_with_env(seed: int):
        env = {"SEED": str(seed)}
        config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", env_vars=env)
        env["RETRIES"] = 3
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))

    def build_through_the_config(seed: int):
        params = {"seed": seed}
        config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=params)
        config.hydra_params["on_step"] = lambda step: step  # expect: ES107
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))

    def build_nested(seed: int):
        callbacks = {}
        params = {"seed": seed, "callbacks": callbacks}
        config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=params)
        callbacks["on_step"] = lambda step: step  # expect: ES107
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    """)


def test_a_method_nobody_calls_changes_nothing_for_the_others() -> None:
    """Each function body is walked as if alone, the methods of one class too: a method that
    would break the config is not known to run before the one that submits it."""
    check("""
    class NightlyService:
        def __init__(self):
            self.config = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")

        def debug_mode(self):
            self.config.num_repeats = 0  # expect: ES109
            self.config.env_vars["DEBUG"] = 1  # expect: ES109

        def launch(self):
            runner = GymAgentTaskRunner(config=self.config)
            return client.evaluator.submit(tasks=T, target=runner)

        def launch_debug(self):
            self.debug_mode()
            return client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=self.config))

    SHARED = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")

    class TestNightly:
        def test_tune(self):
            SHARED.concurrency = 0

        def test_submit(self):
            client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=SHARED))
    """)


def test_a_key_that_is_no_field_of_a_config_built_without_validation_is_dropped() -> None:
    """``model_construct`` ignores a key that is no field of the model, and
    ``model_copy(update=...)`` keeps it out of ``model_dump()``: the SDK re-validates the dump at
    submit, so the key never reaches the job and nothing refuses it. A bad value of a real field
    is still refused there."""
    snippet = """
    local = GymRuntimeConfig.model_construct(gym_root=Path("/opt/gym"), agent="a", agent_config="c.yaml", resources_server="r")
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=local))

    def submit_from(root: Path) -> None:
        copied = cfg.model_copy(update={"gym_root": root, "num_repeats": 2})
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=copied))

    typo = cfg.model_copy(update={"gym_root": Path("/opt/gym"), "concurrency": 0})  # expect: ES109
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=typo))
    """
    check(snippet)
    source = HEADER + textwrap.dedent(snippet).lstrip("\n")
    report = analyze_source(source, path=Path("snippet.py"), project=Project())
    sent = [s.target.target for s in report.submits if s.target and s.target.target]
    assert len(sent) == 2, report.submits
    assert all("gym_root" not in target for target in sent)
    assert [target["num_repeats"] for target in sent] == [1, 2]
