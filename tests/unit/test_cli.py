"""The CLI as CI uses it: exit codes, the JSON contract, SARIF, preview, rule docs, file walking."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from evalsubmit.analysis.rules import rules_markdown
from evalsubmit.cli import main

REPO = Path(__file__).resolve().parents[2]
HEADER = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
client = NeMoPlatform(workspace="qa")
"""
GOOD = HEADER + textwrap.dedent("""\
    runner = GymAgentTaskRunner(config=GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
        startup_timeout_s=120))
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    """)
BAD = HEADER + 'client.evaluator.submit(tasks=TasksetRef("qa team/x"), target=None, metric=1)\n'


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_clean_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(write(tmp_path, "good.py", GOOD)))
    assert code == 0
    assert "All checks passed (1 file)." in out


def test_findings_exit_one_with_ruff_like_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "bad.py", BAD)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}:5:")
    assert " ES101 " in lines[0] or " ES108 " in lines[0]
    # then ruff's line about fixes: ES101's only fix is unsafe
    assert lines[-2:] == [
        "Found 2 problems in 1 file.",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]


def test_json_contract_is_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    code, out, _ = run(capsys, "check", "--format", "json", str(path))
    assert code == 1
    data = json.loads(out)
    assert set(data) == {
        *("version", "files_checked", "files_skipped", "skipped", "findings"),
        "configuration_effects",  # added in version 1: a key more, none changed
        "file_suppressions",  # likewise: what `# evalsubmit: ignore-file` silenced
    }
    assert data["configuration_effects"] == []
    assert data["file_suppressions"] == {
        "findings_silenced": 0,
        "files": 0,
        "files_all_rules_off": 0,
    }
    assert data["files_skipped"] == 0 and data["skipped"] == []
    assert data["version"] == 1 and data["files_checked"] == 1
    keys = {
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "kind",
        "severity",
        "message",
        "url",  # added in version 1 with "fix": keys more, none changed
        "fix",
    }
    by_code = {f["code"]: f for f in data["findings"]}
    for finding in data["findings"]:
        assert set(finding) == keys
        assert finding["severity"] in {"error", "warning", "information"}
    mixed = by_code["ES101"]
    line = BAD.splitlines()[4]
    assert (mixed["line"], mixed["column"]) == (5, line.index("submit") + 1)
    assert (mixed["end_line"], mixed["end_column"]) == (5, line.index("submit") + 7)
    assert mixed["kind"] == "mixed-shape"
    assert by_code["ES108"]["kind"] == "bad-taskset-ref"


def test_select_and_ignore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, "bad.py", BAD))
    _, out, _ = run(capsys, "check", "--format", "json", "--select", "ES108", path)
    assert [f["code"] for f in json.loads(out)["findings"]] == ["ES108"]
    _, out, _ = run(capsys, "check", "--format", "json", "--ignore", "ES108,ES101", path)
    assert json.loads(out)["findings"] == []


def test_unknown_code_and_missing_path_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "check", "--select", "XX999", str(tmp_path))[0] == 2
    assert run(capsys, "check", str(tmp_path / "nope.py"))[0] == 2
    assert run(capsys, "frobnicate")[0] == 2


def test_sarif_is_2_1_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    _, out, _ = run(capsys, "check", "--format", "sarif", str(path))
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0"
    run_ = sarif["runs"][0]
    rule_ids = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    assert rule_ids == [f"ES{n}" for n in (*range(100, 112), 190, 191)]
    result = next(r for r in run_["results"] if r["ruleId"] == "ES101")
    assert rule_ids[result["ruleIndex"]] == "ES101"
    assert result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 5


def test_directories_skip_git_venvs_and_gitignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "pkg/bad.py", BAD)
    write(tmp_path, ".git/hooks/bad.py", BAD)
    write(tmp_path, "venv/pyvenv.cfg", "home = /usr\n")
    write(tmp_path, "venv/lib/bad.py", BAD)
    write(tmp_path, "build/bad.py", BAD)
    write(tmp_path, ".gitignore", "build/\n")
    _, out, _ = run(capsys, "check", "--format", "json", str(tmp_path))
    data = json.loads(out)
    assert data["files_checked"] == 1
    assert {Path(f["path"]).relative_to(tmp_path).as_posix() for f in data["findings"]} == {
        "pkg/bad.py"
    }


def test_many_files_use_worker_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for index in range(70):
        write(tmp_path, f"m{index:03}.py", BAD if index % 10 == 0 else GOOD)
    code, out, _ = run(capsys, "check", "--format", "json", "--jobs", "2", str(tmp_path))
    data = json.loads(out)
    assert code == 1 and data["files_checked"] == 70
    assert len({f["path"] for f in data["findings"]}) == 7


def test_preview_prints_the_exact_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "good.py", GOOD)
    code, out, _ = run(capsys, "preview", f"{path}:5")
    assert code == 0
    target = json.loads(out)
    assert list(target)[:3] == ["kind", "environment", "agent"]
    assert target["startup_timeout_s"] == 120.0 and target["hydra_params"] == {}


def test_preview_reads_only_what_the_file_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files importing the previewed one are not analysed: in a large project they cost
    everything (a minute for a file of this repository) and change nothing in the preview."""
    path = write(tmp_path, "good.py", GOOD)
    write(tmp_path, "uses_good.py", "from good import *\n")

    def analysed(*args: object, **kwargs: object) -> None:
        raise AssertionError("an importer was analysed")

    monkeypatch.setattr("evalsubmit.analysis.engine.crossfile.remote_findings_for", analysed)
    code, out, _ = run(capsys, "preview", f"{path}:5")
    assert code == 0 and json.loads(out)["kind"] == "gym"


def test_preview_explains_why_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        HEADER + "def make(agent):\n    return GymAgentTaskRunner(config=GymRuntimeConfig("
        "agent=agent, agent_config='a.yaml', resources_server='m'))\n"
    )
    path = write(tmp_path, "partial.py", text)
    code, out, err = run(capsys, "preview", f"{path}:6:12")
    assert code == 1
    assert '"agent": "<unknown' in out
    assert "cannot derive: unknown: agent" in err


def test_rule_docs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rule", "es107")
    assert code == 0 and out.startswith("# unserializable-config (ES107)\n\nSeverity: **error**")
    assert run(capsys, "rule", "ES999")[0] == 2


def test_rules_markdown_is_up_to_date() -> None:
    assert (REPO / "docs" / "rules.md").read_text(encoding="utf-8") == rules_markdown(), (
        "regenerate with: evalsubmit rule --markdown > docs/rules.md"
    )


def test_console_script_runs() -> None:
    proc = subprocess.run(
        [str(REPO / ".venv/bin/evalsubmit"), "--version"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("evalsubmit ")


def test_summary_counts_the_files_with_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "bad.py", BAD)
    write(tmp_path, "good.py", GOOD)
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 1
    assert out.splitlines()[-2] == "Found 2 problems in 1 file."


def test_preview_of_a_submit_the_analysis_cannot_tie_to_the_sdk_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A helper whose client is a parameter, in a module that never calls it (its callers are
    tests elsewhere): the call is there, so "no submit() call" would be false (issue 32)."""
    jobs = tmp_path / "jobs.py"
    jobs.write_text(
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "\n"
        "\n"
        "def submit_job(client, runner, suite='qa/smoke'):\n"
        "    return client.evaluator.submit(tasks=TasksetRef(suite), target=runner)\n"
    )
    assert main(["preview", f"{jobs}:5:30"]) == 1
    err = capsys.readouterr().err
    assert "`client.evaluator.submit(...)` here is not known to be the SDK's submit()" in err
    assert "no submit() call" not in err
    assert main(["preview", f"{jobs}:1:1"]) == 1
    assert "no submit() call or runner at line 1, column 1" in capsys.readouterr().err


def test_a_runner_imported_from_another_releases_module_is_named_as_evalsubmit_knows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A runner class imported from a module evalsubmit does not know (another release's, as
    in examples written for a newer SDK) is unknown; the preview says where the class it knows
    by that name lives, rather than only "the result of GymAgentTaskRunner()"."""
    job = tmp_path / "job.py"
    job.write_text(
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym_runtime import GymAgentTaskRunner\n"
        "from nemo_platform import NeMoPlatform\n"
        "\n"
        "client = NeMoPlatform(workspace='qa')\n"
        "runner = GymAgentTaskRunner(config=None)\n"
        "client.evaluator.submit(tasks=TasksetRef('qa/smoke'), target=runner)\n",
        encoding="utf-8",
    )
    assert main(["check", "--no-cache", str(job)]) == 0  # unknown: never diagnosed
    capsys.readouterr()
    assert main(["preview", f"{job}:7"]) == 1
    err = capsys.readouterr().err
    assert (
        "GymAgentTaskRunner() from nemo_evaluator_sdk.agent_eval.runtimes.gym_runtime: "
        "evalsubmit knows nemo-platform 0.6.0's GymAgentTaskRunner as "
        "nemo_evaluator_sdk.agent_eval.runtimes.gym.GymAgentTaskRunner"
    ) in err


def test_why_not_reads_the_call_not_the_text_of_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The why-not of a submit the analysis cannot tie to the SDK is said for the call under
    the cursor on any of its lines, and never for ``.submit(`` in a string or a comment."""
    jobs = tmp_path / "jobs.py"
    jobs.write_text(
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "\n"
        "\n"
        "def submit_job(self_service, runner, suite='qa/smoke'):\n"
        "    note = 'see client.evaluator.submit(...) in the docs'  # or x.submit(\n"
        "    return self_service.clients['é'].evaluator.submit(\n"
        "        tasks=TasksetRef(suite),\n"
        "        target=runner,\n"
        "    )\n",
        encoding="utf-8",
    )
    assert main(["preview", f"{jobs}:8:12"]) == 1
    err = capsys.readouterr().err
    assert "`self_service.clients['é'].evaluator.submit(...)` here is not known" in err
    assert "what `self_service` is is not statically known" in err
    assert main(["preview", f"{jobs}:5:25"]) == 1
    assert "no submit() call or runner at line 5, column 25" in capsys.readouterr().err
