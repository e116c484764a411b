"""typer CLI that carries the row-evaluation parallelism over to a taskset job."""

import typer
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

app = typer.Typer()


@app.command()
def submit(suite: str, parallelism: int = 8) -> None:
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    client.evaluator.submit(
        tasks=TasksetRef(suite),
        target=runner,
        config=RunConfig(parallelism=parallelism),  # expect: ES102
    )


if __name__ == "__main__":
    app(standalone_mode=False)
