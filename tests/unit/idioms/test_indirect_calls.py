"""Calls made indirectly (issue 11, section 3)."""

from __future__ import annotations

from idiom_support import check, reported


def test_keyword_dicts_never_crash_and_are_checked() -> None:
    check("""
    kw = dict(tasks=TasksetRef("qa/smoke"), target=gym_runner)
    client.evaluator.submit(**kw)
    client.evaluator.submit(tasks=T, target=gym_runner, **{"prompt_template": "p"})  # expect: ES102
    literal = {"tasks": T, "target": harbor}  # expect: ES106
    client.evaluator.submit(**literal)
    built = {"tasks": T, "target": gym_runner}
    built["metric"] = em
    client.evaluator.submit(**built)  # expect: ES101
    row_kw = {}
    row_kw["config"] = RunConfig(parallelism=2)  # expect: ES102
    client.evaluator.submit(tasks=T, target=gym_runner, **row_kw)
    """)


def test_unknown_kwargs_make_the_shape_unknown() -> None:
    check("""
    import json

    extra = json.loads("{}")
    client.evaluator.submit(target=gym_runner, **extra)

    def forward(**options):
        return client.evaluator.submit(**options)
    """)


def test_aliases_and_partials() -> None:
    check("""
    import functools

    submit = client.evaluator.submit
    submit(target=gym_runner)  # expect: ES103

    nightly = functools.partial(client.evaluator.submit, tasks=TasksetRef("qa/nightly"))
    nightly(target=gym_runner)
    nightly(target=harbor)  # expect: ES106
    with_config = functools.partial(client.evaluator.submit, config=RunConfig())  # expect: ES102
    with_config(tasks=T, target=gym_runner)
    """)


def test_no_internal_error_on_odd_kwargs() -> None:
    # duplicate keys, non-string keys, nested splats: never an internal error
    assert (
        reported("""
    weird = {1: "x", "tasks": T}
    client.evaluator.submit(target=gym_runner, **weird)
    client.evaluator.submit(**{**{"tasks": T}, "target": gym_runner})
    client.evaluator.submit(**dict(**{"tasks": T}), target=gym_runner)
    """)
        == []
    )


def test_command_line_options_and_lambda_wrappers() -> None:
    check("""
    import argparse

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--taskset", default="qa/tb")
        args = parser.parse_args()
        client.evaluator.submit(tasks=TasksetRef(args.taskset), target=gym_runner)
        client.evaluator.submit(
            tasks=TasksetRef(args.taskset),
            target=gym_runner,
            config=RunConfig(parallelism=2),  # expect: ES102
        )

    submit_rows = lambda dataset: client.evaluator.submit(metric=em, dataset=dataset, target=gym_runner)  # expect: ES105
    submit_rows(rows)
    submit_rows(rows)
    """)
