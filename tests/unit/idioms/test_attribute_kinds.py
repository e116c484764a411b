"""Reading an attribute is not calling it: a method is a bound method only when the type really
has a method of that name; a property or slot of a value known exactly is computed (a path's
stem, a date's year), any other data is unknown. Precision first: each snippet's OK lines were
reported as "bound methods" (ES107/ES109) before."""

from __future__ import annotations

from idiom_support import check


def test_properties_and_slots_of_known_values_are_data() -> None:
    check("""
    from datetime import date, timedelta

    AGENT_FILE = Path("configs/agents/simple_agent.yaml")
    RELEASE = date(2026, 12, 5)

    ok = GymRuntimeConfig(
        agent=AGENT_FILE.stem,
        agent_config=AGENT_FILE.name,
        resources_server="mcqa",
        hydra_params={
            "config_dir": AGENT_FILE.parent,
            "release": {"year": RELEASE.year, "month": RELEASE.month},
            "timeout": timedelta(minutes=5).seconds,
            "real": (3).real,
        },
    )
    computed = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=timedelta(0).seconds,  # expect: ES109
    )
    not_a_string = GymRuntimeConfig(
        agent=AGENT_FILE.exists,  # expect: ES109
        agent_config="a.yaml",
        resources_server="mcqa",
    )
    methods = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={
            "today": RELEASE.isoformat,  # expect: ES107
        },
    )
    for config in (ok, methods):
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    """)


def test_fields_of_stdlib_objects_are_data_not_methods() -> None:
    check("""
    log = logging.getLogger("eval.nightly")
    defaults = types.SimpleNamespace(seed=7, temperature=0.2)

    def tagged(logger: logging.Logger) -> GymRuntimeConfig:
        return GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            hydra_params={"tag": logger.name, "level": logger.level},
        )

    ok = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={"seed": defaults.seed, "t": defaults.temperature, "run_tag": log.name},
    )
    methods = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={
            "log": log.info,  # expect: ES107
        },
    )
    for config in (ok, tagged(log), methods):
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    """)


def test_methods_of_refused_objects_of_a_known_class_stay_methods() -> None:
    check("""
    import sys

    error = ValueError("bad split")
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={
            "reason": error.args,
            "first": range(3).start,
            "write": sys.stdout.write,  # expect: ES107
            "indexer": range(3).index,  # expect: ES107
            "trace": error.with_traceback,  # expect: ES107
        },
    )
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    """)
