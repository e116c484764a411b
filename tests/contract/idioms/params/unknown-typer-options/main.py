"""typer CLI: the suite is an argument, the repeat count an option with a placeholder default."""

import typer
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

app = typer.Typer()


@app.command()
def submit(suite: str, repeats: int = 0, agent: str = "simple_agent") -> None:
    config = GymRuntimeConfig(
        agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa", num_repeats=repeats
    )
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    print(client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=config)))


if __name__ == "__main__":
    app(standalone_mode=False)
