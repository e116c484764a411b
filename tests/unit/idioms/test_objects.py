"""Objects that hold clients, evaluators, runners and configs (issue 11, section 1)."""

from __future__ import annotations

import textwrap

from idiom_support import check
from test_incremental import outcome

from evalsubmit.analysis import DocumentAnalyzer, analyze_source
from unit.rules.rule_support import HEADER


def test_client_and_runner_stored_in_init_sync_and_async() -> None:
    check("""
    class EvalService:
        def __init__(self, workspace: str = "qa"):
            self.client = NeMoPlatform(workspace=workspace)
            self.async_client = AsyncNeMoPlatform(workspace=workspace)
            self.runner = gym_runner

        def nightly(self):
            return self.client.evaluator.submit(
                tasks=T,
                target=self.runner,
                config=RunConfig(parallelism=4),  # expect: ES102
            )

        def smoke(self):
            return self.client.evaluator.submit(tasks=T, target=self.runner)

        async def smoke_async(self):
            return await self.async_client.evaluator.submit(tasks=T, target=self.runner)  # expect: ES103
    """)


def test_unittest_setup_and_pytest_setup_method() -> None:
    check("""
    import unittest

    class TestSubmission(unittest.TestCase):
        def setUp(self):
            self.client = NeMoPlatform(workspace="qa")
            self.runner = harbor

        def test_harbor(self):
            with self.assertRaises(TypeError):
                self.client.evaluator.submit(tasks=T, target=self.runner)  # expect: ES106


    class TestRows:
        def setup_method(self):
            self.client = NeMoPlatform(workspace="qa")

        def test_rows_with_runner(self):
            self.client.evaluator.submit(metric=em, dataset=rows, target=gym_runner)  # expect: ES105
    """)


def test_dataclass_fields_properties_and_class_attributes() -> None:
    check("""
    from dataclasses import dataclass, field
    from functools import cached_property

    @dataclass
    class Suite:
        client: NeMoPlatform = field(default_factory=NeMoPlatform)
        runner: GymAgentTaskRunner = field(default_factory=lambda: gym_runner)

        def run(self):
            # fields are whatever the constructor got: not known here
            self.client.evaluator.submit(tasks=T, target=self.runner, prompt_template="x")

    suite = Suite(runner=harbor)
    suite.client.evaluator.submit(tasks=T, target=suite.runner)  # expect: ES106


    class Lazy:
        DEFAULT_TASKS = TasksetRef("qa/nightly")

        @cached_property
        def client(self) -> NeMoPlatform:
            return NeMoPlatform(workspace="qa")

        @property
        def runner(self):
            return CallableAgentTaskRunner(lambda task: None)

        def go(self):
            self.client.evaluator.submit(tasks=self.DEFAULT_TASKS, target=self.runner)  # expect: ES106
    """)


def test_a_field_declared_again_in_a_subclass_takes_the_subclass_default() -> None:
    """As dataclasses do: the field stays where the base declared it (a positional argument
    still reaches it), with the subclass's declaration (its default)."""
    check("""
    from dataclasses import dataclass

    @dataclass
    class Base:
        repeats: int = 1
        agent: str = "simple_agent"

    @dataclass
    class Job(Base):
        repeats: int = 0

    def config(job):
        return GymRuntimeConfig(
            agent=job.agent, agent_config="a.yaml", resources_server="r", num_repeats=job.repeats  # expect: ES109
        )

    config(Job())
    config(Job(2))
    """)


def test_members_a_subclass_defines_again_are_unknown_on_a_generic_self() -> None:
    """A method walked with ``self`` whoever constructed it may run on a subclass: a class
    attribute, method or property some subclass of the module defines again is not the
    class's own there (placeholders of a base, idiom ``objects/ok-base-class-attr-overridden``:
    ES108 and ES109 reported). An instance built here is still followed exactly, and a member
    no subclass redefines stays known on the generic self."""
    check("""
    class BaseJob:
        SUITE = ""
        WORKERS = 0
        PROMPT = "x"

        def runner(self):
            return harbor

        @property
        def tasks(self):
            return TasksetRef("qa team/x")  # expect: ES108

        def submit(self):
            cfg = GymRuntimeConfig(agent="a", agent_config="a", resources_server="m",
                                   concurrency=self.WORKERS)
            client.evaluator.submit(tasks=TasksetRef(self.SUITE), target=self.runner())
            client.evaluator.submit(tasks=self.tasks, target=gym_runner)
            client.evaluator.submit(tasks=T, target=gym_runner,
                                    prompt_template=self.PROMPT)  # expect: ES102

    class Nightly(BaseJob):
        SUITE = "qa/nightly"

    class Tuned(Nightly):
        WORKERS = 8

        def runner(self):
            return gym_runner

        if True:
            tasks = T

    class Forgot(BaseJob):
        pass

    Forgot().runner()
    cfg = GymRuntimeConfig(agent="a", agent_config="a", resources_server="m",
                           concurrency=Forgot.WORKERS)  # expect: ES109
    """)


def test_subclass_of_the_platform_client() -> None:
    check("""
    class TeamClient(NeMoPlatform):
        def describe(self):
            return "team"

    team = TeamClient(workspace="qa")
    team.evaluator.submit(target=gym_runner)  # expect: ES103
    """)


def test_attributes_set_outside_construction_stay_unknown() -> None:
    check("""
    class Job:
        def __init__(self):
            self.runner = None
            self.client = NeMoPlatform(workspace="qa")

        def prepare(self):
            self.runner = gym_runner

        def run(self):
            # prepare() may have run: the runner is not known to be None
            self.client.evaluator.submit(tasks=T, target=self.runner)


    class Conditional:
        def __init__(self, fast: bool):
            if fast:
                self.runner = gym_runner
            else:
                self.runner = harbor

        def run(self):
            client.evaluator.submit(tasks=T, target=self.runner)
    """)


def test_an_instance_built_with_arguments_is_checked_with_them() -> None:
    check("""
    class Launcher:
        def __init__(self, runner, suite="qa/smoke"):
            self.runner = runner
            self.suite = suite

        def launch(self):
            return client.evaluator.submit(tasks=self.suite, target=self.runner)  # expect: ES106

    Launcher(gym_runner).launch()
    Launcher(harbor).launch()
    Launcher(gym_runner, suite="qa team/smoke").launch()  # expect: ES108
    """)


def test_attributes_a_base_class_stores_through_super() -> None:
    check("""
    class Base:
        def __init__(self, workspace):
            self.client = NeMoPlatform(workspace=workspace)

    class Nightly(Base):
        def __init__(self):
            super().__init__("qa")
            self.runner = harbor

        def run(self):
            self.client.evaluator.submit(tasks=T, target=self.runner)  # expect: ES106
    """)


def test_state_a_test_class_stores_on_cls_before_its_tests() -> None:
    check("""
    import unittest

    class SharedClient(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            cls.client = NeMoPlatform(workspace="qa")
            cls.runner = gym_runner

        def test_row_option(self):
            self.client.evaluator.submit(
                tasks=T,
                target=self.runner,
                config=RunConfig(parallelism=2),  # expect: ES102
            )


    class TestPytestStyle:
        @classmethod
        def setup_class(cls):
            cls.client = NeMoPlatform(workspace="qa")

        def test_runner_on_rows(self):
            self.client.evaluator.submit(metric=em, dataset=rows, target=gym_runner)  # expect: ES105
    """)


def test_class_attributes_reassigned_elsewhere_stay_unknown() -> None:
    check("""
    class Settings:
        runner = harbor

    def switch():
        Settings.runner = gym_runner

    class Job:
        runner = harbor

        def run(self):
            client.evaluator.submit(tasks=T, target=self.runner)

    def reconfigure(job: Job):
        job.runner = gym_runner

    Settings.runner = gym_runner
    client.evaluator.submit(tasks=T, target=Settings.runner)
    """)


def test_a_runner_subclass_with_its_own_init_takes_the_call_s_arguments_itself() -> None:
    """``McqaRunner("simple_agent")`` is not ``GymAgentTaskRunner("simple_agent")``: its own
    ``__init__`` (here or in a base of the user's) receives the arguments; a subclass without
    one is checked as the runner's own constructor."""
    check("""
    class McqaRunner(GymAgentTaskRunner):
        def __init__(self, agent, **overrides):
            settings = {"agent_config": "a.yaml", "resources_server": "mcqa", **overrides}
            super().__init__(config=GymRuntimeConfig(agent=agent, **settings))

    class NightlyRunner(McqaRunner):
        pass

    class Tuned(GymAgentTaskRunner):
        pass

    client.evaluator.submit(tasks=T, target=McqaRunner("simple_agent", concurrency=8))
    client.evaluator.submit(tasks=T, target=NightlyRunner("simple_agent"))
    Tuned(cfg)  # expect: ES109
    """)


def test_a_runner_subclass_is_checked_by_what_its_init_passes_on() -> None:
    """``super().__init__(...)`` in its own ``__init__`` is the SDK's constructor: checked as
    ``GymAgentTaskRunner(...)`` written there, and the config it passes is the one sent."""
    check("""
    def log_rollout(result):
        print(result)

    class McqaRunner(GymAgentTaskRunner):
        def __init__(self, agent, **overrides):
            settings = {"agent_config": "a.yaml", "resources_server": "mcqa", **overrides}
            super().__init__(config=GymRuntimeConfig(agent=agent, **settings))

    class Positional(GymAgentTaskRunner):
        def __init__(self):
            super().__init__(cfg)  # expect: ES109

    class Labelled(GymAgentTaskRunner):
        def __init__(self, config, label="nightly"):
            self.label = label
            super().__init__(config=config)

    traced = McqaRunner("tool_agent", hydra_params={"on_rollout": log_rollout})  # expect: ES107
    client.evaluator.submit(tasks=T, target=traced)
    client.evaluator.submit(tasks=T, target=McqaRunner("simple_agent"))
    client.evaluator.submit(tasks=T, target=Labelled(cfg))
    client.evaluator.submit(tasks=T, target=Labelled(config={"agent": "a"}))  # expect: ES109
    """)


def test_attributes_a_subclass_stores_on_self_are_unknown_on_a_generic_self() -> None:
    """An attribute the base's ``__init__`` sets as a placeholder and a subclass's method
    (its ``__init__``) stores again on ``self`` is not the base's on the generic self (idiom
    ``objects/ok-subclass-init-overrides-attr``); one no subclass stores stays known."""
    check("""
    class BaseJob:
        def __init__(self):
            self.suite = ""
            self.workers = 0
            self.prompt = "x"

        def submit(self):
            cfg = GymRuntimeConfig(agent="a", agent_config="a", resources_server="m",
                                   concurrency=self.workers)
            client.evaluator.submit(tasks=TasksetRef(self.suite), target=gym_runner)
            client.evaluator.submit(tasks=T, target=gym_runner,
                                    prompt_template=self.prompt)  # expect: ES102

    class NightlyJob(BaseJob):
        def __init__(self):
            super().__init__()
            self.suite = "qa/nightly"

        def tune(self, n):
            self.workers = n
    """)


def test_a_class_methods_cls_does_not_know_what_subclasses_define_again() -> None:
    """A class method walked whoever called it has for ``cls`` the class or a subclass: a
    class attribute or method some subclass defines again is unknown there (idiom
    ``objects/ok-classmethod-placeholders``). Called on a class, ``cls`` is that class (it
    was unbound: a class method called on its class was not followed)."""
    check("""
    class Suite:
        NAME = ""
        REPEATS = 0
        PROMPT = "x"

        @classmethod
        def submit(cls):
            cfg = GymRuntimeConfig(agent="a", agent_config="a", resources_server="m",
                                   num_repeats=cls.REPEATS)
            client.evaluator.submit(tasks=TasksetRef(cls.NAME), target=gym_runner)
            client.evaluator.submit(tasks=T, target=gym_runner,
                                    prompt_template=cls.PROMPT)  # expect: ES102

    class Smoke(Suite):
        NAME = "qa/smoke"
        REPEATS = 1

    class Broken(Suite):
        NAME = "qa smoke"  # expect: ES108
        REPEATS = 2

    Smoke.submit()
    Broken.submit()
    """)


def test_an_edited_subclass_walks_its_base_again() -> None:
    """The incremental analysis knows a base's generic walk depends on its subclasses: adding
    or removing an override below the base agrees with a fresh analysis each time."""
    program = HEADER + textwrap.dedent("""\
        class BaseJob:
            WORKERS = 0

            def config(self):
                return GymRuntimeConfig(agent="a", agent_config="a", resources_server="m",
                                        concurrency=self.WORKERS)

        x = 1

        class Nightly(BaseJob):
            WORKERS = 8
        """)
    edits = [program, program.replace("WORKERS = 8", "PROMPT = 8"), program]
    edits.append(program.replace("class Nightly(BaseJob)", "class Nightly(object)"))
    analyzer = DocumentAnalyzer(None, None)
    found = []
    for text in edits:
        report = analyzer.analyze(text)
        assert outcome(report) == outcome(analyze_source(text))
        found.append(len([f for f in report.findings if f.code == "ES109"]))
    assert found == [0, 1, 0, 1]


def test_a_dataclass_field_not_written_by_keyword_is_reported_on_the_key_holding_it() -> None:
    """A dataclass instance in ``hydra_params``: a refused field value is reported where its
    key is written, the field's keyword; a default (``default_factory``) or a positional
    argument writes no key, so the entry holding the instance is the anchor, as the SDK
    reference places it (idiom ``objects/dataclass-lock-factory``: was the construction)."""
    check("""
    import threading
    from dataclasses import dataclass, field

    @dataclass
    class RunOptions:
        temperature: float = 0.0
        lock: object = field(default_factory=threading.Lock)

    defaulted = RunOptions(temperature=0.3)
    positional = RunOptions(0.3, threading.Lock())
    keyword = RunOptions(
        lock=threading.Lock(),  # expect: ES107
    )
    for options in (defaulted, positional, keyword):
        cfg = GymRuntimeConfig(agent="a", agent_config="a", resources_server="m", hydra_params={
            "run": options,  # expect: ES107
        })
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg))
    """)


def test_a_subclass_whose_base_expression_only_mentions_the_class_counts() -> None:
    """``class Nightly(with_retries(BaseJob))``: what the base expression makes may derive
    from ``BaseJob``, so the placeholder Nightly sets is not the base's own on a generic
    self (as the classes of other files are read); without it, ES109 would be reported."""
    check("""
    def with_retries(cls):
        return cls

    class BaseJob:
        WORKERS = 0

        def submit(self):
            cfg = GymRuntimeConfig(agent="a", agent_config="a", resources_server="m",
                                   concurrency=self.WORKERS)
            client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg))

    class Nightly(with_retries(BaseJob)):
        WORKERS = 8
    """)
