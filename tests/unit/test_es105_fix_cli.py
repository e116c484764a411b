"""ES105's fix through the real console script (issue 28): it names the taskset to run, so it
writes the configuration's ``default-taskset`` and, without one, is not offered at all: a
placeholder taskset would be a malformed reference (ES108), and a fix never adds a finding."""

from __future__ import annotations

import json
from pathlib import Path

from cli_project import IMPORTS, console

RUNNERS = (
    IMPORTS
    + """\


def agent_runner(name: str) -> GymAgentTaskRunner:
    config = GymRuntimeConfig(agent=name, agent_config="a.yaml", resources_server="mcqa")
    return GymAgentTaskRunner(config=config)
"""
)

JOB = (
    IMPORTS
    + """\

from evals.runners import agent_runner


class NightlyEval:
    def __init__(self, client: NeMoPlatform) -> None:
        self.client = client
        self.metric = ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")

    def run(self, rows: list[dict[str, str]]) -> object:
        return self.client.evaluator.submit(
            metric=self.metric,
            dataset=rows,
            target=agent_runner("simple_agent"),
            config=RunConfig(parallelism=8),
        )


NightlyEval(NeMoPlatform(workspace="qa")).run([{"a": "1", "b": "1"}])
"""
)


def make(root: Path, configuration: str) -> Path:
    (root / "evals").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "evals"\n\n[tool.evalsubmit]\n{configuration}', encoding="utf-8"
    )
    (root / "evals" / "__init__.py").write_text("", encoding="utf-8")
    (root / "evals" / "runners.py").write_text(RUNNERS, encoding="utf-8")
    (root / "evals" / "nightly.py").write_text(JOB, encoding="utf-8")
    return root


def findings(root: Path) -> list[dict[str, object]]:
    proc = console(root, "check", "--no-cache", "--output-format", "json", ".")
    assert proc.returncode in (0, 1), proc.stderr
    found: list[dict[str, object]] = json.loads(proc.stdout)["findings"]
    return found


def test_with_a_default_taskset_the_fix_writes_it(tmp_path: Path) -> None:
    root = make(tmp_path / "configured", 'default-taskset = "qa/nightly"\n')
    (es105,) = findings(root)
    assert es105["code"] == "ES105"
    fix = es105["fix"]
    assert isinstance(fix, dict) and fix["applicability"] == "unsafe"
    assert fix["message"] == (
        "Use `tasks=` instead of `metric=` and `dataset=` (and remove `config=`) "
        "(`default-taskset` qa/nightly)"
    )
    assert any(edit["content"] == 'tasks="qa/nightly", ' for edit in fix["edits"])
    concise = console(root, "check", "--no-cache", ".")
    assert concise.stdout.splitlines()[-1] == (
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    )
    fixed = console(root, "check", "--no-cache", "--fix", "--unsafe-fixes", ".")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    text = (root / "evals" / "nightly.py").read_text(encoding="utf-8")
    assert 'tasks="qa/nightly",' in text and "metric=" not in text and "config=" not in text
    assert findings(root) == []  # the fix added nothing (no ES108, no ES102)


def test_without_a_default_taskset_there_is_no_fix(tmp_path: Path) -> None:
    root = make(tmp_path / "plain", "")
    before = (root / "evals" / "nightly.py").read_bytes()
    (es105,) = findings(root)
    assert es105["code"] == "ES105" and es105["fix"] is None
    concise = console(root, "check", "--no-cache", ".")
    assert concise.stdout.splitlines()[-1] == "Found 1 problem in 1 file."  # nothing fixable
    fixed = console(root, "check", "--no-cache", "--fix", "--unsafe-fixes", ".")
    assert fixed.returncode == 1
    assert (root / "evals" / "nightly.py").read_bytes() == before  # no placeholder written
