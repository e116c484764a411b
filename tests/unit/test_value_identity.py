"""Which value a submit sees once containers and configs are changed: through another name
bound to the same object, inside a helper given it as an argument, on one branch of an ``if``,
in a loop; and which changes it must never see (a function body that is not a call, another
module importing the same cached module, a change made after the submit).

These pin the behaviour that moving the values from in-place changes plus an undo journal to
persistent versions (issue 25) must keep: each one fails when identity, the fork join or the
sealing of a walk is lost."""

from __future__ import annotations

from pathlib import Path

from evalsubmit.analysis import Project, analyze_source

HEADER = """\
import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
PARAMS = {"seed": 1}


def launch(params):
    cfg = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                           hydra_params=params)
    client.evaluator.submit(tasks=TasksetRef("qa/x"), target=GymAgentTaskRunner(config=cfg))

"""


def codes(body: str) -> list[str]:
    return [f.code for f in analyze_source(HEADER + body).findings]


def test_a_store_through_a_second_name_changes_the_one_object() -> None:
    assert codes("alias = PARAMS\nalias['callback'] = print\nlaunch(PARAMS)\n") == ["ES107"]
    # a copy is another object: the store into it leaves PARAMS as it was
    assert codes("alias = dict(PARAMS)\nalias['callback'] = print\nlaunch(PARAMS)\n") == []


def test_a_helper_that_changes_its_argument_changes_the_callers_value() -> None:
    body = (
        "def add_hooks(params, hook):\n"
        "    params['callback'] = hook\n"
        "    return None\n\n\n"
        "add_hooks(PARAMS, print)\n"
        "launch(PARAMS)\n"
    )
    assert codes(body) == ["ES107"]
    assert codes(body.replace("add_hooks(PARAMS, print)\n", "")) == []


def test_a_config_attribute_set_through_an_alias_reaches_the_submit() -> None:
    body = (
        "cfg = GymRuntimeConfig(agent='a', agent_config='a.yaml', resources_server='m',\n"
        "                       hydra_params=PARAMS)\n"
        "debug = cfg\n"
        "debug.hydra_params = {'callback': print}\n"
        "client.evaluator.submit(tasks=TasksetRef('qa/x'), target=GymAgentTaskRunner(config=cfg))\n"
    )
    assert codes(body) == ["ES107"]


def test_a_change_on_one_branch_joins_with_the_other() -> None:
    hook = "hook = print\n"
    one_branch = hook + "if os.environ.get('DEBUG'):\n    PARAMS['callback'] = hook\n"
    both = one_branch + "else:\n    PARAMS['callback'] = hook\n"
    # set on every path to the same value: it is kept
    assert codes(both + "launch(PARAMS)\n") == ["ES107"]
    # set on one path only: not every run has it, nothing is claimed
    assert codes(one_branch + "launch(PARAMS)\n") == []
    # a branch that never ends normally does not join
    returns = hook + (
        "def main():\n"
        "    if os.environ.get('DEBUG'):\n"
        "        PARAMS['callback'] = hook\n"
        "    else:\n"
        "        return\n"
        "    launch(PARAMS)\n\n\nmain()\n"
    )
    assert codes(returns) == ["ES107"]


def test_a_loop_changing_each_config_of_a_list() -> None:
    body = (
        "EXTRA = {'seed': 2}\n"
        "for params in [PARAMS, EXTRA]:\n"
        "    params['callback'] = print\n"
        "launch(EXTRA)\n"
    )
    assert codes(body) == ["ES107"]
    appended = "hooks = []\nfor _ in range(3):\n    hooks.append(print)\n"
    assert codes(appended + "PARAMS['hooks'] = hooks\nlaunch(PARAMS)\n") == ["ES107"]
    assert codes(appended + "PARAMS['hooks'] = []\nlaunch(PARAMS)\n") == []


def test_a_function_body_that_is_not_a_call_leaves_the_top_level_alone() -> None:
    # both bodies are walked after the top level, the hooks' first: not as calls
    hooks = "def debug_hooks():\n    PARAMS['callback'] = print\n\n\n"
    assert codes(hooks + "def nightly():\n    launch(PARAMS)\n") == []
    assert codes(hooks + "def nightly():\n    debug_hooks()\n    launch(PARAMS)\n") == ["ES107"]


def test_a_change_after_the_submit_is_not_seen_by_it() -> None:
    assert codes("launch(PARAMS)\nPARAMS['callback'] = print\n") == []


def test_one_importer_changing_a_shared_module_leaves_the_other_alone(tmp_path: Path) -> None:
    (tmp_path / "settings.py").write_text('PARAMS = {"seed": 1}\n', encoding="utf-8")
    (tmp_path / "debug_job.py").write_text(
        "from settings import PARAMS\nimport nemo_platform\nPARAMS['callback'] = print\n",
        encoding="utf-8",
    )
    job = HEADER.replace('PARAMS = {"seed": 1}\n', "from settings import PARAMS\n")
    job += "launch(PARAMS)\n"
    (tmp_path / "job.py").write_text(job, encoding="utf-8")
    project = Project(tmp_path)
    debug = (tmp_path / "debug_job.py").read_text(encoding="utf-8")
    for _ in range(2):  # the spoiler analysed before and after the job: the cache is shared
        analyze_source(debug, path=tmp_path / "debug_job.py", project=project, reverse=False)
        report = analyze_source(job, path=tmp_path / "job.py", project=project, reverse=False)
        # a leak would be reported where the callback was written, in debug_job.py
        assert report.findings == report.remote_findings == ()
    # the same change made by the job itself is seen
    own = job.replace("launch(PARAMS)\n", "PARAMS['callback'] = print\nlaunch(PARAMS)\n")
    report = analyze_source(own, path=tmp_path / "job.py", project=project, reverse=False)
    assert [f.code for f in report.findings] == ["ES107"]
