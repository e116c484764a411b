"""Indirection the engine follows (issue 24, section 4): a client yielded by a
``@contextmanager`` function, ``getattr`` with a literal name, ``operator.methodcaller``,
star imports, dataclass defaults read in ``__post_init__``, class attributes overridden in
subclasses."""

from __future__ import annotations

from idiom_support import check


def test_a_client_yielded_by_a_context_manager() -> None:
    check("""
    import contextlib

    @contextlib.contextmanager
    def platform(workspace="qa"):
        nmp = NeMoPlatform(workspace=workspace)
        try:
            yield nmp
        finally:
            nmp.close()

    def nightly():
        with platform() as nmp:
            nmp.evaluator.submit(tasks=T, target=gym_runner, metric=em)  # expect: ES101

    def nightly_ok():
        with platform("nightly") as nmp:
            nmp.evaluator.submit(tasks=T, target=gym_runner)
    """)


def test_an_async_client_yielded_by_an_async_context_manager() -> None:
    check("""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def platform():
        async with AsyncNeMoPlatform(workspace="qa") as nmp:
            yield nmp

    async def nightly():
        async with platform() as nmp:
            await nmp.evaluator.submit(tasks=T, target=gym_runner)  # expect: ES103
    """)


def test_submit_passed_as_a_function_to_a_thread() -> None:
    """Issue 31: the synchronous taskset submit run from async code is checked like a call."""
    check("""
    import asyncio
    import functools
    from concurrent.futures import ThreadPoolExecutor

    class EvalService:
        def __init__(self):
            self.client = NeMoPlatform(workspace="qa")

        async def run_rows(self):
            return await asyncio.to_thread(
                self.client.evaluator.submit, metric=em, dataset=rows, target=gym_runner  # expect: ES105
            )

        async def run_tasks(self):
            return await asyncio.to_thread(
                self.client.evaluator.submit, tasks=T, target=gym_runner, config=RunConfig()  # expect: ES102
            )

        async def run_ok(self):
            return await asyncio.to_thread(self.client.evaluator.submit, tasks=T, target=gym_runner)

        async def run_in_loop(self):
            loop = asyncio.get_running_loop()
            send = functools.partial(self.client.evaluator.submit, tasks=T, target=42)  # expect: ES104
            return await loop.run_in_executor(None, send)

    def run_pool(client):
        with ThreadPoolExecutor(max_workers=2) as pool:
            bad = pool.submit(client.evaluator.submit, tasks=T, target="gym")  # expect: ES104
            good = pool.submit(client.evaluator.submit, tasks=T, target=gym_runner)
            return [bad.result(), good.result()]

    run_pool(client)
    """)


def test_getattr_with_a_literal_name() -> None:
    check("""
    def submit_with(client, method="submit"):
        send = getattr(client.evaluator, "submit")
        send(tasks=T, target=gym_runner, metric=em)  # expect: ES101
        return getattr(client.evaluator, method)(tasks=T, target=gym_runner)

    submit_with(client)
    """)


def test_operator_methodcaller() -> None:
    check("""
    import functools
    import operator

    send_smoke = operator.methodcaller(
        "submit", tasks=T, target=gym_runner, prompt_template="{{item.q}}"  # expect: ES102
    )
    send_ok = operator.methodcaller("submit", tasks=T, target=gym_runner)
    later = functools.partial(GymAgentTaskRunner, config=cfg)

    for workspace in ("qa", "staging"):
        nmp = NeMoPlatform(workspace=workspace)
        send_smoke(nmp.evaluator)
        send_ok(nmp.evaluator)
        client.evaluator.submit(tasks=T, target=later())
    """)


def test_operator_attrgetter() -> None:
    check("""
    import operator

    evaluator_of = operator.attrgetter("evaluator")
    submit_of = operator.attrgetter("evaluator.submit")
    evaluator_of(client).submit(tasks=T, target=gym_runner, metric=em)  # expect: ES101
    submit_of(client)(tasks=T, target=gym_runner)
    submit_of(client)(tasks=T, target=3)  # expect: ES104
    """)


def test_anyio_run_sync() -> None:
    check("""
    import functools

    import anyio

    async def nightly():
        send = functools.partial(client.evaluator.submit, tasks=T, target=gym_runner, config=RunConfig())  # expect: ES102
        await anyio.to_thread.run_sync(send)
        await anyio.to_thread.run_sync(functools.partial(client.evaluator.submit, tasks=T, target=gym_runner))
    """)
