"""Runs under the SDK venv (Python 3.12, nemo-platform 0.6.0), not under the project venv.

Reads a JSON request on stdin: {"base_url", "workspace", "cases": [{"tasks", "config":
{GymRuntimeConfig kwargs}}, ...]} and, for each case, submits through the real SDK
(`NeMoPlatform(...).evaluator.submit(tasks=TasksetRef(...), target=GymAgentTaskRunner(...))`)
to the real platform, capturing the HTTP request it sends. Prints a JSON list on stdout, one
{"target": runner_to_target(runner) as JSON, "request": {"method", "url", "body"},
"job_name": name of the created job} per case.
"""

from __future__ import annotations

import json
import sys

import httpx
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.runner_targets import runner_to_target
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def main() -> None:
    params = json.load(sys.stdin)
    captured: list[dict[str, object]] = []

    def capture(request: httpx.Request) -> None:
        body = request.content
        captured.append(
            {
                "method": request.method,
                "url": str(request.url),
                "body": json.loads(body) if body else None,
            }
        )

    http_client = httpx.Client(event_hooks={"request": [capture]}, timeout=30.0)
    client = NeMoPlatform(
        base_url=params["base_url"],
        workspace=params["workspace"],
        http_client=http_client,
        max_retries=0,
    )
    results = []
    for case in params["cases"]:
        captured.clear()
        runner = GymAgentTaskRunner(config=GymRuntimeConfig(**case["config"]))
        target = runner_to_target(runner).model_dump(mode="json")
        job = client.evaluator.submit(tasks=TasksetRef(case["tasks"]), target=runner)
        posts = [c for c in captured if c["method"] == "POST"]
        results.append({"target": target, "request": posts[0], "job_name": job.name})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
