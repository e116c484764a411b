"""Contract test: our Gym models and static engine against the real SDK (nemo-platform 0.6.0).

The oracle (``sdk_oracle.py``) runs every corpus snippet with the real SDK in the Python 3.12 venv
and records its verdict and ``runner_to_target(runner).model_dump(mode="json")``.

* Test A (``test_models_match_sdk``) runs the same snippets in this process with stand-ins for the
  SDK imports that route to ``GymRuntimeConfigModel`` (via ``validate_config``) and a tiny runner,
  then derives the target with ``derive_target_json`` and classifies ``hydra_params`` with
  ``find_unjsonable``: verdicts, pydantic error locations/types and JSON must equal the SDK's.
* Test B (``test_engine_matches_sdk``) is the end-to-end contract: the static engine, which never
  runs the snippet, must preview the same JSON for a valid runner and report ES109 for an invalid
  config, ES107 for an unserializable or iterator one.
"""

from __future__ import annotations

import collections
import importlib.util
import json
import sys
import types
from pathlib import Path
from typing import Any

import pydantic
import pytest

from evalsubmit.sdk.models import (
    ConfigProblem,
    FilesetRefModel,
    GymRunnerTargetModel,
    GymRuntimeConfigModel,
    UnserializableConfig,
    derive_target_json,
    find_unjsonable,
    validate_config,
)
from evalsubmit.sdk.version import SDK_VERSION

pytestmark = pytest.mark.sdk


def _load_corpus() -> types.ModuleType:
    path = Path(__file__).resolve().parent / "corpus.py"
    spec = importlib.util.spec_from_file_location("evalsubmit_contract_corpus", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CORPUS = _load_corpus()
CASES = {case.id: case for case in CORPUS.CASES}
IDS = list(CASES)
TARGET_CASES = {case.id: case for case in CORPUS.TARGET_CASES}
VERDICTS = ("valid", "invalid", "unserializable", "iterator")


# ------------------------------------------------------------------ stand-ins for the SDK imports


class ConfigRejected(Exception):
    def __init__(self, problems: tuple[ConfigProblem, ...]) -> None:
        super().__init__(problems)
        self.problems = problems


def _build(kwargs: Any) -> GymRuntimeConfigModel:
    verdict = validate_config(kwargs)
    if verdict.config is None:
        raise ConfigRejected(verdict.problems)
    return verdict.config


class StubGymRuntimeConfig:
    """``GymRuntimeConfig(**kw)`` / ``.model_validate(d)`` routed to ``validate_config``."""

    def __new__(cls, **kwargs: Any) -> GymRuntimeConfigModel:  # type: ignore[misc]
        return _build(kwargs)

    @classmethod
    def model_validate(cls, obj: Any) -> GymRuntimeConfigModel:
        return _build(obj)


class StubGymAgentTaskRunner:
    def __init__(self, *, config: Any) -> None:
        self._config = config

    @property
    def config(self) -> Any:
        return self._config


_GYM_MODULES = ("", ".config", ".runtime")
_PREFIXES = ("nemo_evaluator_sdk", "nemo_platform.beta.evaluator")


@pytest.fixture
def stub_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Install the stand-in modules (both import spellings, package and submodules)."""
    for prefix in _PREFIXES:
        gym = f"{prefix}.agent_eval.runtimes.gym"
        names = [gym + suffix for suffix in _GYM_MODULES]
        parts = gym.split(".")
        names += [".".join(parts[:i]) for i in range(1, len(parts))]
        for name in names:
            module = types.ModuleType(name)
            if name.startswith(gym):
                module.GymRuntimeConfig = StubGymRuntimeConfig  # type: ignore[attr-defined]
                module.GymAgentTaskRunner = StubGymAgentTaskRunner  # type: ignore[attr-defined]
            monkeypatch.setitem(sys.modules, name, module)
        _link(names, monkeypatch)
    wire = {
        "nemo_evaluator.jobs.agent_spec": ("GymRunnerTarget", GymRunnerTargetModel),
        "nemo_evaluator.filesets": ("FilesetRef", FilesetRefModel),
    }
    names = ["nemo_evaluator", "nemo_evaluator.jobs", *wire]
    for name in names:
        module = types.ModuleType(name)
        if name in wire:
            setattr(module, *wire[name])
        monkeypatch.setitem(sys.modules, name, module)
    _link(names, monkeypatch)


def _link(names: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for name in names:
        parent, _, child = name.rpartition(".")
        if parent:
            monkeypatch.setattr(sys.modules[parent], child, sys.modules[name], raising=False)


def _exec_case(case_id: str, source: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    name = f"contract_case_{case_id.replace('-', '_')}"
    monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    namespace: dict[str, Any] = {"__name__": name}
    exec(compile(source, f"<case {case_id}>", "exec"), namespace)
    return namespace


def our_verdict(case_id: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    try:
        namespace = _exec_case(case_id, CASES[case_id].source, monkeypatch)
    except ConfigRejected as rejected:
        return {
            "verdict": "invalid",
            "errors": [
                {"loc": list(p.field_path), "type": p.pydantic_type} for p in rejected.problems
            ],
            "messages": [p.message for p in rejected.problems],
        }
    config = namespace["runner"].config
    troubles = find_unjsonable(config.hydra_params, ("hydra_params",))
    try:
        body = derive_target_json(config)
    except UnserializableConfig as exc:
        return {"verdict": "unserializable", "path": exc.path, "troubles": troubles}
    iterators = [list(path) for path, _, kind in troubles if kind == "iterator"]
    verdict = "iterator" if iterators else "valid"
    return {"verdict": verdict, "json": body, "iterator_paths": iterators, "troubles": troubles}


# ------------------------------------------------------------------ corpus and oracle sanity


def test_corpus_size_and_coverage(oracle: dict[str, Any]) -> None:
    assert len(CASES) == len(CORPUS.CASES) >= 40, "case ids must be unique, at least 40"
    counts = collections.Counter(r["verdict"] for r in oracle["cases"].values())
    assert set(counts) == set(VERDICTS), counts
    assert oracle["sdk"]["nemo_platform"] == SDK_VERSION


@pytest.mark.parametrize("case_id", IDS)
def test_sdk_agrees_with_reference(case_id: str, oracle: dict[str, Any]) -> None:
    """The corpus' expected verdict (reference §6) is what the real SDK does."""
    result = oracle["cases"][case_id]
    assert result["verdict"] == CASES[case_id].expect, result
    if result["verdict"] == "iterator":
        assert all(sent == [] for sent in result["sent"]), result


# ------------------------------------------------------------------ Test A: our models


@pytest.mark.parametrize("case_id", IDS)
def test_models_match_sdk(
    case_id: str, oracle: dict[str, Any], stub_sdk: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = oracle["cases"][case_id]
    ours = our_verdict(case_id, monkeypatch)
    assert ours["verdict"] == expected["verdict"], (ours, expected)
    verdict = expected["verdict"]
    if verdict == "invalid":
        assert ours["errors"] == expected["errors"]
        assert all(m.startswith("`") or "`" in m for m in ours["messages"]), ours["messages"]
    elif verdict == "unserializable":
        assert [t for t in ours["troubles"] if t[2] != "iterator"], ours
    else:
        assert _canonical(ours["json"]) == _canonical(expected["json"])
        assert ours["iterator_paths"] == expected.get("iterator_paths", [])
        assert [t for t in ours["troubles"] if t[2] != "iterator"] == []


@pytest.mark.parametrize("case_id", list(TARGET_CASES))
def test_target_model_matches_sdk(
    case_id: str, oracle: dict[str, Any], stub_sdk: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GymRunnerTargetModel`` against ``GymRunnerTarget`` built directly (wire-only fields)."""
    expected = oracle["target_cases"][case_id]
    assert expected["verdict"] == TARGET_CASES[case_id].expect, expected
    try:
        namespace = _exec_case(case_id, TARGET_CASES[case_id].source, monkeypatch)
    except pydantic.ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "type": e["type"]} for e in exc.errors()]
        assert expected["verdict"] == "invalid", errors
        assert errors == expected["errors"]
        return
    assert expected["verdict"] == "valid", expected
    body = namespace["target"].model_dump(mode="json")
    assert _canonical(body) == _canonical(expected["json"])


def _canonical(doc: Any) -> str:
    """Order-sensitive comparison (the field order is part of the contract), inf/nan-safe."""
    return json.dumps(doc, sort_keys=False)


def test_field_order_is_the_wire_order(oracle: dict[str, Any]) -> None:
    body = oracle["cases"]["defaults"]["json"]
    assert list(body) == [
        "kind", "environment", "agent", "agent_config", "resources_server", "model_type",
        "bind_resources_server", "hydra_params", "env_vars", "agent_ref_name", "env_secrets",
        "num_repeats", "concurrency", "startup_timeout_s", "collection_timeout_s",
        "shutdown_grace_s", "reward_key",
    ]  # fmt: skip


# ------------------------------------------------------------------ Test B: the static engine


def _runner_position(source: str) -> tuple[int, int]:
    """1-based line and 0-based column of ``config=`` in the last runner construction."""
    lines = source.splitlines()
    for index in range(len(lines) - 1, -1, -1):
        col = lines[index].find("(config=")
        if col >= 0:
            return index + 1, col + 1
    raise AssertionError("corpus case without a runner construction")


@pytest.mark.parametrize("case_id", IDS)
def test_engine_matches_sdk(case_id: str, oracle: dict[str, Any]) -> None:
    from evalsubmit.analysis import analyze_source

    expected = oracle["cases"][case_id]
    case = CASES[case_id]
    report = analyze_source(case.source + CORPUS.SUBMIT_SUFFIX, path=Path(f"{case_id}.py"))
    codes = sorted(f.code for f in report.findings)
    verdict = expected["verdict"]
    if verdict == "valid":
        assert not {"ES107", "ES109"} & set(codes), report.findings
        line, col = _runner_position(case.source)
        preview = report.preview_at(line, col)
        assert preview is not None, f"no runner preview at {line}:{col}: {report.runners}"
        assert preview.target is not None, preview
        assert _canonical(preview.target) == _canonical(expected["json"])
    elif verdict == "invalid":
        assert "ES109" in codes, (codes, expected["errors"])
    else:
        assert "ES107" in codes, (codes, expected)
