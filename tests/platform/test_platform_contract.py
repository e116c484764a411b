"""Contract: our submission body equals what the real SDK sends for the same runner.

The real `NeMoPlatform(...).evaluator.submit(tasks=TasksetRef(...), target=GymAgentTaskRunner(
config=GymRuntimeConfig(...)))` runs in the SDK venv against the session's real platform, with
its HTTP request captured (tests/platform/sdk_submit_capture.py). Our body for the SDK's own
`runner_to_target(runner)` JSON must have the very same `spec`, and the SDK's job must store
that target.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evalsubmit.platform import PlatformClient, build_submission_body, new_job_name
from platform_service import PlatformService, load_local_platform

pytestmark = [pytest.mark.platform, pytest.mark.sdk]

CAPTURE_SCRIPT = Path(__file__).with_name("sdk_submit_capture.py")

CASES: list[dict[str, Any]] = [
    {  # defaults only, bare taskset name
        "tasks": "smoke",
        "config": {"agent": "simple_agent", "agent_config": "c.yaml", "resources_server": "mcqa"},
    },
    {  # every field away from its default, JSON conversions, qualified ref with revision
        "tasks": "evalsubmit-test/smoke#latest",
        "config": {
            "agent": "math_agent",
            "agent_config": "/abs/configs/agent.yaml",
            "resources_server": "math_with_judge",
            "model_type": "openai_model",
            "bind_resources_server": "no",
            "hydra_params": {"policy": {"temperature": 0.5, "stop": ["a", "b"]}, "n": None},
            "env_vars": {"HF_HOME": "/data/hf", "MODE": "eval"},
            "num_repeats": "3",
            "concurrency": 2,
            "startup_timeout_s": 60,
            "collection_timeout_s": 900.5,
            "shutdown_grace_s": 5,
            "reward_key": "score",
        },
    },
]


@pytest.fixture(scope="module")
def sdk_process() -> Iterator[subprocess.Popen[str]]:
    """The SDK capture script, started before the platform so its slow imports overlap the
    platform's start-up (it reads its request from stdin only after importing)."""
    python = load_local_platform().sdk_python(install=True)
    env = {**os.environ, "NEMO_TELEMETRY_ENABLED": "false", "NEMO_PLUGIN_ALLOWLIST": "evaluator"}
    for name in ("NMP_CONFIG_FILE", "NMP_BASE_URL", "NMP_ACCESS_TOKEN", "NMP_WORKSPACE"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [str(python), str(CAPTURE_SCRIPT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def run_sdk(proc: subprocess.Popen[str], service: PlatformService) -> list[dict[str, Any]]:
    request = {"base_url": service.base_url, "workspace": service.workspace, "cases": CASES}
    stdout, stderr = proc.communicate(json.dumps(request), timeout=180)
    assert proc.returncode == 0, stderr[-3000:]
    results: list[dict[str, Any]] = json.loads(stdout)
    return results


async def test_body_spec_equals_the_real_sdk_request(
    sdk_process: subprocess.Popen[str], platform_service: PlatformService
) -> None:
    results = run_sdk(sdk_process, platform_service)
    assert len(results) == len(CASES)
    ws = platform_service.workspace
    async with PlatformClient(platform_service.base_url, timeout_s=30) as client:
        for case, sdk in zip(CASES, results, strict=True):
            sent = sdk["request"]
            assert sent["method"] == "POST"
            assert sent["url"] == f"{platform_service.base_url}{client.jobs_path(ws)}"
            assert list(sent["body"]) == ["spec"]  # the SDK sends no name

            ours = build_submission_body(sdk["target"], case["tasks"], new_job_name())
            assert ours["spec"] == sent["body"]["spec"]
            assert json.dumps(ours["spec"]) == json.dumps(sent["body"]["spec"])  # order, floats
            assert {k: v for k, v in ours.items() if k != "spec"} == {"name": ours["name"]}

            # The SDK's job exists with that target (our own stored target is checked in
            # test_platform_live; not submitting a twin here keeps the machine's load down).
            sdk_job = await client.get_job(ws, sdk["job_name"])
            await client.cancel_job(ws, sdk_job.name)
            assert sdk_job.target == sdk["target"]
            assert len(sdk_job.spec["tasks"]) == 2
