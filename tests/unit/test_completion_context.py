"""What can be completed at a position (evalsubmit.analysis.completion), on files shaped like
real suites: a package of helpers, a class holding the client, aliases, unfinished calls."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import SecretStr

from evalsubmit.analysis.completion import (
    CallSlot,
    StringSlot,
    completion_at,
    keyword_params,
    signatures,
)
from evalsubmit.platform.catalog import Catalog, CatalogItem, CatalogKey, credential_of
from evalsubmit.platform.errors import PlatformError, PlatformErrorKind
from evalsubmit.sdk.constraints import GYM_CONFIG_RULES
from evalsubmit.sdk.signatures import GYM_CONFIG_PARAMS

SUITE = '''\
"""Nightly agent evaluations."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner as Runner
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig as Cfg
from nemo_platform import AsyncNeMoPlatform, NeMoPlatform

from suites.helpers import load_rows, make_metric  # "TasksetRef(" in a comment


def build(agent: str, **extra: object) -> Runner:
    config = Cfg(agent=agent, agent_config=f"configs/{agent}.yaml", resources_server="mcqa", )
    return Runner(config=config)


class Nightly:
    def __init__(self, workspace: str = "qa") -> None:
        self.client = NeMoPlatform(workspace="qa/x")
        self.pool = ThreadPoolExecutor(2)

    def tasksets(self) -> None:
        for agent in ("simple_agent", "tool_agent"):
            self.client.evaluator.submit(
                tasks=TasksetRef("qa/sm"),
                target=build(agent),
            )

    def rows(self) -> None:
        evaluator = self.client.evaluator
        evaluator.submit(metric=make_metric(), dataset=load_rows("qa.jsonl"), config=None, )
        self.pool.submit(print, )

    def by_string(self) -> None:
        self.client.evaluator.submit(tasks="", target=build("a"))


async def later() -> None:
    client = AsyncNeMoPlatform(workspace="qa")
    await client.evaluator.submit()
    note = "TasksetRef(\\"not a call\\")"
'''


def at(needle: str, delta: int = 0, text: str = SUITE) -> tuple[int, int]:
    index = text.index(needle) + len(needle) + delta
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1)


def slot(needle: str, delta: int = 0, text: str = SUITE) -> StringSlot | CallSlot | None:
    return completion_at(text, *at(needle, delta, text))


def test_taskset_ref_string_with_its_workspace_prefix() -> None:
    found = slot('TasksetRef("qa/sm')
    assert isinstance(found, StringSlot)
    assert (found.kind, found.typed, found.workspace_prefix) == ("taskset", "qa/sm", "qa")
    line, col = at('TasksetRef("qa/sm', -len("qa/sm"))
    assert (found.line, found.start, found.end) == (line, col, col + len("qa/sm"))
    empty = slot('TasksetRef(""', -1, SUITE.replace('"qa/sm"', '""'))
    assert isinstance(empty, StringSlot) and empty.typed == "" and empty.workspace_prefix is None


def test_tasks_keyword_string_and_client_workspace_string() -> None:
    tasks = slot('tasks="')
    assert isinstance(tasks, StringSlot) and tasks.kind == "taskset"
    workspace = slot('NeMoPlatform(workspace="qa')
    assert isinstance(workspace, StringSlot) and workspace.kind == "workspace"
    assert workspace.typed == "qa" and workspace.workspace_prefix is None  # no taskset split


@pytest.mark.parametrize(
    "needle",
    [
        'TasksetRef(\\"not',  # a string inside a string
        'workspace: str = "q',  # a parameter default, not a client's keyword
        'f"configs/',  # an f-string
        'load_rows("qa',  # a helper's argument
        '# "TasksetRef("',  # a comment
    ],
)
def test_other_strings_are_not_completed_from_the_platform(needle: str) -> None:
    assert not isinstance(slot(needle), StringSlot)


def test_taskset_shape_offers_target_only() -> None:
    found = slot('tasks=TasksetRef("qa/sm"),\n                ', 0)
    assert isinstance(found, CallSlot) and found.callee == "submit"
    assert found.used == {"tasks", "target"}
    assert keyword_params(found) == ()
    unfinished = "ev.submit(tasks=TasksetRef('a/b'), "
    text = "from nemo_platform import NeMoPlatform\nev = NeMoPlatform().evaluator\n" + unfinished
    partial = completion_at(text, 3, len(unfinished))
    assert isinstance(partial, CallSlot)
    assert [p.name for p in keyword_params(partial)] == ["target"]


def test_row_shape_offers_row_options_and_target_only_with_config() -> None:
    found = slot("config=None, ")
    assert isinstance(found, CallSlot) and found.callee == "submit"  # a name bound to .evaluator
    names = [p.name for p in keyword_params(found)]
    assert "tasks" not in names and "metric" not in names and "dataset" not in names
    assert names == ["field_mapping", "prompt_template", "metric_bundle_packager", "target"]
    no_config = SUITE.replace("config=None, ", "")
    without_config = slot('dataset=load_rows("qa.jsonl"), ', text=no_config)
    assert isinstance(without_config, CallSlot)
    assert "target" not in [p.name for p in keyword_params(without_config)]
    help_ = signatures(found)
    assert help_.active == 1 and len(help_.items) == 2


def test_async_evaluator_has_no_taskset_shape() -> None:
    found = slot("await client.evaluator.submit(")
    assert isinstance(found, CallSlot) and found.callee == "async_submit"
    names = [p.name for p in keyword_params(found)]
    assert "tasks" not in names and names[:2] == ["metric", "dataset"]
    assert [s.label.split("(")[0] for s in signatures(found).items] == ["submit"]


def test_an_executors_submit_is_not_ours() -> None:
    assert slot("self.pool.submit(print, ") is None


def test_gym_config_through_an_alias_with_types_and_bounds() -> None:
    found = slot('resources_server="mcqa", ')
    assert isinstance(found, CallSlot) and found.callee == "config"
    params = keyword_params(found)
    assert [p.name for p in params][:2] == ["model_type", "bind_resources_server"]
    assert {p.name for p in params} | {"agent", "agent_config", "resources_server"} == {
        r.name for r in GYM_CONFIG_RULES
    }
    by_name = {p.name: p for p in GYM_CONFIG_PARAMS}
    assert by_name["concurrency"].label() == "concurrency: int = 4"
    assert by_name["collection_timeout_s"].constraint == "> 0 when set"
    assert by_name["agent"].required and by_name["agent"].default is None


def test_runner_keyword_and_value_positions() -> None:
    found = slot("return Runner(")
    assert isinstance(found, CallSlot) and found.callee == "runner"
    assert found.used == {"config"} and keyword_params(found) == ()
    text = SUITE.replace("Runner(config=config)", "Runner(con)")
    typing = slot("Runner(con", text=text)
    assert isinstance(typing, CallSlot) and typing.partial == "con"
    assert [p.name for p in keyword_params(typing)] == ["config"]
    value = slot("Runner(config=conf", text=SUITE.replace("config=config)", "config=conf)"))
    assert isinstance(value, CallSlot) and value.partial is None and value.current == "config"
    assert keyword_params(value) == ()
    assert signatures(value).active_param == 0


def test_a_notebook_cell_is_a_text_like_any_other() -> None:
    cell = 'runner = GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", ))'
    found = completion_at(cell, 1, cell.index('"a", ') + 5)
    assert isinstance(found, CallSlot) and found.callee == "config"


# -- the session's cache of platform lists --------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_catalog_answers_from_cache_and_refreshes_after_its_lifetime() -> None:
    clock = Clock()
    catalog = Catalog(ttl_s=30.0, clock=clock)
    key = CatalogKey("http://p", "taskset", "qa")
    calls: list[int] = []

    async def fetch() -> list[CatalogItem]:
        calls.append(1)
        return [CatalogItem("taskset", "smoke", "qa", "two tasks")]

    assert catalog.lookup(key) == ((), False)
    await asyncio.gather(catalog.refresh(key, fetch), catalog.refresh(key, fetch))
    assert len(calls) == 1  # one fetch per key at a time
    items, fresh = catalog.lookup(key)
    assert fresh and [i.ref for i in items] == ["qa/smoke"]
    clock.now = 31.0
    assert catalog.lookup(key) == (items, False)  # stale: still answered


async def test_catalog_failure_keeps_what_was_known_and_logs_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    catalog = Catalog(ttl_s=30.0, clock=clock)
    key = CatalogKey("http://p", "workspace", "")
    known = [CatalogItem("workspace", "qa", "qa")]

    async def works() -> list[CatalogItem]:
        return known

    async def offline() -> list[CatalogItem]:
        raise PlatformError(PlatformErrorKind.CONNECTION_REFUSED, "connection refused")

    await catalog.refresh(key, works)
    for _ in range(3):
        clock.now += 31.0
        await catalog.refresh(key, offline)
    items, fresh = catalog.lookup(key)
    assert list(items) == known and fresh  # no retry before one lifetime has passed
    failures = [r for r in caplog.records if "could not list" in r.getMessage()]
    assert len(failures) == 1


async def test_catalog_never_answers_one_token_with_the_lists_of_another() -> None:
    catalog = Catalog(ttl_s=30.0, clock=Clock())
    alice, bob = (credential_of(SecretStr(t)) for t in ("alice-token", "bob-token"))
    key_alice = CatalogKey("http://p", "workspace", "", alice)
    key_bob = CatalogKey("http://p", "workspace", "", bob)

    async def alices_workspaces() -> list[CatalogItem]:
        return [CatalogItem("workspace", "alice-only", "alice-only")]

    await catalog.refresh(key_alice, alices_workspaces)
    assert [i.ref for i in catalog.lookup(key_alice)[0]] == ["alice-only"]
    assert catalog.lookup(key_bob) == ((), False) and not catalog.known(key_bob)


def test_a_credential_tells_tokens_apart_without_holding_one() -> None:
    token = "nvapi-secret-123"
    digest = credential_of(SecretStr(token))
    assert digest == credential_of(SecretStr(token)) != credential_of(SecretStr(token + "4"))
    assert token not in digest and "secret" not in digest
    assert credential_of(None) == ""


def test_the_lists_a_completion_reads_are_keyed_by_its_token() -> None:
    from evalsubmit.analysis.completion import StringSlot
    from evalsubmit.lsp.platform_items import catalog_keys
    from evalsubmit.platform.config import ResolvedPlatformConfig

    slot = StringSlot("taskset", 3, 10, 14, "qa/s")

    def keys(token: str | None) -> list[CatalogKey]:
        secret = SecretStr(token) if token is not None else None
        config = ResolvedPlatformConfig(base_url="http://p", workspace="ml", token=secret)
        return catalog_keys(config, slot)

    assert [(k.kind, k.workspace) for k in keys("a")] == [("taskset", "qa"), ("workspace", "")]
    assert not set(keys("a")) & set(keys("b"))
    assert not set(keys("a")) & set(keys(None))
    assert keys("a") == keys("a")
