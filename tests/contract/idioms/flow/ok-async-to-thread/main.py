"""An async service runs the synchronous taskset submit in a thread pool, correctly."""

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


async def submit_all(suites):
    loop = asyncio.get_running_loop()
    jobs = [asyncio.to_thread(client.evaluator.submit, tasks=TasksetRef(s), target=runner) for s in suites]
    send = functools.partial(client.evaluator.submit, tasks=TasksetRef("qa/smoke"), target=runner)
    jobs.append(loop.run_in_executor(None, send))
    return await asyncio.gather(*jobs)


asyncio.run(submit_all(["qa/nightly", "qa/weekly"]))
with ThreadPoolExecutor(max_workers=2) as pool:
    pool.submit(client.evaluator.submit, tasks=TasksetRef("qa/smoke"), target=runner).result()
