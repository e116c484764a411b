"""ES100 invalid-syntax: a file that does not parse is never reported as passing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rule_support import results

from evalsubmit.cli import main


def test_the_broken_statement_is_named_and_the_rest_still_checked() -> None:
    assert results("""
        client.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig())
        client.evaluator.submit(tasks=T, target=gym_runner
        x = 1
        """) == [(1, "ES102"), (2, "ES100")]


def test_a_clean_file_has_none() -> None:
    assert results("client.evaluator.submit(tasks=T, target=gym_runner)\n") == []


@pytest.mark.parametrize("strict", [False, True])
def test_the_cli_fails_on_a_syntax_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strict: bool
) -> None:
    job = tmp_path / "job.py"
    job.write_text(
        "from nemo_platform import NeMoPlatform\n"
        "client = NeMoPlatform(workspace='qa')\n"
        "client.evaluator.submit(tasks='qa/a', target=(\n"
    )
    plain = tmp_path / "plain.py"
    plain.write_text("def f(:\n    pass\n")
    argv = ["check", "--no-cache", "--output-format", "json", str(tmp_path)]
    code = main([*argv, "--strict"] if strict else argv)
    found = json.loads(capsys.readouterr().out)["findings"]
    assert code == 1
    paths = sorted(Path(f["path"]).name for f in found if f["code"] == "ES100")
    # a file that cannot reach the SDK holds no submission: its syntax is Python's business
    assert paths == ["job.py"]
    assert all(f["kind"] == "invalid-syntax" for f in found)


def test_a_run_that_checks_nothing_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--no-cache", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "No Python files found: nothing was checked." in captured.out
    assert "All checks passed" not in captured.out
    assert "warning: No Python files found" in captured.err
    assert main(["check", "--no-cache", "--strict", str(tmp_path)]) == 1
