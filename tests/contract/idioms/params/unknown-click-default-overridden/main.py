"""click CLI: defaults are placeholders the release pipeline always overrides."""

import click
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@click.command()
@click.option("--suite", default="", help="workspace/taskset")
@click.option("--concurrency", type=int, default=0)
@click.option("--agent", default="simple_agent")
def submit(suite, concurrency, agent):
    config = GymRuntimeConfig(
        agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa", concurrency=concurrency
    )
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    job = client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=config))
    click.echo(job)


if __name__ == "__main__":
    submit(standalone_mode=False)
