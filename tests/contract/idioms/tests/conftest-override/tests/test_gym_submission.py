"""Uses the root runner fixture (Gym)."""


def test_submit(client, tasks, runner):
    client.evaluator.submit(tasks=tasks, target=runner)
