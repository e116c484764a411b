"""``evalsubmit check`` on Jupyter notebooks, through the installed console script: a folder walk
that finds them, ruff's ``cell N:line:col`` places, JSON's ``cell``, ``--fix``/``--diff`` that
change only the fixed cell's source in the file, invalid notebooks skipped (``--strict`` fails)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cli_project import RUNNERS, console, run_check
from notebook_files import EVAL_CELLS, code, markdown, notebook, write
from result_cache_env import Counted

EVALSUBMIT = Path(__file__).resolve().parents[2] / ".venv/bin/evalsubmit"

# A tutorial-shaped notebook using the project's own helper module (the runner comes from a
# sibling module; the mistake is in the notebook's submit cell).
TUTORIAL = (
    markdown("# Run a taskset with a Gym agent\n\nThis tutorial submits one evaluation job.\n"),
    code("%pip install -q nemo-platform\n%env NMP_BASE_URL=http://localhost:8080\n"),
    code(
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_evaluator_sdk import ExactMatchMetric\n"
        "from nemo_platform import NeMoPlatform\n"
        "\n"
        "from jobs.runners import make_runner\n"
    ),
    markdown("## Submit\n"),
    code(
        "client = NeMoPlatform(workspace='tutorial')\n"
        "metric = ExactMatchMetric(reference='{{item.a}}', candidate='{{item.b}}')\n"
        "job = client.evaluator.submit(\n"
        "    tasks=TasksetRef('tutorial/mcqa'), target=make_runner('agent'), metric=metric\n"
        ")\n"
        "job\n"
    ),
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "team"
    (root / "jobs").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "team"\n', encoding="utf-8")
    (root / "jobs" / "__init__.py").write_text("", encoding="utf-8")
    (root / "jobs" / "runners.py").write_text(RUNNERS, encoding="utf-8")
    (root / "notebooks").mkdir()
    write(root / "notebooks" / "nightly.ipynb", notebook(*EVAL_CELLS))
    write(root / "notebooks" / "tutorial.ipynb", notebook(*TUTORIAL))
    return root


def test_a_folder_walk_reports_findings_in_their_cells(project: Path) -> None:
    proc = console(project, "check", "--no-cache", ".")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    nightly = [line for line in lines if line.startswith("notebooks/nightly.ipynb:")]
    assert nightly == [
        "notebooks/nightly.ipynb:cell 6:1:12: ES100 syntax error: invalid syntax "
        "(this cell is not checked)",
        "notebooks/nightly.ipynb:cell 7:5:5: ES102 [*] `config=` is a row-evaluation option; a "
        "taskset run is configured by its runner, so the SDK refuses it: remove `config=`",
    ]
    tutorial = [line for line in lines if line.startswith("notebooks/tutorial.ipynb:")]
    assert [line.split(" ")[0:3] for line in tutorial] == [
        ["notebooks/tutorial.ipynb:cell", "5:3:24:", "ES101"]  # on `submit`
    ]
    assert any(line.startswith("jobs/runners.py:") and " ES109 " in line for line in lines)


def test_json_gives_the_cell_and_cell_relative_positions(project: Path) -> None:
    proc = console(project, "check", "--no-cache", "--output-format", "json", "notebooks")
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    placed = {(f["path"], f["code"]): (f["cell"], f["line"], f["column"]) for f in findings}
    assert placed[("notebooks/nightly.ipynb", "ES102")] == (7, 5, 5)
    assert placed[("notebooks/nightly.ipynb", "ES100")] == (6, 1, 12)


def test_fix_changes_only_the_fixed_cells_source(project: Path) -> None:
    path = project / "notebooks" / "nightly.ipynb"
    before = path.read_bytes()
    diff = console(project, "check", "--no-cache", "--diff", "notebooks/nightly.ipynb")
    assert diff.stdout == (  # the cell's source, as ruff shows a notebook's fix
        "--- notebooks/nightly.ipynb:cell 7\n"
        "+++ notebooks/nightly.ipynb:cell 7\n"
        "@@ -2,6 +2,5 @@\n"
        " job = client.evaluator.submit(\n"
        "     tasks=TasksetRef('qa/nightly'),\n"
        "     target=runner,\n"
        "-    config=RunConfig(parallelism=16),\n"
        " )\n"
        " print(job.id)\n"
    )
    assert path.read_bytes() == before  # --diff writes nothing
    proc = console(project, "check", "--no-cache", "--fix", "notebooks/nightly.ipynb")
    assert proc.returncode == 1, proc.stderr  # ES100 in the broken cell stays
    assert "Fixed 1 problem in 1 file." in proc.stdout
    assert " ES102 " not in proc.stdout and "cell 6:1:12: ES100" in proc.stdout
    removed = b'    "    config=RunConfig(parallelism=16),\\n",\n'
    assert before.count(removed) == 1
    assert path.read_bytes() == before.replace(removed, b"")  # every other byte as it was
    document = json.loads(path.read_bytes())
    assert document["cells"][0]["outputs"][0]["text"] == ["Successfully installed\n"]


def test_an_invalid_notebook_is_skipped_and_strict_fails(project: Path) -> None:
    (project / "notebooks" / "draft.ipynb").write_text('{"cells": [', encoding="utf-8")
    (project / "notebooks" / "old.ipynb").write_text('{"nbformat": 3}', encoding="utf-8")
    proc = console(project, "check", "--no-cache", "notebooks/draft.ipynb", "notebooks/old.ipynb")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout + proc.stderr
    assert "notebooks/draft.ipynb: warning: skipped: invalid JSON: Expecting value" in out
    assert "notebooks/old.ipynb: warning: skipped: not an nbformat 4 notebook (nbformat 3)" in out
    strict = console(project, "check", "--no-cache", "--strict", "notebooks/old.ipynb")
    assert strict.returncode == 1, strict.stdout + strict.stderr


def test_extend_exclude_leaves_notebooks_out_of_the_walk(project: Path) -> None:
    with (project / "pyproject.toml").open("a", encoding="utf-8") as config:
        config.write('\n[tool.evalsubmit]\nextend-exclude = ["*.ipynb"]\n')
    proc = console(project, "check", "--no-cache", ".")
    assert ".ipynb" not in proc.stdout + proc.stderr
    assert " ES109 " in proc.stdout  # the .py files are still checked


def test_the_result_cache_keeps_a_notebooks_cells_and_sees_its_edits(
    project: Path,
    cache: Path,
    counted: Counted,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(project)
    argv = ("check", "--output-format", "full", "notebooks")
    code, first, _ = run_check(capsys, *argv)
    assert code == 1 and "cell 7:5:5: ES102" in first and "config=RunConfig" in first
    assert counted.take() == 2
    code, second, _ = run_check(capsys, *argv)
    assert counted.take() == 0  # both from the cache
    assert second == first  # the same places, framed in the same cells
    path = project / "notebooks" / "nightly.ipynb"
    edited = path.read_text(encoding="utf-8").replace("parallelism=16", "parallelism=8")
    path.write_text(edited, encoding="utf-8")
    code, third, _ = run_check(capsys, *argv)
    assert Path("notebooks/nightly.ipynb") in counted.paths  # its entry no longer holds
    counted.take()
    assert "parallelism=8" in third and "parallelism=16" not in third


def test_preview_takes_the_place_check_prints(project: Path) -> None:
    # the runner is bound in cell 3 (line 17) and submitted in cell 7: both places preview it
    for place in ("cell 3:17:1", "cell 7:4:12", "cell 7:2"):
        proc = console(project, "preview", f"notebooks/nightly.ipynb:{place}")
        assert proc.returncode == 0, (place, proc.stderr)
        assert json.loads(proc.stdout)["agent"] == "simple_agent"
    markdown_cell = console(project, "preview", "notebooks/nightly.ipynb:cell 2:1:1")
    assert markdown_cell.returncode == 2
    assert "cell 2 of notebooks/nightly.ipynb is a markdown cell, not code" in markdown_cell.stderr
    # the joined module's line numbers never reach the user
    nothing = console(project, "preview", "notebooks/nightly.ipynb:cell 3:1")
    assert nothing.returncode == 1
    assert nothing.stderr == (
        "evalsubmit: notebooks/nightly.ipynb:cell 3:1: no submit() call or runner there\n"
    )
    past = console(project, "preview", "notebooks/nightly.ipynb:cell 7:40")
    assert past.returncode == 2 and "there is no line 40" in past.stderr


def test_submit_resolves_the_call_in_a_cell(project: Path) -> None:
    args = ("submit", "--base-url", "http://127.0.0.1:9", "--workspace", "qa")
    proc = console(project, *args, "notebooks/nightly.ipynb:cell 7:2")
    # the cell's submit() call is found, and refused for its mistake before anything is sent
    assert proc.returncode == 1, proc.stderr
    assert "not submitted: ES102 `config=` is a row-evaluation option" in proc.stderr
    import_line = console(project, *args, "notebooks/nightly.ipynb:cell 3:1")
    assert import_line.returncode == 1
    assert "no taskset submit() call or Gym runner on that line of the cell" in import_line.stderr
    missing = console(project, *args, "notebooks/nightly.ipynb:cell 9:2")
    assert missing.returncode == 2
    assert "notebooks/nightly.ipynb has 7 cells; there is no cell 9" in missing.stderr


def test_ci_formats_say_the_cell_place(project: Path) -> None:
    target = "notebooks/nightly.ipynb"
    github = console(project, "check", "--no-cache", "--output-format", "github", target)
    assert (
        "::error file=notebooks/nightly.ipynb,line=1,col=1,title=ES102 row-option-on-taskset::"
        "cell 7:5:5: `config=` is a row-evaluation option" in github.stdout
    ), github.stdout
    gitlab = json.loads(
        console(project, "check", "--no-cache", "--output-format", "gitlab", target).stdout
    )
    es102 = next(issue for issue in gitlab if issue["check_name"] == "ES102")
    assert es102["description"].startswith("cell 7:5:5: ES102: `config=`")
    assert es102["location"] == {"path": target, "lines": {"begin": 1, "end": 1}}
    sarif = json.loads(
        console(project, "check", "--no-cache", "--output-format", "sarif", target).stdout
    )
    result = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "ES102")
    assert result["message"]["text"].startswith("cell 7:5:5: ")
    assert result["properties"]["cell"] == 7 and result["properties"]["cellLine"] == 5


def test_a_notebook_on_stdin_is_read_as_a_notebook(project: Path) -> None:
    path = project / "notebooks" / "nightly.ipynb"
    argv = ["check", "--no-cache", "--stdin-filename", "notebooks/nightly.ipynb", "-"]
    proc = subprocess.run(
        [str(EVALSUBMIT), *argv],
        input=path.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
        cwd=project,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr  # never "All checks passed" on the JSON text
    assert "notebooks/nightly.ipynb:cell 7:5:5: ES102" in proc.stdout


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("concise", "notebooks/nightly.ipynb:cell 7:5:5: ES102 [*] `config=`"),
        ("grouped", "  cell 7:5:5  ES102 [*] `config=`"),
        ("pylint", "notebooks/nightly.ipynb:1: [ES102] cell 7:5:5: `config=`"),
        ("azure", "linenumber=1;columnnumber=1;code=ES102;]cell 7:5:5: `config=`"),
        ("json-lines", '"cell": 7'),
        ("rdjson", '"message": "cell 7:5:5: `config=`'),
        ("junit", 'message="cell 7:5:5: `config=`'),
    ],
)
def test_every_format_says_the_cell_place(project: Path, fmt: str, expected: str) -> None:
    """The formats of issue 28 on a notebook finding: the cell's place is printed, and the
    formats that point at file lines point at line 1 (no line of the .ipynb is the cell's)."""
    target = "notebooks/nightly.ipynb"
    proc = console(project, "check", "--no-cache", "--output-format", fmt, target)
    assert proc.returncode == 1, proc.stderr
    assert expected in proc.stdout, proc.stdout
