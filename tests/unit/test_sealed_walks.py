"""A walk changes only what it owns: the walk of one function body (not a call) leaves what the
others see alone, and analysing one module leaves the values of the modules it imports alone
(they are cached and shared by every module importing them)."""

from __future__ import annotations

from pathlib import Path

from evalsubmit.analysis import Project, analyze_source

HEADER = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
"""
SUBMIT = """
def nightly():
    cfg = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                           hydra_params=PARAMS)
    client.evaluator.submit(tasks=TasksetRef("qa/x"), target=GymAgentTaskRunner(config=cfg))
"""
HOOKS = """
PARAMS = {"seed": 1}


def debug_hooks():
    PARAMS["callback"] = lambda rollout: print(rollout)
"""


def codes(text: str) -> list[str]:
    return [f.code for f in analyze_source(text).findings]


def test_a_function_never_called_changes_nothing_another_one_sees() -> None:
    assert codes(HEADER + HOOKS + SUBMIT) == []


def test_a_function_called_before_the_submit_does() -> None:
    at_module_level = HEADER + HOOKS + "\ndebug_hooks()\n" + SUBMIT
    inside = HEADER + HOOKS + SUBMIT.replace("    cfg =", "    debug_hooks()\n    cfg =")
    assert codes(at_module_level) == ["ES107"]
    assert codes(inside) == ["ES107"]


def test_a_fixture_changed_by_one_test_is_new_for_the_next() -> None:
    text = HEADER + (
        "import pytest\n\n@pytest.fixture\ndef params():\n    return {'seed': 1}\n\n"
        "def test_adds_a_hook(params):\n    params['callback'] = print\n\n"
        "def test_nightly(params):\n"
        "    cfg = GymRuntimeConfig(agent='a', agent_config='a.yaml', resources_server='m',"
        " hydra_params=params)\n"
        "    client.evaluator.submit(tasks=TasksetRef('qa/x'),"
        " target=GymAgentTaskRunner(config=cfg))\n"
    )
    assert codes(text) == []


def test_analysing_a_module_leaves_what_it_imports_unchanged(tmp_path: Path) -> None:
    (tmp_path / "runners.py").write_text('BASE = {"seed": 1}\n', encoding="utf-8")
    spoiler = 'from runners import BASE\nimport nemo_platform\nBASE["cb"] = lambda: 0\n'
    job = HEADER + "from runners import BASE as PARAMS\n" + SUBMIT + "\nnightly()\n"
    project = Project(tmp_path)
    alone = analyze_source(job, path=tmp_path / "job.py", project=project, reverse=False)
    analyze_source(spoiler, path=tmp_path / "spoiler.py", project=project, reverse=False)
    after = analyze_source(job, path=tmp_path / "job.py", project=project, reverse=False)
    assert alone.findings == after.findings == ()
    # the lambda written in spoiler.py never reaches this submit: nothing to report there either
    assert alone.remote_findings == after.remote_findings == ()


def importer_project(tmp_path: Path, runners_text: str) -> tuple[Project, Path]:
    runners = tmp_path / "runners.py"
    runners.write_text(runners_text, encoding="utf-8")
    (tmp_path / "job.py").write_text(
        HEADER + "from runners import PARAMS\n" + SUBMIT + "\nnightly()\n", encoding="utf-8"
    )
    return Project(tmp_path), runners


def test_a_finding_placed_by_an_importer_moves_with_the_line(tmp_path: Path) -> None:
    text = 'import os\nPARAMS = {"callback": print, "home": os.sep}\n'
    project, runners = importer_project(tmp_path, text)
    first = analyze_source(text, path=runners, project=project)
    assert [(f.code, f.span.line) for f in first.findings] == [("ES107", 2)]
    moved = "# a comment line\n" + text
    project.set_overlay(runners, moved)
    second = analyze_source(moved, path=runners, project=project)
    assert [(f.code, f.span.line) for f in second.findings] == [("ES107", 3)]


def test_a_module_without_imports_gets_what_its_importers_report(tmp_path: Path) -> None:
    # Nothing in it can reach the SDK by itself (it is not analysed forward), but job.py
    # submits its value: the editor shows what `evalsubmit check` reports there.
    text = 'PARAMS = {"callback": print}\n'
    project, runners = importer_project(tmp_path, text)
    report = analyze_source(text, path=runners, project=project)
    assert [(f.code, f.span.line) for f in report.findings] == [("ES107", 1)]
