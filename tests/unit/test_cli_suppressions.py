"""Suppressions through the real ``evalsubmit`` console script, on the team project of
``cli_project`` plus a module whose runner another module submits (a finding placed across
files): ``# noqa``, ``# evalsubmit: ignore-file``, ES190/ES191, ``--fix`` and ``--add-noqa``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_project import console, make_project

HOOKS = """\
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


def on_result(result: dict) -> dict:
    return result


hooked_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="hooked_agent",
        agent_config="configs/agent.yaml",
        resources_server="mcqa",
        hydra_params={"hook": on_result},  # evalsubmit: ignore[ES107]
    )
)
"""
HOOKED = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

from jobs.hooks import hooked_runner

client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/hooked"), target=hooked_runner)
"""
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = make_project(tmp_path / "team")
    (root / "jobs" / "hooks.py").write_text(HOOKS, encoding="utf-8")
    (root / "jobs" / "hooked.py").write_text(HOOKED, encoding="utf-8")
    return root


def findings(project: Path, *argv: str) -> list[tuple[str, int, str]]:
    result = console(project, "check", "--no-cache", "--output-format", "json", *argv)
    assert result.returncode in (0, 1), result.stderr
    data = json.loads(result.stdout)
    return [(f["path"], f["line"], f["code"]) for f in data["findings"]]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_noqa_is_honoured_and_its_typos_and_unused_codes_reported(project: Path) -> None:
    runners = project / "jobs" / "runners.py"
    before = findings(project, ".")
    assert ("jobs/runners.py", 12, "ES109") in before
    edit(
        runners, '{"CUDA_VISIBLE_DEVICES": 0},', '{"CUDA_VISIBLE_DEVICES": 0},  # noqa: E501, ES109'
    )
    after = findings(project, ".")
    assert ("jobs/runners.py", 12, "ES109") not in after
    assert len(after) == len(before) - 1
    edit(runners, "# noqa: E501, ES109", "# noqa: E501, ES1O9")  # a typo: ES109 is back too
    typo = console(project, "check", "--no-cache", "jobs/runners.py")
    assert typo.returncode == 1
    assert (
        "jobs/runners.py:12:" in typo.stdout
        and "ES191 [*] `ES1O9` is not an evalsubmit" in typo.stdout
    )
    assert "ES109 [*] environment variable" in typo.stdout
    assert "E501" not in typo.stdout.replace("noqa: E501", "")  # another tool's code: never judged


def test_ignore_file_silences_and_is_counted_in_the_summary(project: Path) -> None:
    test = project / "tests" / "test_nightly.py"
    test.write_text("# evalsubmit: ignore-file[ES103]\n" + test.read_text(encoding="utf-8"))
    result = console(project, "check", "--no-cache", "tests")
    assert result.returncode == 0, result.stdout
    assert (
        "All checks passed (1 file). `# evalsubmit: ignore-file` silenced 1 finding in 1 file."
        in (result.stdout)
    )
    data = json.loads(
        console(project, "check", "--no-cache", "--output-format", "json", "tests").stdout
    )
    assert data["file_suppressions"] == {
        "findings_silenced": 1,
        "files": 1,
        "files_all_rules_off": 0,
    }
    test.write_text(test.read_text().replace("ignore-file[ES103]", "ignore-file"), encoding="utf-8")
    bare = console(project, "check", "--no-cache", "tests").stdout
    assert "silenced 1 finding in 1 file (every rule off in 1 file)." in bare


def test_a_suppression_of_a_finding_placed_from_another_module(project: Path) -> None:
    # used: hooked.py submits the runner, and the ES107 it places in hooks.py is silenced
    assert findings(project, ".") == findings(project, ".", "--ignore", "ES190")
    assert not any(f[0] == "jobs/hooks.py" for f in findings(project, "."))
    # hooks.py checked alone: hooked.py (not checked) may place it: never called unused
    assert findings(project, "jobs/hooks.py") == []
    # hooked.py now submits another runner: once both are checked, nothing lands: unused
    edit(project / "jobs" / "hooked.py", "target=hooked_runner)", "target=None)")
    assert ("jobs/hooks.py", 13, "ES190") in findings(project, ".")
    assert findings(project, "jobs/hooks.py") == []  # hooked.py may still place one


def test_fix_removes_an_unused_suppression(project: Path) -> None:
    nightly = project / "jobs" / "nightly.py"
    edit(
        nightly,
        "metric = ExactMatchMetric(",
        "metric = ExactMatchMetric(  # evalsubmit: ignore[ES104]\n    ",
    )
    assert ("jobs/nightly.py", 9, "ES190") in findings(project, "jobs/nightly.py")
    result = console(project, "check", "--no-cache", "--fix", "jobs/nightly.py")
    assert "Fixed" in result.stdout, result.stdout + result.stderr
    assert "evalsubmit: ignore" not in nightly.read_text(encoding="utf-8")
    assert "ES190" not in console(project, "check", "--no-cache", "jobs/nightly.py").stdout


def test_add_noqa_baselines_the_project(project: Path) -> None:
    runners = project / "jobs" / "runners.py"
    edit(runners, '{"CUDA_VISIBLE_DEVICES": 0},', '{"CUDA_VISIBLE_DEVICES": 0},  # noqa: E501')
    legacy_bytes = (project / "jobs" / "legacy.py").read_bytes()
    before = findings(project, ".")
    assert before
    result = console(project, "check", "--no-cache", "--add-noqa", ".")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert f"Added {len(before)} noqa directives." in result.stderr
    assert "# noqa: E501, ES109" in runners.read_text(encoding="utf-8")  # merged, E501 kept
    legacy = (project / "jobs" / "legacy.py").read_bytes()
    assert (
        legacy.startswith(b"\xef\xbb\xbf")
        and b"\r\n" in legacy
        and b"\n" not in legacy.replace(b"\r\n", b"")
    )  # BOM and CRLF kept
    assert legacy != legacy_bytes
    again = console(project, "check", "--no-cache", ".")
    assert again.returncode == 0 and "All checks passed" in again.stdout, again.stdout
    # nothing left to add, and nothing is added twice
    second = console(project, "check", "--no-cache", "--add-noqa", ".")
    assert "Added 0 noqa directives." in second.stderr
    assert (project / "jobs" / "runners.py").read_text().count("ES109") == 1


def test_add_noqa_names_a_line_it_cannot_comment(project: Path) -> None:
    (project / "jobs" / "docs.py").write_text(
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_platform import NeMoPlatform\n\n"
        'client = NeMoPlatform(workspace="qa")\n'
        'client.evaluator.submit(tasks=TasksetRef("qa/x"), target="runner", description="""\n'
        'a long text\n"""\n)\n',
        encoding="utf-8",
    )
    result = console(project, "check", "--no-cache", "--add-noqa", "jobs/docs.py")
    assert result.returncode == 1
    assert "jobs/docs.py:5: no noqa added for ES104" in result.stderr
    assert "Added 0 noqa directives." in result.stderr


def test_add_noqa_refuses_fix(project: Path) -> None:
    result = console(project, "check", "--add-noqa", "--fix", ".")
    assert result.returncode == 2 and "--add-noqa cannot be combined with --fix" in result.stderr


def test_add_noqa_round_trip_over_the_examples(tmp_path: Path) -> None:
    copy = tmp_path / "examples"
    shutil.copytree(EXAMPLES, copy)
    before = findings(copy, ".")
    assert len(before) > 50  # the examples plant every kind of mistake
    result = console(copy, "check", "--no-cache", "--add-noqa", ".")
    assert result.returncode == 0, result.stderr
    lines = {(path, line) for path, line, _ in before}
    assert f"Added {len({(p, n, c) for p, n, c in before})} noqa directives." in result.stderr
    assert len(lines) <= len(before)
    after = console(copy, "check", "--no-cache", ".")
    assert after.returncode == 0 and "All checks passed" in after.stdout, after.stdout
    # in a notebook the comment goes into the cell's source (the JSON stays a notebook)
    notebook = json.loads((copy / "notebooks" / "agent_evaluation.ipynb").read_text())
    assert any("# noqa: ES102" in "".join(cell["source"]) for cell in notebook["cells"])
    # every directive added is used: ES190 (on by default) reports nothing
    assert findings(copy, ".") == []
    # selected alone, ES190 says what ruff's RUF100 says: the other rules are off (non-enabled)
    alone = console(copy, "check", "--no-cache", "--select", "ES190", "async_eval.py").stdout
    assert "(non-enabled: `ES" in alone


def test_the_result_cache_keeps_what_suppressions_silenced(project: Path, tmp_path: Path) -> None:
    edit(project / "jobs" / "hooked.py", "target=hooked_runner)", "target=None)")
    nightly = project / "jobs" / "nightly.py"
    edit(nightly, "metric = ExactMatchMetric(", "metric = ExactMatchMetric(  # noqa: ES104\n    ")
    edit(
        nightly,
        "config=RunConfig(parallelism=16),",
        "config=RunConfig(parallelism=16),  # noqa: ES102",
    )
    cache = ["--cache-dir", str(tmp_path / "cache"), "--output-format", "json"]
    cold = console(project, "check", *cache, ".")
    warm = console(project, "check", *cache, ".")
    assert cold.stdout == warm.stdout
    got = [(f["path"], f["line"], f["code"]) for f in json.loads(warm.stdout)["findings"]]
    assert ("jobs/hooks.py", 13, "ES190") in got and ("jobs/nightly.py", 9, "ES190") in got
    assert not any(line == 15 for path, line, _ in got if path == "jobs/nightly.py")  # used
    assert got == findings(project, ".")


def test_suppressions_in_a_file_that_cannot_reach_the_sdk(project: Path) -> None:
    tool = project / "tools" / "paths.py"
    tool.parent.mkdir()
    tool.write_text(
        "import os\n\n"
        "HERE = os.getcwd()  # noqa: ES104, E501\n"
        "THERE = 1  # evalsubmit: ignore[ES1O7]\n",
        encoding="utf-8",
    )
    assert sorted(f for f in findings(project, "tools") if f[0].startswith("tools")) == [
        ("tools/paths.py", 3, "ES190"),
        ("tools/paths.py", 4, "ES191"),
    ]
    result = console(project, "check", "--no-cache", "--fix", "tools")
    assert result.returncode == 0, result.stdout + result.stderr
    assert tool.read_text(encoding="utf-8") == (
        "import os\n\nHERE = os.getcwd()  # noqa: E501\nTHERE = 1\n"
    )
