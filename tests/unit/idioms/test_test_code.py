"""Test code (issue 11, section 5): fixtures, parametrize, unittest, expected refusals."""

from __future__ import annotations

import textwrap
from pathlib import Path

from idiom_support import check

from evalsubmit.analysis import Project, analyze_source


def test_fixtures_in_the_same_file_return_and_yield() -> None:
    check("""
    import pytest

    @pytest.fixture
    def evaluator_client():
        return NeMoPlatform(workspace="qa")

    @pytest.fixture
    def runner():
        built = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
        yield built

    @pytest.fixture(name="gym")
    def _gym():
        return gym_runner

    def test_harbor_is_refused(evaluator_client, runner):
        with pytest.raises(TypeError):
            evaluator_client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    def test_gym_with_a_row_option(evaluator_client, gym):
        evaluator_client.evaluator.submit(tasks=T, target=gym, config=RunConfig())  # expect: ES102

    def test_unknown_fixture(tmp_path, monkeypatch, evaluator_client, something_else):
        evaluator_client.evaluator.submit(tasks=T, target=something_else)
    """)


def test_parametrize_cases_are_checked_one_by_one() -> None:
    check("""
    import pytest

    @pytest.mark.parametrize(
        "suite",
        [
            "qa/smoke",
            "qa team/smoke",  # expect: ES108
            pytest.param("org/qa/smoke", id="two-slashes"),  # expect: ES108
        ],
    )
    def test_suites(suite):
        client.evaluator.submit(tasks=suite, target=gym_runner)

    @pytest.mark.parametrize("runner, expected", [(gym_runner, "ok"), (harbor, "refused")])
    def test_runners(runner, expected):
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    @pytest.mark.parametrize("runner", [harbor], indirect=True)
    def test_indirect(runner):
        client.evaluator.submit(tasks=T, target=runner)
    """)


def test_an_indirect_parameter_is_its_fixtures_request_param() -> None:
    """``indirect=True`` (or a list naming the parameter) hands each case's value to the
    fixture as ``request.param``: the fixture is evaluated per case, its other fixtures as
    usual; a direct parameter of the same decorator is bound to the test as always."""
    check("""
    import pytest

    @pytest.fixture
    def client():
        return NeMoPlatform(workspace="qa")

    @pytest.fixture
    def runner(request):
        if request.param == "gym":
            return GymAgentTaskRunner(config=cfg)
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    @pytest.fixture
    def suite(request, client):
        return request.param.upper()  # expect: ES108

    @pytest.mark.parametrize("runner", ["gym", "harbor"], indirect=True)
    def test_nightly(client, runner):
        client.evaluator.submit(tasks=T,
                                target=runner)  # expect: ES106

    @pytest.mark.parametrize(
        "suite, runner", [("qa/smoke", "gym"), ("qa/two/slashes", "gym")], indirect=["suite"]
    )
    def test_suites(client, suite, runner):
        client.evaluator.submit(tasks=TasksetRef(suite), target=gym_runner)
        assert runner == "gym"
    """)


def test_an_indirect_parameter_not_known_leaves_the_test_walked_once() -> None:
    """``indirect=`` not a literal, or naming a fixture that is not found: the test is walked
    once, its fixtures evaluated with ``request.param`` unknown (silent)."""
    check("""
    import pytest

    INDIRECT = True

    @pytest.fixture
    def runner(request):
        if request.param == "gym":
            return GymAgentTaskRunner(config=cfg)
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    @pytest.mark.parametrize("runner", ["gym", "harbor"], indirect=INDIRECT)
    def test_named(runner):
        client.evaluator.submit(tasks=T, target=runner)

    @pytest.mark.parametrize("runner, other", [("harbor", 1)], indirect=True)
    def test_missing_fixture(runner, other):
        client.evaluator.submit(tasks=T, target=runner)
    """)


def test_parametrize_findings_are_named_like_pytest_names_the_case() -> None:
    source = textwrap.dedent("""
    import pytest
    from nemo_platform import NeMoPlatform
    from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import HarborAgentTaskRunner

    client = NeMoPlatform()

    @pytest.mark.parametrize("runner", [pytest.param(HarborAgentTaskRunner(), id="harbor")])
    def test_submit(runner):
        client.evaluator.submit(tasks="qa/smoke", target=runner)
    """)
    report = analyze_source(source, path=Path("test_x.py"), project=Project())
    (finding,) = report.findings
    assert finding.code == "ES106"
    # a single case covers every case: reported plainly
    assert "test_submit[" not in finding.message


def test_fixtures_from_conftest_in_a_parent_folder(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    tests = tmp_path / "tests" / "integration"
    tests.mkdir(parents=True)
    (tmp_path / "tests" / "conftest.py").write_text(
        textwrap.dedent("""
        import pytest
        from nemo_platform import NeMoPlatform
        from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import HarborAgentTaskRunner

        @pytest.fixture
        def client():
            return NeMoPlatform(workspace="qa")

        @pytest.fixture
        def runner():
            yield HarborAgentTaskRunner()
    """)
    )
    test = tests / "test_nightly.py"
    test.write_text(
        textwrap.dedent("""
        from nemo_evaluator.api.schemas import TasksetRef

        def test_nightly(client, runner):
            client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=runner)
    """)
    )
    report = analyze_source(test.read_text(), path=test, project=Project(tmp_path))
    assert [(f.span.line, f.code) for f in report.findings] == [(5, "ES106")]
    assert (tmp_path / "tests" / "conftest.py").resolve() in report.dependencies


def test_nothing_fires_on_a_fixture_or_parameter_declaration() -> None:
    check("""
    import pytest

    @pytest.fixture
    def refused_runner():
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

    @pytest.mark.parametrize("runner", [harbor])
    def test_runs_locally(runner):
        AgentEvaluator().run(tasks=[], target=runner)
    """)


def test_parametrize_cases_a_mark_surely_skips_never_run() -> None:
    """``pytest.param(..., marks=...)`` with ``skip`` (bare, called, through a name, in a list)
    or a ``skipif`` whose condition is surely true: the case never runs. A ``skipif`` decided
    at run time (a string pytest evaluates, an unknown condition) may run: still checked."""
    check("""
    import sys
    import pytest

    PENDING = pytest.mark.skip(reason="not submittable yet")

    @pytest.mark.parametrize(
        "runner",
        [
            gym_runner,
            pytest.param(harbor, marks=pytest.mark.skip),
            pytest.param(harbor, marks=PENDING),
            pytest.param(harbor, marks=[pytest.mark.slow, PENDING]),
            pytest.param(harbor, marks=pytest.mark.skipif(True, reason="later")),
        ],
    )
    def test_runners(runner):
        client.evaluator.submit(tasks=T, target=runner)

    @pytest.mark.parametrize("runner", [pytest.param(harbor, marks=PENDING)])
    def test_only_skipped(runner):
        client.evaluator.submit(tasks=T, target=runner, metric=em)

    @pytest.mark.parametrize(
        "runner",
        [pytest.param(harbor, marks=pytest.mark.skipif(sys.platform == "win32", reason="x"))],
    )
    def test_maybe_skipped(runner):
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    @pytest.mark.parametrize(
        "runner", [pytest.param(harbor, marks=pytest.mark.skipif("'NMP_URL' not in os.environ"))]
    )
    def test_skipped_by_a_string_condition(runner):
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
    """)


def test_tests_a_mark_surely_skips_never_run() -> None:
    """A test marked ``skip`` (bare, called, through a name), ``skipif`` with a condition
    surely true, on the function, its class (decorator or ``pytestmark``) or the module's
    ``pytestmark``: pytest never runs its body, as a skipped parametrize case. A mark that
    is no skip, or a condition decided at run time, leaves the test checked."""
    check("""
    import sys
    import pytest

    PENDING = pytest.mark.skip(reason="not submittable yet")

    @pytest.mark.skip
    def test_bare():
        client.evaluator.submit(tasks=T, target=harbor)

    @pytest.mark.skip(reason="later")
    def test_called():
        client.evaluator.submit(tasks=T, target=harbor)

    @PENDING
    def test_named():
        client.evaluator.submit(tasks=T, target=harbor)

    @pytest.mark.skipif(True, reason="later")
    def test_surely_true():
        client.evaluator.submit(tasks=T, target=harbor)

    @pytest.mark.skip
    class TestSkippedClass:
        def test_in_it(self):
            client.evaluator.submit(tasks=T, target=harbor)

    class TestPytestmark:
        pytestmark = [pytest.mark.slow, PENDING]

        def test_in_it(self):
            client.evaluator.submit(tasks=T, target=harbor)

    @pytest.mark.slow
    def test_other_mark():
        client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106

    @pytest.mark.skipif(sys.platform == "win32", reason="x")
    def test_maybe_skipped():
        client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106

    @pytest.mark.skipif("sys.platform == 'win32'")
    def test_string_condition():
        client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106

    class TestRuns:
        pytestmark = pytest.mark.skipif(False, reason="never")

        def test_in_it(self):
            client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106
    """)
    check("""
    import pytest

    pytestmark = pytest.mark.skip(reason="the whole module waits")

    def test_in_module():
        client.evaluator.submit(tasks=T, target=harbor)
    """)


def test_tests_unittest_surely_skips_never_run() -> None:
    """``unittest.skip`` (on the method or its ``TestCase``), ``skipIf`` with a condition
    surely true, ``skipUnless`` with one surely false: the test never runs (idiom
    ``tests/ok-unittest-skip-decorators``). A condition decided at run time leaves it checked."""
    check("""
    import os
    import unittest
    from unittest import skipUnless

    class JobTests(unittest.TestCase):
        @unittest.skip("later")
        def test_skipped(self):
            client.evaluator.submit(tasks=T, target=harbor)

        @unittest.skipIf(True, "later")
        def test_skipped_if(self):
            client.evaluator.submit(tasks=T, target=harbor)

        @skipUnless(False, "later")
        def test_skipped_unless(self):
            client.evaluator.submit(tasks=T, target=harbor)

        @unittest.skipIf(False, "never")
        def test_runs(self):
            client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106

        @unittest.skipUnless(os.environ.get("NMP_URL"), "needs a platform")
        def test_maybe(self):
            client.evaluator.submit(tasks=T, target=harbor)  # expect: ES106

    @unittest.skip("the class waits")
    class Pending(unittest.TestCase):
        def test_in_it(self):
            client.evaluator.submit(tasks=T, target=harbor)
    """)
