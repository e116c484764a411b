"""ES110 literal-secret (warning): an `env_vars` value that is a string literal shaped like a
credential travels in plain text inside the job spec. Not an SDK error; our own rule."""

from __future__ import annotations

import pytest
from rule_support import Result, analyse, results

from evalsubmit.analysis import Severity


def env_snippet(key: str, value: str) -> str:
    """A submitted Gym runner whose env_vars hold ``key: value`` on line 3."""
    return (
        "c = GymRuntimeConfig(\n"
        '    agent="a", agent_config="a.yaml", resources_server="m",\n'
        f"    env_vars={{{key!r}: {value}, 'LOG_LEVEL': 'debug'}},\n"
        ")\n"
        "client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=c))\n"
    )


# (key, value source) pairs that look like credentials.
SECRETS: list[tuple[str, str]] = [
    ("OPENAI_API_KEY", '"sk-proj-Q3xR7vT9kL2mN8pB4wZ6yH1jF5dS0aE"'),
    ("OPENAI_API_KEY", '"sk-Zq8Lm2Vb4Nw7Rt1Yp6Hs3Jd5Fg0Ac2Ue4Kx9Tq"'),
    ("NVIDIA_API_KEY", '"nvapi-8fK2xQ9vL4mR7tW1zB6nH3jD5sA0pE9cY2uI7oG4"'),
    ("GITHUB_TOKEN", '"ghp_Zx8Kq2Lm9Vb4Nw7Rt1Yp6Hs3Jd5Fg0Ac2Ue4"'),
    ("AWS_ACCESS_KEY_ID", '"AKIAZ7QX4LM2NB8RT5VW"'),
    ("WANDB_API_KEY", '"3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e2b4d6f0a"'),
    ("HF_TOKEN", '"hf_kX9mQ2vL7tR4wZ8nB3jH6sD1fA5pE0cY"'),
    ("DB_PASSWORD", '"Xk9#mQ2v!L7tR4wZ8nB3jH6sD"'),
    ("SERVICE_SECRET", '"q7Lz0Vb8Nw2Rt5Yp1Hs4Jd9Fg3Ac6Ue"'),
    ("ANY_NAME", '"nvapi-8fK2xQ9vL4mR7tW1zB6nH3jD5sA0pE9cY2uI7oG4"'),
]

# Values that are fine: not literals, empty, short words, paths, or not under a secret-like name.
NOT_SECRETS: list[tuple[str, str]] = [
    ("OPENAI_API_KEY", 'os.environ["OPENAI_API_KEY"]'),
    ("OPENAI_API_KEY", 'os.getenv("OPENAI_API_KEY", "")'),
    ("WANDB_API_KEY", '""'),
    ("API_KEY", '"dummy"'),
    ("HF_HOME", '"/models/hf"'),
    ("TOKENIZERS_PARALLELISM", '"false"'),
    ("RUN_ID", '"3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e2b4d6f0a"'),
    ("SEARCH_REGION", '"us-east-1"'),
]


@pytest.mark.parametrize(("key", "value"), SECRETS, ids=[f"{k}={v[:12]}" for k, v in SECRETS])
def test_credential_literal_is_flagged(key: str, value: str) -> None:
    assert results(env_snippet(key, value)) == [(3, "ES110")]


@pytest.mark.parametrize(
    ("key", "value"), NOT_SECRETS, ids=[f"{k}={v[:16]}" for k, v in NOT_SECRETS]
)
def test_non_credential_is_quiet(key: str, value: str) -> None:
    assert results(env_snippet(key, value)) == []


CASES: list[tuple[str, str, Result]] = [
    (
        "one finding per credential, on its entry line",
        """
        c = GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            env_vars={
                "OPENAI_API_KEY": "sk-proj-Q3xR7vT9kL2mN8pB4wZ6yH1jF5dS0aE",
                "LOG_LEVEL": "debug",
                "GITHUB_TOKEN": "ghp_Zx8Kq2Lm9Vb4Nw7Rt1Yp6Hs3Jd5Fg0Ac2Ue4",
            },
        )
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=c))
        """,
        [(4, "ES110"), (6, "ES110")],
    ),
    (
        "a credential outside env_vars is not this rule's business",
        """
        c = GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"note": "sk-proj-Q3xR7vT9kL2mN8pB4wZ6yH1jF5dS0aE"},
        )
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=c))
        """,
        [],
    ),
    (
        "suppressed",
        """
        c = GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            env_vars={"OPENAI_API_KEY": "sk-proj-Q3xR7vT9kL2mN8pB4wZ6yH"},  # evalsubmit: ignore
        )
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=c))
        """,
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es110(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es110_is_a_warning_that_names_the_variable() -> None:
    secret = "nvapi-8fK2xQ9vL4mR7tW1zB6nH3jD5sA0pE9cY2"
    (finding,) = analyse(env_snippet("NVIDIA_API_KEY", f'"{secret}"'))
    assert finding.kind == "literal-secret"
    assert finding.severity is Severity.WARNING
    assert "NVIDIA_API_KEY" in finding.message
    assert secret not in finding.message, "the message must not repeat the credential"
