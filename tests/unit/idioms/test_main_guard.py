"""``if __name__ == "__main__":`` (and ``!=``): the analysed file may be run as a script or
imported (by its tests, by another script), so both sides of the test are paths that run. A
module read because another imports it bears its dotted name: there the test is decided, its
guard's body does not run and its ``else`` does.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from idiom_support import check

from evalsubmit.analysis import Project, analyze_source


def test_the_else_of_a_main_guard_runs_on_import() -> None:
    check("""
    def main():
        return client.evaluator.submit(tasks=T, target=gym_runner)

    if __name__ == "__main__":
        main()
    else:
        client.evaluator.submit(tasks=T, target=cfg)  # expect: ES104
    """)


def test_code_after_a_main_guard_that_exits_runs_on_import() -> None:
    check("""
    import sys

    def main():
        return client.evaluator.submit(tasks=T, target=gym_runner)

    if __name__ == "__main__":
        sys.exit(main())

    client.evaluator.submit(tasks=T, target=7)  # expect: ES104

    if __name__ == "__main__":
        raise SystemExit(main())

    client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106
    """)


def test_the_else_of_a_negated_guard_runs_as_a_script() -> None:
    check("""
    if __name__ != "__main__":
        print("imported: nothing is submitted")
    else:
        client.evaluator.submit(tasks=T, target=cfg)  # expect: ES104
    """)


def test_findings_in_the_guard_and_in_the_functions_it_calls_stay() -> None:
    # what the guard binds is what the functions it calls read: imported, it is unbound
    check("""
    import sys

    def run():
        return client.evaluator.submit(tasks=T, target=chosen)  # expect: ES104

    def run_checked():
        return client.evaluator.submit(tasks=T, target=checked)  # expect: ES106

    if __name__ == "__main__":
        chosen = 42
        checked = harbor
        run()
        client.evaluator.submit(tasks=T, target=cfg)  # expect: ES104
        sys.exit(run_checked())
    """)


def test_a_guard_written_the_other_way_round() -> None:
    check("""
    import sys

    def run():
        return client.evaluator.submit(tasks=T, target=chosen)  # expect: ES104

    if "__main__" == __name__:
        chosen = 42
        sys.exit(run())

    client.evaluator.submit(tasks=T, target=7)  # expect: ES104
    """)


def test_a_name_both_sides_bind_differently_is_unknown_after_the_guard() -> None:
    check("""
    def run():
        return client.evaluator.submit(tasks=T, target=chosen)

    if __name__ == "__main__":
        chosen = 42
    else:
        chosen = gym_runner
    """)


def test_the_guard_of_an_imported_module_does_not_run_on_import(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "settings.py").write_text(
        textwrap.dedent("""
        from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

        CONFIG = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="mcqa")
        RUNNER = GymAgentTaskRunner(config=CONFIG)

        if __name__ == "__main__":
            RUNNER = 42  # tried by hand, run as a script only
            TARGET = GymAgentTaskRunner(config=CONFIG)
        else:
            TARGET = CONFIG
    """)
    )
    main = tmp_path / "main.py"
    main.write_text(
        textwrap.dedent("""
        from nemo_evaluator.api.schemas import TasksetRef
        from nemo_platform import NeMoPlatform

        from settings import RUNNER, TARGET

        client = NeMoPlatform(workspace="qa")
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=RUNNER)
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=TARGET)
    """).lstrip("\n")
    )
    report = analyze_source(main.read_text(), path=main, project=Project(tmp_path))
    assert [(f.span.line, f.code) for f in report.findings] == [(8, "ES104")]


def test_what_an_exiting_guard_changes_is_not_taken_from_the_import_run_alone() -> None:
    # Imported, `runner` stays None and SETTINGS unfilled, but nothing calls main() then: a
    # function body walked on its own must not report the import run's values as certain
    check("""
    import sys

    runner = None
    SETTINGS = {"target": None}

    def main():
        client.evaluator.submit(tasks=T, target=runner)
        return client.evaluator.submit(tasks=T, target=SETTINGS["target"])

    if __name__ == "__main__":
        runner = gym_runner
        SETTINGS["target"] = gym_runner
        sys.exit(main())
    """)
