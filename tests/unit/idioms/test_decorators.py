"""Decorated functions: ``@d def f`` binds ``d(f)``. A decorator of the user's is walked (its
wrapper is what a call runs), one known to give the function back keeps it, any other makes the
function unknown: nothing is reported from what the undecorated body would do."""

from __future__ import annotations

from idiom_support import check


def test_a_wrapper_of_the_users_is_what_a_call_runs() -> None:
    """One wrapper drops the row options (nothing to report), one passes the arguments on and
    one decorator gives the function back (reported at the call, as without them)."""
    check("""
    def taskset_only(send):
        @functools.wraps(send)
        def wrapper(client, **kwargs):
            kwargs.pop("config", None)
            return send(client, **kwargs)
        return wrapper

    def logged(function):
        @functools.wraps(function)
        def wrapper(client, runner, options):
            return function(client, runner, options)
        return wrapper

    def register(function):
        return function

    @taskset_only
    def send(client, **kwargs):
        return client.evaluator.submit(**kwargs)

    @logged
    def relaunch(client, runner, options):
        return client.evaluator.submit(tasks=T, target=runner, **options)

    @register
    def launch(client, runner, options):
        return client.evaluator.submit(tasks=T, target=runner, **options)

    send(client, tasks=T, target=gym_runner, config=RunConfig(parallelism=4))
    relaunch(client, gym_runner, {"config": RunConfig()})  # expect: ES102
    launch(client, gym_runner, {"config": RunConfig()})  # expect: ES102
    """)


def test_a_decorator_factory_that_supplies_the_taskset() -> None:
    check("""
    def on_suite(suite):
        def decorate(entry):
            def inner(client, **kwargs):
                return entry(client, tasks=TasksetRef(suite), **kwargs)
            return inner
        return decorate

    @on_suite("qa/smoke")
    def smoke(client, **kwargs):
        return client.evaluator.submit(**kwargs)

    smoke(client, target=gym_runner)
    """)


def test_a_decorator_not_modelled_makes_calls_unknown() -> None:
    """``singledispatch`` picks an overload by the argument's type, a library's decorator may
    do anything: the base function's body is not what a call runs. Nor is a cache's: an
    argument that cannot be hashed (a ``GymRuntimeConfig``) raises before the body runs. A
    pytest mark held by a name gives the function back."""
    check("""
    from functools import singledispatch
    import pytest
    import tenacity

    @singledispatch
    def as_runner(value):
        return value

    @as_runner.register
    def _(value: GymRuntimeConfig):
        return GymAgentTaskRunner(config=value)

    @tenacity.retry(stop=tenacity.stop_after_attempt(3))
    def launch(client, runner):
        return client.evaluator.submit(tasks=T, target=runner)

    @functools.lru_cache(maxsize=8)
    def cached(client, runner):
        return client.evaluator.submit(tasks=T, target=runner)

    SLOW = pytest.mark.skipif(True, reason="slow")

    @SLOW
    def marked(client, runner):
        return client.evaluator.submit(tasks=T, target=runner)

    client.evaluator.submit(tasks=T, target=as_runner(cfg))
    launch(client, cfg)
    cached(client, cfg)
    marked(client, cfg)  # expect: ES104
    """)


def test_a_method_behind_a_decorator_not_modelled_is_unknown() -> None:
    """The class namespace holds what the decorators made of the method: a library's
    decorator (here a cache that may turn it into anything) or one of the user's leaves it
    unknown; a property, a static or class method stay what the engine models."""
    check("""
    import tenacity

    def traced(method):
        return method

    class Jobs:
        @tenacity.retry
        def launch(self, runner):
            return client.evaluator.submit(tasks=T, target=runner)

        @traced
        def relaunch(self, runner):
            return client.evaluator.submit(tasks=T, target=runner)

        @staticmethod
        def rows(runner):
            return client.evaluator.submit(metric=em, dataset=rows, target=runner)

        @property
        def runner(self):
            return harbor

    jobs = Jobs()
    jobs.launch(cfg)
    jobs.relaunch(cfg)
    Jobs.rows(gym_runner)  # expect: ES105
    client.evaluator.submit(tasks=T, target=jobs.runner)  # expect: ES106
    """)


def test_a_property_setter_keeps_its_getter() -> None:
    check("""
    class Job:
        def __init__(self):
            self._runner = gym_runner

        @property
        def runner(self):
            return harbor

        @runner.setter
        def runner(self, value):
            self._runner = value

    client.evaluator.submit(tasks=T, target=Job().runner)  # expect: ES106
    """)


def test_a_class_behind_a_decorator_not_modelled_is_unknown() -> None:
    """``@attrs.define`` makes the annotated class attributes fields (with converters): what
    the class body binds is not what an instance holds, so nothing is read from it. A dataclass,
    a decorator that gives the class back, and one of the user's whose walk gives it back keep
    the class (and the findings its values make)."""
    check("""
    import enum
    import functools
    import attrs

    REGISTRY = {}

    def register(cls):
        REGISTRY[cls.__name__] = cls
        return cls

    def replaced(cls):
        return object()

    @attrs.define
    class Converted:
        concurrency: int = attrs.field(converter=int, default="8")

    @register
    class Registered:
        concurrency = 0

    @replaced
    class Gone:
        concurrency = 0

    @functools.total_ordering
    @dataclass(frozen=True)
    class Plain:
        concurrency: int = 0

    def config(concurrency):
        return GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="mcqa", concurrency=concurrency
        )

    config(Converted().concurrency)
    config(Registered().concurrency)  # expect: ES109
    config(Gone().concurrency)
    config(Plain().concurrency)  # expect: ES109
    """)


def test_a_cached_factory_returns_what_its_body_returns() -> None:
    """``@functools.lru_cache(maxsize=8)``, ``@functools.cache`` and a bare ``@lru_cache`` run
    the body on arguments that hash (strings here): the runner a suite gets is followed, and
    ``suite.endswith(...)`` on a known string decides the branch."""
    check("""
    from functools import lru_cache

    @functools.lru_cache(maxsize=8)
    def runner_for(suite: str):
        if suite.endswith("terminal-bench"):
            return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
        return CallableAgentTaskRunner(fn=print)

    @functools.cache
    def harbor():
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    @lru_cache
    def by_name(name, retries=2):
        return harbor() if name.startswith(("tb-", "harbor-")) else None

    client.evaluator.submit(tasks=T, target=runner_for("qa/terminal-bench"))  # expect: ES106
    client.evaluator.submit(tasks=T, target=harbor())  # expect: ES106
    client.evaluator.submit(tasks=T, target=by_name("tb-nightly", retries=3))  # expect: ES106
    """)


def test_a_cached_call_stays_unknown_when_the_cache_may_differ_from_the_body() -> None:
    """An argument that may not hash (a dict, a config, an unknown value) raises before the
    body runs; a result that can change in place (a config whose field is set later, a dict,
    a list) is the first call's object on every later call, changes included: unknown."""
    check("""
    import sys

    @functools.lru_cache(maxsize=None)
    def runner_for(options):
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    @functools.cache
    def settings():
        return {"workers": 0}

    @functools.cache
    def shared_config():
        return GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            hydra_params={"rows": (n for n in range(3))},
        )

    client.evaluator.submit(tasks=T, target=runner_for({"suite": "qa"}))
    client.evaluator.submit(tasks=T, target=runner_for(sys.argv[1]))
    settings()["workers"] = 4
    GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=settings()["workers"],
    )
    shared_config().hydra_params = {"rows": [0, 1, 2]}
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=shared_config()))
    """)
