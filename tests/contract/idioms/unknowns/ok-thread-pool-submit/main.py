"""Fan-out CLI: submits every suite of the release from a thread pool."""

from concurrent.futures import ThreadPoolExecutor, as_completed

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITES = ["qa/smoke", "qa/regression", "qa/tools#v2"]
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
with ThreadPoolExecutor(max_workers=4) as pool:
    futures = {
        pool.submit(client.evaluator.submit, tasks=TasksetRef(name), target=RUNNER): name
        for name in SUITES
    }
    for future in as_completed(futures):
        print(futures[future], future.result())
