"""ES109 invalid-config-value: a `GymRuntimeConfig` construction that violates the constraint
table of reference §6.2, or `GymAgentTaskRunner(config=<dict / non-config>)` (§6.1, M8, M12)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_support import (
    HEADER_LINES,
    Result,
    analyse,
    assert_fix,
    fixed_sources,
    results,
    same_code,
    source_of,
)

from evalsubmit.analysis import Project, analyze_source

REQUIRED = {"agent": '"simple_agent"', "agent_config": '"a.yaml"', "resources_server": '"mcqa"'}


def config_call(field: str, value: str) -> tuple[str, int]:
    """``GymRuntimeConfig(...)`` with one keyword per line and ``field=value`` set; the snippet and
    the line of that keyword."""
    lines = ["GymRuntimeConfig("]
    target_line = 0
    for name, default in REQUIRED.items():
        if name == field:
            continue
        lines.append(f"    {name}={default},")
    lines.append(f"    {field}={value},")
    target_line = len(lines)
    lines.append(")")
    return "\n".join(lines) + "\n", target_line


# (field, value, valid?) — every row verified against GymRuntimeConfig of nemo-platform 0.6.0.
TABLE: list[tuple[str, str, bool]] = [
    ("agent", '""', True),
    ("agent", "1", False),
    ("agent_config", '"configs/a.yaml"', True),
    ("agent_config", "None", False),
    ("agent_config", 'Path("a.yaml")', False),
    ("resources_server", "3", False),
    ("model_type", '"anything"', True),
    ("model_type", '"openai_model"', True),
    ("bind_resources_server", "False", True),
    ("bind_resources_server", '"yes"', True),
    ("bind_resources_server", '"no"', True),
    ("bind_resources_server", "1", True),
    ("bind_resources_server", "0", True),
    ("bind_resources_server", "2", False),
    ("bind_resources_server", '"maybe"', False),
    ("bind_resources_server", "None", False),
    ("hydra_params", "{}", True),
    ("hydra_params", '{"a": {1: "x"}}', True),
    ("hydra_params", "[1]", False),
    ("hydra_params", '"x"', False),
    ("hydra_params", "None", False),
    ("hydra_params", '{1: "a"}', False),
    ("env_vars", '{"A": "b"}', True),
    ("env_vars", '{"A": b"x"}', True),
    ("env_vars", "os.environ", True),
    ("env_vars", '{"HF_HOME": str(Path("/models/hf"))}', True),
    ("env_vars", '{"A": 0}', False),
    ("env_vars", '{"A": 1.5}', False),
    ("env_vars", '{"A": True}', False),
    ("env_vars", '{"A": None}', False),
    ("env_vars", '{"A": Path("/x")}', False),
    ("env_vars", '{"A": lambda: "x"}', False),
    ("env_vars", '{"A": (c for c in "ab")}', False),
    ("env_vars", '{1: "a"}', False),
    ("num_repeats", "1", True),
    ("num_repeats", '"3"', True),
    ("num_repeats", "2.0", True),
    ("num_repeats", "True", True),
    ("num_repeats", "0", False),
    ("num_repeats", "-1", False),
    ("num_repeats", "2.5", False),
    ("num_repeats", "None", False),
    ("num_repeats", '"x"', False),
    ("concurrency", "1", True),
    ("concurrency", "64", True),
    ("concurrency", "0", False),
    ("startup_timeout_s", "120", True),
    ("startup_timeout_s", "0.5", True),
    ("startup_timeout_s", '"30"', True),
    ("startup_timeout_s", 'float("inf")', True),
    ("startup_timeout_s", "0", False),
    ("startup_timeout_s", "-1", False),
    ("startup_timeout_s", 'float("nan")', False),
    ("startup_timeout_s", "None", False),
    ("collection_timeout_s", "None", True),
    ("collection_timeout_s", "5", True),
    ("collection_timeout_s", "0", False),
    ("collection_timeout_s", "-5", False),
    ("shutdown_grace_s", "1.5", True),
    ("shutdown_grace_s", "0", False),
    ("reward_key", '"score"', True),
    ("reward_key", "5", False),
    # extra="forbid": wire-only fields (M12) and typos
    ("environment", "None", False),
    ("env_secrets", '{"API_KEY": "qa/api-key"}', False),
    ("agent_ref_name", '"x"', False),
    ("kind", '"gym"', False),
    ("num_repeat", "3", False),
]


@pytest.mark.parametrize(
    ("field", "value", "valid"),
    TABLE,
    ids=[f"{f}={v}-{'ok' if ok else 'bad'}" for f, v, ok in TABLE],
)
def test_gym_runtime_config_constraint(field: str, value: str, valid: bool) -> None:
    source, line = config_call(field, value)
    assert results(source) == ([] if valid else [(line, "ES109")])


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_missing_required_field_is_reported_on_the_constructor_line(missing: str) -> None:
    kwargs = "\n".join(f"    {k}={v}," for k, v in REQUIRED.items() if k != missing)
    source = f"c = GymRuntimeConfig(\n{kwargs}\n)\n"
    assert results(source) == [(1, "ES109")]


CASES: list[tuple[str, str, Result]] = [
    (
        "M8: non-string environment values, one per entry",
        """
        c = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
            env_vars={"CUDA_VISIBLE_DEVICES": 0,
                      "HF_HOME": Path("/models/hf")})
        """,
        [(2, "ES109"), (3, "ES109")],
    ),
    (
        "M8 fine",
        """
        c = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
            env_vars={"HF_HOME": str(Path("/models/hf"))})
        """,
        [],
    ),
    (
        "M12: env_secrets on the live config",
        """
        GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
                         env_secrets={"API_KEY": "qa/api-key"})
        """,
        [(2, "ES109")],
    ),
    (
        "several problems in one call: one finding each",
        """
        GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            num_repeats=0,
            concurrency=0,
            num_repeat=3,
        )
        """,
        [(3, "ES109"), (4, "ES109"), (5, "ES109")],
    ),
    (
        "a key that is no field, whatever its (unknown) value: refused by extra='forbid'",
        """
        def build(root: Path, repeats: int) -> GymRuntimeConfig:
            return GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                                    gym_root=root, num_repeats=repeats)
        """,
        [(3, "ES109")],
    ),
    (
        "GymRuntimeConfig(**settings) with a dict literal: the entry line",
        """
        settings = {
            "agent": "a", "agent_config": "a.yaml", "resources_server": "m",
            "concurrency": 0,
        }
        c = GymRuntimeConfig(**settings)
        """,
        [(3, "ES109")],
    ),
    (
        "GymRuntimeConfig(**settings) missing a required field: the constructor line",
        """
        settings = {"agent": "a", "resources_server": "m"}
        c = GymRuntimeConfig(**settings)
        """,
        [(2, "ES109")],
    ),
    (
        "GymRuntimeConfig.model_validate({...}): the entry line",
        """
        c = GymRuntimeConfig.model_validate({
            "agent": "a", "agent_config": "a.yaml", "resources_server": "m",
            "bind_resources_server": "maybe",
        })
        """,
        [(3, "ES109")],
    ),
    (
        "model_validate with an extra key",
        """
        c = GymRuntimeConfig.model_validate({
            "agent": "a", "agent_config": "a.yaml", "resources_server": "m",
            "environment": None,
        })
        """,
        [(3, "ES109")],
    ),
    (
        "a dict as the runner config: the config= line",
        """
        r = GymAgentTaskRunner(
            config={"agent": "a", "agent_config": "a.yaml", "resources_server": "m"},
        )
        """,
        [(2, "ES109")],
    ),
    (
        "a dict bound to a name as the runner config",
        """
        settings = {"agent": "a", "agent_config": "a.yaml", "resources_server": "m"}
        r = GymAgentTaskRunner(config=settings)
        """,
        [(2, "ES109")],
    ),
    (
        "a path string as the runner config",
        'r = GymAgentTaskRunner(config="configs/simple_agent.yaml")\n',
        [(1, "ES109")],
    ),
    (
        "a dict-config runner that is submitted: reported once, at config=",
        """
        r = GymAgentTaskRunner(config={"agent": "a", "agent_config": "a.yaml",
                                       "resources_server": "m"})
        client.evaluator.submit(tasks=T, target=r)
        """,
        [(1, "ES109")],
    ),
    (
        "reported where constructed, not again at the submit",
        """
        c = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                             num_repeats=0)
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=c))
        """,
        [(2, "ES109")],
    ),
    (
        "through a helper that builds the config",
        """
        def build():
            return GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                                    concurrency=0)
        r = GymAgentTaskRunner(config=build())
        """,
        [(3, "ES109")],
    ),
    (
        "non-mistake: lax coercions",
        """
        GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                         model_type="openai_model", bind_resources_server="yes",
                         num_repeats="3", startup_timeout_s="30", collection_timeout_s=None)
        """,
        [],
    ),
    (
        "non-mistake: a config object",
        "r = GymAgentTaskRunner(config=cfg)\n",
        [],
    ),
    (
        "unknown values (parameters) are not diagnosed",
        """
        def build(n, env):
            return GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                                    num_repeats=n, env_vars=env)
        """,
        [],
    ),
    (
        "settings read from a file are unknown",
        """
        import json
        with open("gym.json") as fh:
            settings = json.load(fh)
        c = GymRuntimeConfig(**settings)
        r = GymAgentTaskRunner(config=json.load(open("gym.json")))
        """,
        [],
    ),
    (
        "suppressed",
        """
        c = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                             num_repeats=0)  # evalsubmit: ignore[ES109]
        """,
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es109(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es109_kind_and_message() -> None:
    source, _ = config_call("num_repeats", "0")
    (finding,) = analyse(source)
    assert finding.kind == "invalid-config-value"
    assert "num_repeats" in finding.message


FIXES = [
    (
        "str(...) around a Path",
        '{"HF_HOME": Path("/models/hf")}',
        '{"HF_HOME": str(Path("/models/hf"))}',
    ),
    ("quote an int", '{"CUDA_VISIBLE_DEVICES": 0}', '{"CUDA_VISIBLE_DEVICES": "0"}'),
    ("quote a larger int", '{"OMP_NUM_THREADS": 8}', '{"OMP_NUM_THREADS": "8"}'),
    ("quote a float", '{"TEMPERATURE": 0.5}', '{"TEMPERATURE": "0.5"}'),
]


@pytest.mark.parametrize(("env", "fixed"), [c[1:] for c in FIXES], ids=[c[0] for c in FIXES])
def test_es109_env_vars_fix(env: str, fixed: str) -> None:
    source, _ = config_call("env_vars", env)
    expected, _ = config_call("env_vars", fixed)
    assert_fix(source, "ES109", expected)


def test_es109_fix_per_entry_in_m8() -> None:
    """Each M8 entry gets its own fix: quoting the number, wrapping the Path."""
    source = """
    c = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
        env_vars={"CUDA_VISIBLE_DEVICES": 0,
                  "HF_HOME": Path("/models/hf")})
    """
    texts = fixed_sources(source, "ES109")
    want_a = source_of(
        """
        c = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
            env_vars={"CUDA_VISIBLE_DEVICES": "0",
                      "HF_HOME": Path("/models/hf")})
        """
    )
    want_b = source_of(
        """
        c = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
            env_vars={"CUDA_VISIBLE_DEVICES": 0,
                      "HF_HOME": str(Path("/models/hf"))})
        """
    )
    assert any(same_code(t, want_a) for t in texts)
    assert any(same_code(t, want_b) for t in texts)


def test_es109_a_key_that_is_no_field_is_the_preview_problem_not_an_unknown() -> None:
    """Its value does not matter (the key is refused whatever it is), so the preview says what
    is wrong and does not also call that key unknown."""
    snippet = """
    def build(root: Path) -> GymAgentTaskRunner:
        return GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="a.yaml",
                                                          resources_server="m", gym_root=root))
    """
    report = analyze_source(source_of(snippet), path=Path("snippet.py"), project=Project())
    (preview,) = [p for p in report.runners if p.span.line > HEADER_LINES]
    assert preview.problems == ("unknown GymRuntimeConfig field `gym_root`",)
    assert preview.unknowns == ()
