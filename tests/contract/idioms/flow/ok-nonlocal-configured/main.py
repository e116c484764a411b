"""main() keeps its settings in locals that a nested helper sets through nonlocal."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def main():
    workers = 0
    suite = ""

    def configure(n, name):
        nonlocal workers, suite
        workers = n
        suite = name

    def make_builder(agent):
        def build():
            return GymRuntimeConfig(
                agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa", concurrency=workers
            )

        return build

    configure(8, "qa/nightly")
    config = GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=workers
    )
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=config))
    client.evaluator.submit(
        tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=make_builder("react_agent")())
    )


main()
