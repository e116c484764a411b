"""A Mapping given as the whole ``hydra_params`` or ``env_vars`` (a ``ChainMap`` of layers, a
read-only ``MappingProxyType``) is validated by pydantic into a dict: never "not a dict". Inside
``hydra_params`` it is kept as it is, and the SDK cannot serialise it."""

from __future__ import annotations

from idiom_support import check


def test_a_whole_mapping_field_is_validated_into_a_dict() -> None:
    check("""
    TEAM = {"temperature": 0.7}
    for layer in ({"temperature": 0.0}, {"top_p": 1.0}):
        whole = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            hydra_params=collections.ChainMap(layer, TEAM),
            env_vars=types.MappingProxyType({"LOG_LEVEL": "info"}),
        )
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=whole))
    user_dict = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params=collections.UserDict(TEAM),
    )
    nested = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params={
            "layers": collections.ChainMap(TEAM),  # expect: ES107
        },
    )
    not_a_string = GymRuntimeConfig(
        agent=collections.ChainMap(TEAM),  # expect: ES109
        agent_config="a.yaml",
        resources_server="mcqa",
    )
    for config in (user_dict, nested):
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
    """)
