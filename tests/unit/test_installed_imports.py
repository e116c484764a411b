"""Imports from installed packages that are not the SDK (a team's helper package), resolved by
reading their source in the user's environment (interp/modules.py), never importing it.

Values from an installed module flow like a sibling module's; findings are never placed in an
installed file outside the workspace; what cannot be read stays silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.analysis.interp import modules
from fake_env import JOB, FakeEnv, source

HEAD = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
client = NeMoPlatform(workspace="qa")
"""


def check(
    env: FakeEnv, tmp_path: Path, body: str, *, files: dict[str, str] | None = None
) -> list[tuple[int, str]]:
    """Findings of ``HEAD + body`` (lines counted from the body's first line)."""
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    for name, text in (files or {}).items():
        (ws / name).write_text(source(text))
    job = ws / "job.py"
    text = HEAD + source(body)
    job.write_text(text)
    report = analyze_source(text, path=job, project=Project(ws, python=env.python))
    offset = HEAD.count("\n")
    assert env.fired() == []
    return sorted((f.span.line - offset, f.code) for f in report.findings if f.code != "ES111")


@pytest.mark.parametrize(
    "body",
    [
        # a normal install, from-import of a function of a submodule
        """
        from teamlib.runners import make_runner
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=make_runner())
        """,
        # re-exported by the package's __init__ (a relative import inside the package)
        """
        from teamlib import make_runner
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=make_runner())
        """,
        # attributes of an imported module
        """
        import teamlib.runners
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=teamlib.runners.make_runner())
        """,
        # an editable install behind setuptools' __editable__ finder
        """
        import teamedit as team
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=team.make_runner())
        """,
        # an editable src-layout install (a path line of a .pth file)
        """
        from teamsrc.runners import make_runner as build
        runner = build()
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
        """,
    ],
)
def test_a_runner_built_by_an_installed_package_is_followed(
    installed_env: FakeEnv, tmp_path: Path, body: str
) -> None:
    line = source(body).count("\n")  # the submit() is the body's last line
    assert check(installed_env, tmp_path, body) == [(line, "ES106")]


def test_the_project_report_depends_on_the_installed_module(
    installed_env: FakeEnv, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    report = analyze_source(
        JOB, path=ws / "job.py", project=Project(ws, python=installed_env.python)
    )
    assert [(f.span.line, f.code) for f in report.findings if f.code != "ES111"] == [(6, "ES106")]
    assert installed_env.site / "teamlib" / "runners.py" in report.dependencies


def test_a_bad_value_written_in_an_installed_package_is_reported_at_the_call(
    installed_env: FakeEnv, tmp_path: Path
) -> None:
    """ES107 places a finding where the value is written, but never in an installed file: it
    goes to ``target=`` here, naming where it was written."""
    ws = tmp_path / "ws"
    ws.mkdir()
    text = HEAD + source(
        """
        from teamlib import gym_runner
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym_runner("a"))
        """
    )
    report = analyze_source(
        text, path=ws / "job.py", project=Project(ws, python=installed_env.python)
    )
    es107 = [f for f in report.findings if f.code == "ES107"]
    assert len(es107) == 1 and es107[0].span.line == 5
    assert "written in runners.py" in es107[0].message and "sent as []" in es107[0].message
    assert report.remote_findings == ()


def test_an_editable_package_inside_the_workspace_gets_its_findings(
    installed_env: FakeEnv,
) -> None:
    """The editable source folder is the workspace here: findings may go there."""
    ws = installed_env.root / "src" / "teamedit"
    text = HEAD + "from teamedit import gym_runner\n"
    text += 'client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym_runner("a"))\n'
    report = analyze_source(
        text, path=ws / "job.py", project=Project(ws, python=installed_env.python)
    )
    assert [f.code for f in report.findings if f.code == "ES107"] == []
    [(where, found)] = report.remote_findings
    assert where == ws / "teamedit" / "runners.py" and found.code == "ES107"


@pytest.mark.parametrize(
    "body",
    [
        # compiled only: an extension module, a package whose __init__ is compiled
        "from fastlib import make_runner as R",
        "from fastpkg import R",
        # not installed
        "from nothere import make_runner as R",
        "from teamlib.missing import R",
        # larger than evalsubmit reads
        "from biglib import make_runner as R",
        # a package the checker models by name (here a fake one building a Harbor runner)
        "from typing_extensions import make_runner as R",
        # a right value from an installed package
        "from teamlib import GOOD as R",
    ],
)
def test_what_cannot_be_read_stays_silent(
    installed_env: FakeEnv, tmp_path: Path, body: str
) -> None:
    for target in ("R", "R()"):
        submit = f"client.evaluator.submit(tasks=TasksetRef('qa/s'), target={target})"
        assert check(installed_env, tmp_path, f"{body}\n{submit}\n") == []


def test_without_an_environment_nothing_installed_is_read(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    report = analyze_source(JOB, path=ws / "job.py", project=Project(ws))
    assert report.findings == ()


def test_the_project_wins_over_an_installed_package(installed_env: FakeEnv, tmp_path: Path) -> None:
    project_teamlib = {"teamlib.py": "def make_runner():\n    return None\n"}
    body = """
    from teamlib import make_runner
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=make_runner())
    """
    assert check(installed_env, tmp_path, body, files=project_teamlib) == [(2, "ES104")]


def test_the_standard_library_and_modelled_packages_are_not_read(
    installed_env: FakeEnv, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    resolver = modules.ModuleResolver(Project(ws, python=installed_env.python))
    for name in ("json.dumps", "os.path.join", "pytest.fixture", "nemo_platform.NeMoPlatform"):
        assert resolver.resolve(name, ws / "job.py", set()) is None, name
    assert resolver.resolve("teamlib.make_runner", ws / "job.py", set()) is not None


def test_reading_is_bounded_per_import(
    installed_env: FakeEnv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget of one module, teamlib/__init__ is read but not the runners it imports:
    unknown, silent."""
    monkeypatch.setattr(modules, "MAX_INSTALLED_MODULES", 1)
    body = """
    from teamlib import make_runner
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=make_runner())
    """
    assert check(installed_env, tmp_path, body) == []
