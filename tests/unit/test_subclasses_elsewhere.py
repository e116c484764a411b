"""A base class's placeholders (``SUITE = ""``, ``REPEATS = 0``) that subclasses in other
files of the project set are not what its methods see on a generic ``self``: the base in
``jobs/base.py``, the concrete jobs in ``jobs/teams/*.py`` (idiom
``objects/ok-base-placeholders-other-module``). A placeholder no subclass sets stays known and
reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import AnalysisOptions, DocumentAnalyzer, Project, analyze_source
from evalsubmit.analysis.interp import subclass_text
from evalsubmit.analysis.interp.module_stores import ModuleStores
from evalsubmit.cli import main

BASE = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


class BaseJob:
    SUITE = ""  # set by each job
    REPEATS = 0  # set by each job

    def runner(self):
        config = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            num_repeats=self.REPEATS,
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, client):
        return client.evaluator.submit(tasks=TasksetRef(self.SUITE), target=self.runner())
"""
NIGHTLY = """\
from jobs.base import BaseJob


class NightlyJob(BaseJob):
    SUITE = "qa/nightly"
    REPEATS = 3
"""
SMOKE = """\
from jobs.base import BaseJob


class SmokeJob(BaseJob):
{body}
"""
EMPTY_SUITE = "malformed taskset reference ''"
ZERO_REPEATS = "`num_repeats` must be ≥ 1, got 0"


def _project(root: Path, teams: dict[str, str]) -> Path:
    (root / "jobs" / "teams").mkdir(parents=True)
    (root / "jobs" / "__init__.py").write_text("")
    (root / "jobs" / "teams" / "__init__.py").write_text("")
    (root / "jobs" / "base.py").write_text(BASE)
    for name, text in teams.items():
        (root / "jobs" / "teams" / f"{name}.py").write_text(text)
    return root / "jobs" / "base.py"


def _messages(path: Path, project: Project) -> list[str]:
    report = analyze_source(path.read_text(), path=path, project=project)
    assert report.skipped is None, report.skipped
    assert not report.internal_errors, report.internal_errors
    return sorted(f.message.split(";")[0] for f in report.findings)


def _reported(messages: list[str]) -> set[str]:
    return {m for m in (EMPTY_SUITE, ZERO_REPEATS) if any(m in found for found in messages)}


def test_placeholders_every_subclass_elsewhere_sets_are_not_trusted(tmp_path: Path) -> None:
    base = _project(tmp_path, {"nightly": NIGHTLY, "smoke": SMOKE.format(body="    pass")})
    assert _messages(base, Project(tmp_path)) == []


def test_placeholders_no_subclass_sets_stay_reported(tmp_path: Path) -> None:
    """The true positive: the only subclass elsewhere sets nothing."""
    base = _project(tmp_path, {"smoke": SMOKE.format(body="    pass")})
    assert _reported(_messages(base, Project(tmp_path))) == {EMPTY_SUITE, ZERO_REPEATS}


def test_only_the_members_a_subclass_sets_are_not_trusted(tmp_path: Path) -> None:
    smoke = SMOKE.format(body='    SUITE = "qa/smoke"\n\n    def describe(self):\n        pass')
    base = _project(tmp_path, {"smoke": smoke})
    assert _reported(_messages(base, Project(tmp_path))) == {ZERO_REPEATS}


@pytest.mark.parametrize(
    "smoke",
    [
        # stored on self by the subclass's own __init__
        SMOKE.format(body="    def __init__(self):\n        self.REPEATS = 1"),
        # a property of the subclass
        SMOKE.format(body="    @property\n    def REPEATS(self):\n        return 1"),
        # an alias of the base
        "from jobs.base import BaseJob as Job\n\n\nclass SmokeJob(Job):\n    REPEATS = 1\n",
        "from jobs import base\n\nJob = base.BaseJob\n\n\nclass SmokeJob(Job):\n    REPEATS = 1\n",
        # the module spelled in the base
        "import jobs.base\n\n\nclass SmokeJob(jobs.base.BaseJob):\n    REPEATS = 1\n",
        # a subclass of a subclass in the same file, defined before its base
        "from jobs.base import BaseJob\n\n\nclass Quick(Smoke):\n    REPEATS = 1\n\n\n"
        "class Smoke(BaseJob):\n    pass\n",
        # nested in a function, under a condition
        "from jobs.base import BaseJob\n\nif True:\n    def make():\n"
        "        class SmokeJob(BaseJob):\n            REPEATS = 1\n        return SmokeJob\n",
        # a file that does not parse: every word of it may be a member
        "from jobs.base import BaseJob\n\n\nclass SmokeJob(BaseJob):\n    REPEATS = 1\n    def (\n",
    ],
)
def test_shapes_of_subclasses_elsewhere(tmp_path: Path, smoke: str) -> None:
    base = _project(tmp_path, {"smoke": smoke})
    assert _reported(_messages(base, Project(tmp_path))) == {EMPTY_SUITE}


def test_a_subclass_of_a_subclass_in_a_third_file_counts(tmp_path: Path) -> None:
    """``special.py`` imports only ``nightly``: followed from NightlyJob's file."""
    nightly = 'from jobs.base import BaseJob\n\n\nclass NightlyJob(BaseJob):\n    SUITE = "q/n"\n'
    special = (
        "from jobs.teams.nightly import NightlyJob\n\n\n"
        "class SpecialJob(NightlyJob):\n    REPEATS = 2\n"
    )
    base = _project(tmp_path, {"nightly": nightly, "special": special})
    assert _messages(base, Project(tmp_path)) == []
    (tmp_path / "jobs" / "teams" / "special.py").write_text(special.replace("REPEATS", "OTHER"))
    assert _reported(_messages(base, Project(tmp_path))) == {ZERO_REPEATS}


@pytest.mark.parametrize(
    "common", ["from jobs.base import BaseJob as BaseJob\n", "from jobs.base import *\n"]
)
def test_a_subclass_of_a_re_exported_base_counts(tmp_path: Path, common: str) -> None:
    """``common.py`` re-exports the base; ``team.py`` subclasses it through ``common``
    without naming ``jobs`` or ``base``."""
    base = _project(tmp_path, {})
    (tmp_path / "common.py").write_text(common)
    team = tmp_path / "team.py"
    team.write_text("import common\n\n\nclass TeamJob(common.BaseJob):\n    REPEATS = 4\n")
    assert _reported(_messages(base, Project(tmp_path))) == {EMPTY_SUITE}
    team.write_text("import common\n\n\nclass TeamJob(common.Other):\n    REPEATS = 4\n")
    assert _reported(_messages(base, Project(tmp_path))) == {EMPTY_SUITE, ZERO_REPEATS}


@pytest.mark.parametrize(
    "unrelated",
    [
        # another class defines the member, in a file importing the base
        "from jobs.base import BaseJob\n\n\nclass Report:\n    REPEATS = 1\n    SUITE = 'x'\n",
        # a subclass of another class, its base spelled like an attribute of the module
        "from jobs import base\n\n\nclass Other(base.Runner):\n    REPEATS = 1\n",
        # a file that names the class but does not import the module
        "class Unrelated(BaseJob):\n    REPEATS = 1\n",
    ],
)
def test_what_is_not_a_subclass_elsewhere_keeps_the_finding(tmp_path: Path, unrelated: str) -> None:
    base = _project(tmp_path, {"smoke": SMOKE.format(body="    pass"), "other": unrelated})
    assert _reported(_messages(base, Project(tmp_path))) == {EMPTY_SUITE, ZERO_REPEATS}


def test_a_class_of_the_same_name_in_an_unrelated_module_counts(tmp_path: Path) -> None:
    """Matched by name, not resolved: a subclass of another module's ``BaseJob`` in a file
    importing a module named ``base`` may be one of this base (more unknown, never less)."""
    base = _project(tmp_path, {"smoke": SMOKE.format(body="    pass")})
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "base.py").write_text("class BaseJob:\n    REPEATS = 5\n")
    (tmp_path / "other" / "custom.py").write_text(
        "from other.base import BaseJob\n\n\nclass Custom(BaseJob):\n    REPEATS = 6\n"
    )
    assert _reported(_messages(base, Project(tmp_path))) == {EMPTY_SUITE}


def test_past_the_bound_any_member_is_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chain = {
        f"level{i}": f"from jobs.teams.level{i - 1} import Job{i - 1}\n\n\n"
        f"class Job{i}(Job{i - 1}):\n    pass\n"
        for i in range(1, 4)
    }
    chain["level0"] = "from jobs.base import BaseJob\n\n\nclass Job0(BaseJob):\n    pass\n"
    base = _project(tmp_path, chain)
    assert _reported(_messages(base, Project(tmp_path))) == {EMPTY_SUITE, ZERO_REPEATS}
    monkeypatch.setattr(subclass_text, "MAX_FOLLOWED", 3)
    assert _messages(base, Project(tmp_path)) == []


def test_the_files_looked_at_are_dependencies_only_when_a_member_read_needs_them(
    tmp_path: Path,
) -> None:
    base = _project(tmp_path, {"nightly": NIGHTLY, "smoke": SMOKE.format(body="    pass")})
    project = Project(tmp_path)
    report = analyze_source(base.read_text(), path=base, project=project)
    teams = tmp_path / "jobs" / "teams"
    assert {teams / "nightly.py", teams / "smoke.py"} <= set(report.dependencies)
    reads_nothing_defined = (
        "class BaseJob:\n    SUITE = ''\n\n    def submit(self, client):\n"
        "        return client.evaluator.submit(tasks=self.tasks, target=self.target)\n"
    )
    report = analyze_source(reads_nothing_defined, path=base, project=project)
    assert report.skipped is None, report.skipped  # analysed: no dependency is no skip
    assert not {teams / "nightly.py", teams / "smoke.py"} & set(report.dependencies)


def test_a_subclass_in_an_editor_buffer_counts(tmp_path: Path) -> None:
    base = _project(tmp_path, {"smoke": SMOKE.format(body="    pass")})
    project = Project(tmp_path)
    assert _reported(_messages(base, project)) == {EMPTY_SUITE, ZERO_REPEATS}
    smoke = tmp_path / "jobs" / "teams" / "smoke.py"
    project.set_overlay(smoke, SMOKE.format(body="    REPEATS = 1"))  # unsaved
    assert _reported(_messages(base, project)) == {EMPTY_SUITE}


def test_an_override_a_subclass_file_gains_or_loses_is_a_result_cache_miss(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI's cached result of base.py does not outlive an edit of a subclass's file (the
    texts of the files that may import the base are observations of the analysis)."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'jobs'\n")
    base = _project(root, {"smoke": SMOKE.format(body="    pass")})
    smoke = root / "jobs" / "teams" / "smoke.py"
    assert main(["check", str(base)]) == 1 and ZERO_REPEATS in capsys.readouterr().out
    smoke.write_text(SMOKE.format(body='    SUITE = "qa/smoke"\n    REPEATS = 1'))
    assert main(["check", str(base)]) == 0
    capsys.readouterr()
    smoke.write_text(SMOKE.format(body='    SUITE = "qa/smoke"'))
    assert main(["check", str(base)]) == 1 and ZERO_REPEATS in capsys.readouterr().out


UNRELATED = "import os\n\n\nclass Tool:\n    PATH = os.sep\n"
"""A file that does not reach jobs.base: never looked at for its subclasses."""
OVERRIDING = "from jobs.base import BaseJob\n\n\nclass Tool(BaseJob):\n    REPEATS = 2\n"


def test_a_file_that_did_not_import_the_base_gaining_a_subclass_is_a_result_cache_miss(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its text was no observation of base.py's analysis, but the question which members
    subclasses elsewhere define is: asked again when the cached result is consulted."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'jobs'\n")
    base = _project(root, {"smoke": SMOKE.format(body='    SUITE = "qa/smoke"')})
    tool = root / "tool.py"
    tool.write_text(UNRELATED)
    assert main(["check", str(base)]) == 1 and ZERO_REPEATS in capsys.readouterr().out
    tool.write_text(OVERRIDING)
    assert main(["check", str(base)]) == 0
    capsys.readouterr()
    tool.write_text(UNRELATED)
    assert main(["check", str(base)]) == 1 and ZERO_REPEATS in capsys.readouterr().out


@pytest.mark.parametrize("where", ["buffer", "disk"])
def test_a_file_that_did_not_import_the_base_gaining_a_subclass_in_the_editor(
    tmp_path: Path, where: str
) -> None:
    """The editor's cached results of base.py rest on the answer, asked again before they
    are reused: incremental and fresh analyses agree after each edit."""
    base = _project(tmp_path, {"smoke": SMOKE.format(body='    SUITE = "qa/smoke"')}).resolve()
    tool = (tmp_path / "tool.py").resolve()
    tool.write_text(UNRELATED)
    project = Project(tmp_path)
    project.watched = True
    analyzer = DocumentAnalyzer(base, project, AnalysisOptions())
    text = base.read_text()
    project.set_overlay(base, text)

    def both() -> tuple[set[str], set[str]]:
        incremental = analyzer.analyze(text, reverse=False)
        fresh = Project(
            tmp_path, {path: project.read_unobserved(path) or "" for path in project.overlaid()}
        )
        again = analyze_source(text, path=base, project=fresh, reverse=False)
        found = [sorted(f.message for f in r.findings) for r in (incremental, again)]
        return _reported(found[0]), _reported(found[1])

    assert both() == ({ZERO_REPEATS}, {ZERO_REPEATS})
    for edit in (OVERRIDING, UNRELATED, OVERRIDING):
        if where == "buffer":
            project.set_overlay(tool, edit)
        else:
            tool.write_text(edit)
            project.files_changed()
        expected = set() if edit == OVERRIDING else {ZERO_REPEATS}
        assert both() == (expected, expected), edit


ANNOTATED = """\
from nemo_evaluator.api.schemas import TasksetRef

from jobs.base import BaseJob


def run(job: BaseJob, client, runner):
    return client.evaluator.submit(tasks=TasksetRef(job.SUITE), target=runner)
"""


@pytest.mark.parametrize(
    ("smoke_body", "reported"), [("    pass", True), ('    SUITE = "x"', False)]
)
def test_a_parameter_annotated_with_a_base_of_another_module(
    tmp_path: Path, smoke_body: str, reported: bool
) -> None:
    """``job: BaseJob`` may be any subclass: one in a third file setting the placeholder."""
    _project(tmp_path, {"smoke": SMOKE.format(body=smoke_body)})
    main = tmp_path / "main.py"
    main.write_text(ANNOTATED)
    assert bool(_reported(_messages(main, Project(tmp_path)))) is reported


def test_a_class_outside_the_project_may_have_any_member_redefined(tmp_path: Path) -> None:
    project = Project(tmp_path / "project")
    (tmp_path / "project").mkdir()
    (tmp_path / "installed.py").write_text("class Base:\n    X = 1\n")
    subclasses = subclass_text.ProjectSubclasses(project, ModuleStores(project))
    assert subclasses.members("Base", tmp_path / "installed.py", None, set()) is None
    inside = tmp_path / "project" / "own.py"
    inside.write_text("class Base:\n    X = 1\n")
    assert subclasses.members("Base", inside, None, set()) == frozenset()


def test_a_kept_answer_is_asked_again_when_the_analysed_module_subclasses_a_followed_class(
    tmp_path: Path,
) -> None:
    """The analysed module is not searched for subclasses of the class asked about (its own
    analysis finds those), but it is for a subclass found elsewhere: ``class Tuned(Nightly)``
    typed into it defines a member the kept answer did not have."""
    from evalsubmit.analysis.interp import questions
    from evalsubmit.analysis.report import SubclassQuestion

    (tmp_path / "jobs").mkdir()
    base = tmp_path / "jobs" / "base.py"
    base.write_text("class BaseJob:\n    SUITE = ''\n")
    (tmp_path / "jobs" / "nightly.py").write_text(
        "from jobs.base import BaseJob\n\n\nclass Nightly(BaseJob):\n    pass\n"
    )
    project = Project(tmp_path)
    project.set_overlay(base, base.read_text())
    asking = questions.of(project)
    question = SubclassQuestion(base, "BaseJob", base)
    first = asking.subclass_answer(question)
    assert first.members == frozenset()
    assert asking.answers_the_same({question: first})  # kept, with what it rests on
    project.set_overlay(
        base,
        "from jobs.nightly import Nightly\n\n\nclass BaseJob:\n    SUITE = ''\n\n\n"
        "class Tuned(Nightly):\n    SUITE = 'qa/tuned'\n",
    )
    assert asking.subclass_answer(question).members == {"SUITE"}
    assert not asking.answers_the_same({question: first})
