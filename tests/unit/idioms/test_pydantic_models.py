"""The user's pydantic models: a field is what the call gave only where pydantic surely keeps
it (a plain field of the value's exact scalar type, nothing that transforms); otherwise it is
unknown, never the value as written nor the class default of a settings model."""

from __future__ import annotations

from idiom_support import check

CONFIG = (
    'GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",'
    " concurrency={})"
)


def test_a_plain_field_keeps_what_it_is_given() -> None:
    check(f"""
    from pydantic import BaseModel, Field

    class Run(BaseModel):
        concurrency: int = 4
        suite: str = "qa/smoke"
        repeats: int = Field(default=2, ge=0)

    run = Run(concurrency=0, suite=" qa ")  # expect: ES108
    client.evaluator.submit(tasks=TasksetRef(run.suite), target=gym_runner)
    {CONFIG.format("run.concurrency")}  # expect: ES109
    {CONFIG.format("Run().concurrency")}
    {CONFIG.format("Run(repeats=0).repeats")}  # expect: ES109
    """)


def test_a_subclass_of_the_users_model_is_a_model() -> None:
    check(f"""
    from pydantic import BaseModel

    class Base(BaseModel):
        agent: str = "simple_agent"

    class Tuned(Base):
        concurrency: int = 0

    class MoreTuned(Tuned):
        pass

    {CONFIG.format("Tuned(concurrency=8).concurrency")}
    {CONFIG.format("MoreTuned(concurrency=8).concurrency")}
    {CONFIG.format("MoreTuned(concurrency=0).concurrency")}  # expect: ES109
    {CONFIG.format("MoreTuned().concurrency")}  # expect: ES109
    """)


def test_validators_and_transforming_config_make_fields_unknown() -> None:
    check(f"""
    from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

    import validators

    class Clamped(BaseModel):
        concurrency: int = 0

        @field_validator("concurrency")
        @classmethod
        def at_least_one(cls, value: int) -> int:
            return max(1, value)

    class Parent(BaseModel):
        @model_validator(mode="after")
        def fix(self):
            return self

    class Child(Parent):
        concurrency: int = 0

    class Stripped(BaseModel):
        model_config = ConfigDict(str_strip_whitespace=True)
        suite: str

    class Aliased(BaseModel):
        concurrency: int = Field(default=4, alias="workers")

    class Decorated(BaseModel):
        concurrency: int = 0

        @validators.clamp("concurrency")
        def clamp(cls, value):
            return max(1, value)

        @property
        def doubled(self):
            return self.concurrency * 2

    class Neutral(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)
        concurrency: int = 0

    {CONFIG.format("Clamped(concurrency=0).concurrency")}
    {CONFIG.format("Clamped().concurrency")}
    {CONFIG.format("Child(concurrency=0).concurrency")}
    {CONFIG.format("Aliased(concurrency=0).concurrency")}
    {CONFIG.format("Decorated(concurrency=0).concurrency")}
    {CONFIG.format("Neutral(concurrency=0).concurrency")}  # expect: ES109
    client.evaluator.submit(tasks=TasksetRef(Stripped(suite=" qa/x ").suite), target=gym_runner)
    """)


def test_values_pydantic_converts_are_unknown_of_the_annotated_type() -> None:
    check(f"""
    from pydantic import BaseModel

    class Sweep(BaseModel):
        seeds: list[int]
        scale: float = 1.0
        workers: int = 1

    sweep = Sweep(seeds=(s for s in range(3)), scale=2, workers=True)
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            hydra_params={{"seeds": sweep.seeds, "scale": sweep.scale}},
        )
    )
    client.evaluator.submit(tasks=T, target=runner)
    {CONFIG.format("sweep.workers")}
    """)


def test_settings_fields_come_from_the_environment_unless_given() -> None:
    check(f"""
    from pydantic_settings import BaseSettings, SettingsConfigDict

    class Settings(BaseSettings):
        model_config = SettingsConfigDict(env_prefix="EVAL_")
        suite: str = ""
        concurrency: int = 0

    settings = Settings()
    client.evaluator.submit(tasks=TasksetRef(settings.suite), target=gym_runner)
    {CONFIG.format("settings.concurrency")}
    {CONFIG.format("Settings(concurrency=0).concurrency")}  # expect: ES109
    """)


def test_a_model_in_hydra_params_sends_what_validation_kept() -> None:
    check("""
    from pydantic import BaseModel

    class Sweep(BaseModel):
        seeds: list[int]
        note: str = "x"

    def run(sweep):
        config = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            hydra_params={"sweep": sweep},
        )
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))

    run(Sweep(seeds=map(int, ["1", "2"])))
    run(Sweep(seeds=range(2), note="y"))
    """)


def test_a_class_with_an_unknown_base_or_decorator_is_not_its_class_defaults() -> None:
    check(f"""
    from somewhere import Settings, define

    class Unresolved(Settings):
        concurrency: int = 0

    class Tuned(Unresolved):
        repeats: int = 0

    @define
    class Attrs:
        concurrency: int = 0

    class Plain:
        concurrency: int = 0

    {CONFIG.format("Unresolved(concurrency=8).concurrency")}
    {CONFIG.format("Tuned(repeats=8).repeats")}
    {CONFIG.format("Attrs(concurrency=8).concurrency")}
    {CONFIG.format("Plain().concurrency")}  # expect: ES109
    """)


def test_a_named_tuple_built_without_arguments_holds_its_class_defaults() -> None:
    check("""
    from typing import NamedTuple

    def build():
        return "a.yaml"

    class Settings(NamedTuple):
        agent_config: object = build

    def config(settings):
        return GymRuntimeConfig(
            agent="simple_agent", agent_config=settings.agent_config, resources_server="mcqa"  # expect: ES109
        )

    config(Settings("b.yaml"))  # a field given: not the class default
    config(Settings())
    """)
