"""Where a coroutine's body runs (``interp/coroutines.py``): where it is awaited, given to
``asyncio.run`` or ``run_until_complete``, or gathered by an awaited ``gather``; nowhere else."""

from __future__ import annotations

from idiom_support import check


def test_an_awaited_helper_is_walked_with_its_arguments_and_gives_what_it_returned() -> None:
    check("""
    import asyncio

    async def make_runner():
        return gym_runner

    async def score(client, rows, target):
        return client.evaluator.submit(metric=em, dataset=rows, target=target)

    async def main():
        runner = await make_runner()
        await score(client, [{"q": 1}], runner)  # expect: ES105

    asyncio.run(main())
    """)


def test_a_coroutine_nothing_runs_is_not_walked() -> None:
    check("""
    import asyncio

    async def score(client, target):
        return client.evaluator.submit(metric=em, dataset=[{"q": 1}], target=target)

    pending = score(client, gym_runner)
    task_made = [score(client, gym_runner) for _ in range(2)]
    not_awaited = asyncio.gather(score(client, gym_runner))
    pending.close()
    """)


def test_gathered_coroutines_run_when_the_gather_is_awaited() -> None:
    check("""
    import asyncio

    async def score(client, target):
        return client.evaluator.submit(metric=em, dataset=[{"q": 1}], target=target)

    async def main():
        return await asyncio.gather(*[score(client, t) for t in (gym_runner,)])  # expect: ES105

    asyncio.new_event_loop().run_until_complete(main())
    """)


def test_an_async_generator_is_never_awaited_as_a_call() -> None:
    check("""
    async def rows(client, target):
        yield client.evaluator.submit(metric=em, dataset=[{"q": 1}], target=target)

    async def main():
        await rows(client, gym_runner)
    """)
