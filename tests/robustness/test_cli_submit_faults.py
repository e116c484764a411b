"""``evalsubmit submit`` (the console script, in a subprocess) against a misbehaving platform on
127.0.0.1 (:mod:`.fault_server`): the editor's guarantees hold on the command line too. A lost
answer is looked up by the job's name, never posted twice; Ctrl-C during the POST lets it finish
and says the job exists; ``--wait`` on a job that completes exits 0.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import textwrap
from pathlib import Path

from .fault_server import FaultPlatform

EVALSUBMIT = Path(sys.executable).parent / "evalsubmit"
JOB = textwrap.dedent("""\
    from nemo_platform import NeMoPlatform
    from nemo_evaluator.api.schemas import TasksetRef
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    client = NeMoPlatform(workspace="ws")
    runner = GymAgentTaskRunner(config=GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"))
    client.evaluator.submit(tasks=TasksetRef("ws/smoke"), target=runner)
    """)
CALL_LINE = 7


async def start(tmp_path: Path, platform: FaultPlatform, *argv: str) -> asyncio.subprocess.Process:
    path = tmp_path / "job.py"
    path.write_text(JOB, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NMP_", "NEMO_PLATFORM_"))}
    return await asyncio.create_subprocess_exec(
        str(EVALSUBMIT),
        "submit",
        f"{path}:{CALL_LINE}",
        "--base-url",
        platform.base_url,
        "--output-format",
        "json",
        *argv,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**env, "HOME": str(tmp_path)},
    )


async def finish(proc: asyncio.subprocess.Process) -> tuple[int, dict[str, object], str]:
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, json.loads(out), err.decode()


async def test_a_lost_answer_is_looked_up_never_posted_again(tmp_path: Path) -> None:
    async with FaultPlatform("close-stored", tasksets=True) as platform:
        code, answer, err = await finish(await start(tmp_path, platform))
        assert code == 0, err
        assert answer["submitted"] is True and answer["name"] in platform.jobs
        assert platform.count("POST") == 1


async def test_an_answer_lost_for_good_is_an_unknown_outcome_not_a_second_job(
    tmp_path: Path,
) -> None:
    async with FaultPlatform("close-lost", tasksets=True) as platform:
        code, answer, err = await finish(await start(tmp_path, platform))
        assert code == 3, err
        assert answer["kind"] == "unknown_outcome"
        assert platform.count("POST") == 1


async def test_wait_on_a_job_that_completes_exits_zero(tmp_path: Path) -> None:
    async with FaultPlatform("ok", delay_s=0) as platform:
        proc = await start(tmp_path, platform, "--wait", "--poll-interval", "0.2")
        for _ in range(600):  # the job is stored (status active), then completes
            if platform.jobs:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        for job in platform.jobs.values():
            job["status"] = "completed"
        code, answer, err = await finish(proc)
        assert code == 0, err
        assert answer["status"] == "completed" and answer["submitted"] is True
        assert ": active: running" in err and ": completed" in err


async def test_ctrl_c_during_the_post_lets_it_finish_and_says_the_job_exists(
    tmp_path: Path,
) -> None:
    async with FaultPlatform("ok", delay_s=3.0) as platform:  # the POST's answer takes 3 s
        proc = await start(tmp_path, platform, "--wait")
        for _ in range(600):
            if platform.count("POST"):
                break
            await asyncio.sleep(0.1)
        assert platform.count("POST") == 1
        proc.send_signal(signal.SIGINT)
        code, answer, err = await finish(proc)
        assert code == 130, err
        name = str(answer["name"])
        assert answer["interrupted"] is True and name in platform.jobs
        assert f"job {name} had already been submitted" in err and "/cancel" in err
        assert platform.count("POST") == 1
        assert platform.jobs[name]["status"] == "active"  # never cancelled by the CLI


async def test_a_platform_that_does_not_answer_in_time_is_one_message_naming_the_option(
    tmp_path: Path,
) -> None:
    async with FaultPlatform("slow-all", delay_s=5.0, tasksets=True) as platform:
        code, answer, err = await finish(await start(tmp_path, platform, "--timeout", "0.5"))
        assert code == 3, err
        assert answer["kind"] == "timeout"
        assert "did not answer in time (0.5 s for the whole request)" in err
        assert "On the command line: --timeout S." in err
        assert platform.count("POST") == 0  # the taskset lookup timed out: nothing was sent
