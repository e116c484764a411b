"""Values from containers and loops (issue 11, section 4)."""

from __future__ import annotations

from idiom_support import check, findings


def test_each_known_element_of_a_loop_is_checked_and_named() -> None:
    snippet = """
    RUNNERS = [gym_runner, harbor]
    for runner in RUNNERS:
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
    """
    check(snippet)
    (finding,) = findings(snippet)
    assert finding.message.endswith("(for the 2nd runner of RUNNERS)")


def test_dict_items_comprehensions_zip_and_enumerate() -> None:
    snippet = """
    SETTINGS = {
        "nightly": dict(agent="a", agent_config="c.yaml", resources_server="r", concurrency=0),  # expect: ES109
        "smoke": dict(agent="a", agent_config="c.yaml", resources_server="r"),
    }
    for name, settings in SETTINGS.items():
        GymRuntimeConfig(**settings)

    configs = {name: GymRuntimeConfig(**s) for name, s in [("x", {"agent": "a"})]}  # expect: ES109, ES109

    for suite, runner in zip(["qa/ok", "qa/bad suite"], [gym_runner, gym_runner]):  # expect: ES108
        client.evaluator.submit(tasks=suite, target=runner)

    for index, runner in enumerate([harbor]):
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
    """
    check(snippet)
    nightly = [f for f in findings(snippet) if f.code == "ES109" and "concurrency" in f.message]
    assert nightly and nightly[0].message.endswith("(for SETTINGS['nightly'])")


def test_a_finding_that_holds_for_every_element_is_plain() -> None:
    snippet = """
    for workspace in ["qa", "prod"]:
        GymRuntimeConfig(agent=workspace, agent_config="c", resources_server="r", num_repeats=0)  # expect: ES109
    """
    check(snippet)
    assert "(for" not in findings(snippet)[0].message


def test_a_loop_that_may_stop_early_is_walked_once() -> None:
    check("""
    import random

    for runner in [gym_runner, harbor]:
        if random.random() < 0.5:
            break
        client.evaluator.submit(tasks=T, target=runner)
    """)


def test_dict_merges_copies_and_dumps() -> None:
    check("""
    import dataclasses

    BASE = {"agent": "a", "agent_config": "c.yaml", "resources_server": "r"}
    merged = GymRuntimeConfig(**{**BASE, "num_repeats": 0})  # expect: ES109
    called = GymRuntimeConfig(**dict(BASE, concurrency=-1))  # expect: ES109
    dumped = GymRuntimeConfig(**cfg.model_dump(), startup_timeout_s=0)  # expect: ES109

    @dataclasses.dataclass
    class Settings:
        agent: str = "a"
        agent_config: str = "c.yaml"
        resources_server: str = "r"
        reward_key: int = 3

    from_dataclass = GymRuntimeConfig(**dataclasses.asdict(Settings()))  # expect: ES109

    unvalidated = cfg.model_copy(update={"num_repeats": 0})  # expect: ES109
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=unvalidated))
    """)


def test_containers_changed_in_place_are_followed() -> None:
    check("""
    callbacks = []
    callbacks.append(lambda event: event)
    hp = {"callbacks": callbacks}  # expect: ES107
    env = {}
    env.setdefault("WORKERS", 4)  # expect: ES109
    env.update(LEVEL="debug")
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", env_vars=env, hydra_params=hp)))

    extra = []
    extra += [lambda: 0]
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params={"extra": extra})))  # expect: ES107

    flags = {}
    flags |= {"on_done": print}  # expect: ES107
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=flags)))
    """)


def test_what_is_removed_or_changed_unseen_is_never_reported() -> None:
    check("""
    hp = {"on_done": print, "seed": 1}
    del hp["on_done"]
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=hp)))

    hooks = {"hook": lambda: 0, "seed": 2}
    hooks.pop("hook")
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=hooks)))

    items = [lambda: 0, 1]
    items.pop(0)
    items.clear()
    items.append(2)
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params={"items": items})))

    def name_of(key):
        return key

    unknown_key = {"cb": print}
    unknown_key.pop(name_of(os.environ["KEY"]))
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=unknown_key)))

    ordered = [print, 1]
    ordered.sort(key=str)
    ordered.remove(print)
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params={"o": ordered})))

    values = {"A": 1}
    values.popitem()
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", env_vars=values)))
    """)


SELF_REFERENCES = """
    loop = {}
    loop["self"] = loop
    first, second = {}, {}
    first["second"] = second  # expect: ES109
    second["first"] = first
    nested = []
    nested.append(nested)
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params=loop)))
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", hydra_params={"n": nested})))
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", env_vars=first)))
    client.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig(parallelism=2))  # expect: ES102
"""


def test_a_value_inside_itself_cuts_that_value_not_the_file() -> None:
    check(SELF_REFERENCES)
    (finding,) = [f for f in findings(SELF_REFERENCES) if f.code == "ES109"]
    # validation copied ``first`` into env_vars: the cycle closes one level further down, as
    # Python's own repr of ``second`` shows it ({'first': {'second': {...}}})
    assert "`env_vars['second']` is {'first': {'second': …}}" in finding.message


def test_a_key_not_known_statically_may_be_any_key() -> None:
    """Issue 31 (found by tests/unit/test_metamorphic.py): ``{stage(): r, "nightly": r}`` may
    hold ``"smoke"``, and ``d[key()] = r`` may have replaced the entry of ``"smoke"``; a lookup of
    a key the dict does not list is unknown then, not None. With every key known, it is None."""
    check(
        """
        RUNNERS = {stage_name(): gym_runner, "nightly": gym_runner}
        client.evaluator.submit(tasks=T, target=RUNNERS.get("smoke"))
        if "smoke" not in RUNNERS:
            raise SystemExit("no smoke runner")
        client.evaluator.submit(tasks=T, target=RUNNERS["smoke"])

        BY_STAGE = {"smoke": None}
        BY_STAGE[stage_name()] = gym_runner
        client.evaluator.submit(tasks=T, target=BY_STAGE["smoke"])
        client.evaluator.submit(tasks=T, target=BY_STAGE.get("canary"))

        KNOWN = {"nightly": gym_runner}
        client.evaluator.submit(tasks=T, target=KNOWN.get("smoke"))  # expect: ES104
        """
    )


def test_a_set_keeps_one_of_equal_items() -> None:
    """A set literal, set comprehension, ``set(...)`` or ``frozenset(...)`` holds one of
    equal known items, as Python does (``{1, True}`` is ``{1}``): its length and what it sends
    are the set's (a preview listed ``["nightly", "qa", "qa"]`` for a sorted set, idiom
    ``containers/ok-comprehension-hydra-filter``; a count from it was off by the duplicates).
    Objects and unknowns are kept, each its own."""
    check("""
    TAGS = {"qa", "qa", "QA".lower()}

    def cfg(n):
        return GymRuntimeConfig(agent="a", agent_config="a", resources_server="m", num_repeats=n)

    cfg(len(TAGS) - 1)  # expect: ES109
    cfg(len({t for t in ("a", "a")}) - 1)  # expect: ES109
    cfg(len(set(["b", "b"])) - 1)  # expect: ES109
    cfg(len(frozenset("cc")) - 1)  # expect: ES109
    cfg(len({1, True}) - 1)  # expect: ES109
    cfg(len(["d", "d"]) - 2)  # expect: ES109
    cfg(len({"e", "f"}) - 1)
    cfg(len({object(), object()}) - 1)
    # may be one item or two: not known
    cfg(2 - len({gym_runner, gym_runner}))
    cfg(2 - len({os.environ["A"], os.environ["B"]}))
    cfg(2 - len({os.environ["A"], "qa"}))
    cfg(2 - len(set([os.environ["A"], "qa"])))
    cfg(2 - len({s for s in (os.environ["A"], "qa")}))
    """)


def test_dict_union_is_a_new_dict_of_both() -> None:
    """``a | b`` of known dicts is ``{**a, **b}``: ``b``'s entries over ``a``'s, ``a`` left
    as it was (idiom ``containers/dict-union-callback``: a callback merged in a loop was
    missed); an equal key replaces the value before it. With an unknown side, or a ``Counter`` (whose ``|`` keeps the larger count), the
    result is unknown."""
    check("""
    import collections

    DEFAULTS = {"temperature": 0.0, "cb": None}

    def cfg(hydra):
        return GymRuntimeConfig(agent="a", agent_config="a", resources_server="m",
                                hydra_params=hydra)

    for extra in [{}, {"on_rollout": print}]:  # expect: ES107
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg(DEFAULTS | extra)))
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg(DEFAULTS)))
    fixed = {"cb": len} | {"cb": "len"}
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg(fixed)))
    # an entry a later ** replaces is not sent (it was reported: {**a, **b} kept both)
    hooks = {"cb": abs}
    unpacked = {**hooks, **{"cb": "abs"}}
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg(unpacked)))
    counted = collections.Counter(a=1) | collections.Counter(a=2)
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg(counted)))
    cfg({"n": 0} | {"env_vars": 1})
    """)


def test_the_runners_a_generator_yields_into_the_for_loop_over_its_call() -> None:
    """A generator whose body is a run of ``yield`` statements, iterated by the ``for`` loop
    over its call: each runner it yields is walked in turn, parameters bound from the call."""
    check("""
    def all_runners():
        \"\"\"Every runtime the team maintains.\"\"\"
        yield GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"
            )
        )
        yield HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    def runners_in(folder):
        yield HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=folder))

    for runner in all_runners():
        try:
            client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
        except TypeError:
            pass
    for runner in runners_in(Path("nightly")):
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
    """)


def test_a_generator_whose_items_are_not_certain_stays_unknown() -> None:
    """Drained before the loop (bound to a name), a body with control flow, or a value that
    reads what may change between the call and the iteration (a module global, an attribute):
    nothing is reported from what it would yield."""
    check("""
    import sys

    HARBOR = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    def once():
        yield HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    def chosen():
        if len(sys.argv) > 1:
            yield HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    def from_global():
        yield HARBOR

    def from_attribute():
        yield sys.modules["runners"].HARBOR

    def from_helper():
        yield harbor_runner()

    def harbor_runner():
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    drained = once()
    kept = list(drained)
    for runner in drained:
        client.evaluator.submit(tasks=T, target=runner)
    for runner in chosen():
        client.evaluator.submit(tasks=T, target=runner)
    for runner in from_global():
        HARBOR = gym_runner
        client.evaluator.submit(tasks=T, target=runner)
    for runner in from_attribute():
        client.evaluator.submit(tasks=T, target=runner)
    for runner in from_helper():
        client.evaluator.submit(tasks=T, target=runner)
    """)
