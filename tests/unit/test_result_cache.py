"""``evalsubmit check``'s persistent result cache: a cached result is used only when a fresh
analysis would give the same one, and the output of a warm run is the output of a cold run."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cli_project import make_project
from evalsubmit.cli import cache_codec, main
from evalsubmit.cli import check_analysis as check_module
from fake_env import sdk_env
from result_cache_env import Counted

REPO = Path(__file__).resolve().parents[2]
EVALSUBMIT = REPO / ".venv" / "bin" / "evalsubmit"
IMPORTS = textwrap.dedent("""\
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform
    """)
RUNNER = textwrap.dedent("""\
    client = NeMoPlatform(workspace="qa")
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="mcqa")
    )
    """)
JOB = (
    IMPORTS
    + "from helpers import TASKS\n"
    + RUNNER
    + "client.evaluator.submit(tasks=TASKS, target=runner)\n"
)
"""Submits a taskset named in ``helpers.py``, which takes it from ``constants.py``."""


def project(root: Path, suite: str = "qa/nightly") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'jobs'\n")
    (root / "job.py").write_text(JOB)
    (root / "helpers.py").write_text("from constants import SUITE\n\nTASKS = SUITE\n")
    (root / "constants.py").write_text(f"SUITE = {suite!r}\n")
    return root


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_an_unchanged_file_is_not_analysed_again(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    job = project(tmp_path / "p", suite="qa team/x") / "job.py"
    first = check(capsys, str(job))
    assert counted.take() == 1 and first[0] == 1 and "ES108" in first[1]
    assert check(capsys, str(job)) == first
    assert counted.take() == 0


def test_an_edited_file_is_analysed_again(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    job = project(tmp_path / "p") / "job.py"
    assert check(capsys, str(job))[0] == 0
    job.write_text(JOB.replace("tasks=TASKS", 'tasks="qa team/x"'))
    code, out, _ = check(capsys, str(job))
    assert counted.take() == 2 and code == 1 and "ES108" in out


@pytest.mark.parametrize("edited", ["helpers.py", "constants.py"])
def test_editing_an_imported_module_directly_or_not_is_a_miss(
    tmp_path: Path, edited: str, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p")
    job = root / "job.py"
    assert check(capsys, str(job))[0] == 0
    if edited == "helpers.py":
        (root / "helpers.py").write_text("TASKS = 'qa team/x'\n")
    else:  # read only through helpers.py, whose scope is cached by its own text
        (root / "constants.py").write_text("SUITE = 'qa team/x'\n")
    code, out, _ = check(capsys, str(job))
    assert counted.take() == 2 and code == 1 and "'qa team/x'" in out


def test_a_module_read_by_an_earlier_file_of_the_run_is_noted_for_the_next(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    """a.py and b.py import helpers.py: the analysis of b.py takes its scope from the resolver's
    cache, built while analysing a.py, yet b.py's entry must name constants.py too."""
    root = project(tmp_path / "p")
    (root / "job.py").rename(root / "a.py")
    (root / "b.py").write_text(JOB)
    assert check(capsys, "--jobs", "1", str(root / "a.py"), str(root / "b.py"))[0] == 0
    (root / "constants.py").write_text("SUITE = 'qa team/x'\n")
    code, out, _ = check(capsys, str(root / "b.py"))
    assert code == 1 and "'qa team/x'" in out


def test_a_module_created_where_an_import_found_none_is_a_miss(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p")
    (root / "constants.py").unlink()  # the import finds nothing: TASKS is unknown, no finding
    job = root / "job.py"
    assert check(capsys, str(job))[0] == 0
    (root / "constants.py").write_text("SUITE = 'qa team/x'\n")
    code, out, _ = check(capsys, str(job))
    assert counted.take() == 2 and code == 1 and "'qa team/x'" in out


def test_other_options_are_a_miss(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p", suite="qa team/x")
    job = str(root / "job.py")
    assert check(capsys, job)[0] == 1
    assert check(capsys, "--ignore", "ES108", job)[0] == 0
    assert check(capsys, "--select", "ES108", job)[0] == 1
    (root / "pyproject.toml").write_text(
        "[project]\nname = 'jobs'\n[tool.evalsubmit]\nignore = ['ES1']\n"
    )
    assert check(capsys, job)[0] == 0
    assert counted.take() == 4
    assert check(capsys, job)[0] == 0 and counted.take() == 0


def test_another_environment_is_a_miss(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    job = str(project(tmp_path / "p") / "job.py")
    old = sdk_env(tmp_path / "old", nemo_platform="0.1.0")
    new = sdk_env(tmp_path / "new", nemo_platform="0.7.1")
    for python, analysed in ((old, 1), (old, 0), (new, 1), (new, 0)):
        check(capsys, "--python", str(python), job)
        assert counted.take() == analysed


def test_a_corrupt_or_foreign_entry_is_a_miss_and_is_rewritten(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    job = str(project(tmp_path / "p", suite="qa team/x") / "job.py")
    first = check(capsys, job)
    counted.take()
    (entry,) = cache.glob("v*/*.json")
    good = entry.read_bytes()
    data = json.loads(good[good.index(b"{") :])
    key = cache_codec.load_key()
    for body in (  # signed with the user's key: the decoder still refuses them
        b"\x80\x04not json",
        b"[]",
        b'{"key": 1}',
        json.dumps({**data, "key": {}}).encode(),
    ):
        entry.write_bytes(cache_codec.signed(key, entry.parent, entry.name, body))
        assert check(capsys, job) == first
        assert counted.take() == 1 and entry.read_bytes() == good


def test_a_read_only_cache_folder_warns_once_and_changes_nothing(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    root = make_project(tmp_path / "team")
    uncached = check(capsys, "--no-cache", str(root))
    cache.mkdir()
    cache.chmod(0o500)
    try:
        code, out, err = check(capsys, str(root))
    finally:
        cache.chmod(0o700)
    assert (code, out) == uncached[:2]
    assert err.count("evalsubmit: warning: results not cached") == 1, err


def test_a_cache_folder_that_is_a_file_warns_once(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    counted: Counted,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = make_project(tmp_path / "team")
    uncached = check(capsys, "--no-cache", str(root))
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    code, out, err = check(capsys, "--cache-dir", str(blocker), str(root))
    assert (code, out) == uncached[:2]
    assert err.count("evalsubmit: warning: results not cached") == 1, err


def test_no_cache_neither_reads_nor_writes(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    job = str(project(tmp_path / "p") / "job.py")
    check(capsys, "--no-cache", job)
    check(capsys, "--no-cache", job)
    assert counted.take() == 2 and not cache.exists()
    check(capsys, job)
    check(capsys, "--no-cache", job)
    assert counted.take() == 2


def test_the_default_folder_is_tagged_and_ignored_at_the_project_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("EVALSUBMIT_CACHE_DIR", raising=False)
    root = make_project(tmp_path / "team")
    monkeypatch.chdir(root / "jobs")
    check(capsys, "nightly.py")
    folder = root / ".evalsubmit_cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (
        (folder / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert len(list(folder.glob("v*/*.json"))) == 1
    other = tmp_path / "elsewhere"
    check(capsys, "--cache-dir", str(other), "nightly.py")
    assert len(list(other.glob("v*/*.json"))) == 1


def test_fix_and_stdin_bypass_the_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_project(tmp_path / "team")
    monkeypatch.chdir(root)
    assert check(capsys, "jobs")[0] == 1
    entries = {p: p.read_text() for p in cache.glob("v*/*.json")}
    assert check(capsys, "--diff", "jobs")[0] == 1
    assert check(capsys, "--fix", "jobs")[0] == 1  # the unsafe ES101 is left
    assert {p: p.read_text() for p in cache.glob("v*/*.json")} == entries
    fixed = check(capsys, "--no-cache", "jobs")
    assert check(capsys, "jobs") == fixed  # the fixed files' results, not the cached ones
    entries = {p: p.read_text() for p in cache.glob("v*/*.json")}
    nightly = (root / "jobs" / "nightly.py").read_bytes()
    monkeypatch.setattr(
        "sys.stdin", io.TextIOWrapper(io.BytesIO(nightly + b"x = 1\n"), encoding="utf-8")
    )
    assert check(capsys, "--stdin-filename", "jobs/nightly.py", "-")[0] == 1
    assert {p: p.read_text() for p in cache.glob("v*/*.json")} == entries


HYDRA_JOB = IMPORTS + textwrap.dedent("""\
    from params import PARAMS

    client = NeMoPlatform(workspace="qa")
    config = GymRuntimeConfig(
        agent="a", agent_config="a.yaml", resources_server="m", hydra_params=PARAMS
    )
    client.evaluator.submit(tasks="qa/x", target=GymAgentTaskRunner(config=config))
    """)


def test_remote_findings_are_routed_from_a_cached_result(
    tmp_path: Path, cache: Path, counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    """params.py cannot reach the SDK by itself (it is not analysed); job.py's analysis
    places the finding there, after every file is analysed or taken from the cache."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'jobs'\n")
    (tmp_path / "job.py").write_text(HYDRA_JOB)
    (tmp_path / "params.py").write_text('PARAMS = {"seed": 1, "callback": print}\n')
    uncached = check(capsys, "--no-cache", str(tmp_path))
    assert f"{tmp_path / 'params.py'}:1:" in uncached[1] and "ES107" in uncached[1]
    counted.take()
    assert check(capsys, str(tmp_path)) == uncached
    assert check(capsys, str(tmp_path)) == uncached
    assert counted.take() == 1
    (tmp_path / "params.py").write_text('PARAMS = {"seed": 1}\n')
    assert check(capsys, str(tmp_path)) == check(capsys, "--no-cache", str(tmp_path))
    assert counted.take() == 2


def test_internal_errors_are_not_kept(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    job = str(project(tmp_path / "p") / "job.py")
    original = check_module._analyse_one

    def failing(*args: object, **kwargs: object) -> check_module.FileResult:
        result = original(*args, **kwargs)  # type: ignore[arg-type]
        result.internal = ("line 1: KeyError: 'x'",)
        return result

    monkeypatch.setattr(check_module, "_analyse_one", failing)
    assert check(capsys, job)[0] == 2
    assert not list(cache.glob("v*/*.json"))


def cli(folder: Path, *argv: str) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "EVALSUBMIT_CACHE_DIR"}}
    proc = subprocess.run(
        [str(EVALSUBMIT), "check", *argv],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=300,
        check=False,
    )
    return proc.returncode, proc.stdout


@pytest.mark.parametrize("tree", ["examples", "contract-idioms", "team-project"])
def test_a_warm_run_prints_what_a_cold_run_prints(tree: str, tmp_path: Path) -> None:
    """The console script, as users run it: the same stdout and exit code without the cache,
    with an empty one (written) and with a full one (read), in every output format."""
    folder = tmp_path / tree
    if tree == "examples":
        shutil.copytree(REPO / "examples", folder)
        (folder / "pyproject.toml").write_text("[project]\nname = 'examples'\n")
    elif tree == "contract-idioms":
        shutil.copytree(REPO / "tests" / "contract" / "idioms", folder)
        (folder / "pyproject.toml").write_text("[project]\nname = 'idioms'\n")
    else:
        make_project(folder)
    for output in ("concise", "json"):
        argv = ("--output-format", output, "--exit-zero" if output == "json" else "--strict", ".")
        uncached = cli(folder, "--no-cache", *argv)
        assert cli(folder, *argv) == uncached
        assert cli(folder, *argv) == uncached
    assert list((folder / ".evalsubmit_cache").glob("v*/*.json"))


def test_worker_processes_write_a_cache_the_next_run_reads(tmp_path: Path) -> None:
    """Twelve files with --jobs 2 (the process pool), twice at once, then again: every run
    prints the uncached output; the last one analyses nothing."""
    folder = tmp_path / "tree"
    shutil.copytree(REPO / "examples", folder)
    (folder / "pyproject.toml").write_text("[project]\nname = 'examples'\n")
    uncached = cli(folder, "--no-cache", "--jobs", "2", ".")
    argv = [str(EVALSUBMIT), "check", "--jobs", "2", "."]
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "EVALSUBMIT_CACHE_DIR"}}
    runs = [
        subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    for run in runs:
        out, _ = run.communicate(timeout=300)
        assert (run.returncode, out) == uncached
    entries = list((folder / ".evalsubmit_cache").glob("v*/*.json"))
    assert len(entries) >= 8 and not list((folder / ".evalsubmit_cache").glob("v*/.tmp-*"))
    script = textwrap.dedent("""\
        import sys
        from evalsubmit.cli import check_analysis as check, main
        analysed = []
        original = check._analyse_one
        check._analyse_one = lambda path, *a, **k: analysed.append(path) or original(path, *a, **k)
        code = main(["check", "--jobs", "2", "."])
        print(f"analysed {len(analysed)}", file=sys.stderr)
        sys.exit(code)
        """)
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=folder, env=env, capture_output=True, text=True
    )
    assert (proc.returncode, proc.stdout) == uncached
    assert proc.stderr.strip().endswith("analysed 0")


def corpus_files(tmp_path: Path) -> list[tuple[Path, Path]]:
    """(project root, file) of every example, idiom and SDK contract case."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("corpus", REPO / "tests/contract/corpus.py")
    assert spec is not None and spec.loader is not None
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    files = [(REPO, path) for path in sorted((REPO / "examples").rglob("*.py"))]
    idioms = REPO / "tests" / "contract" / "idioms"
    files += [(path.parent, path) for path in sorted(idioms.rglob("*.py"))]
    cases = tmp_path / "cases"
    cases.mkdir()
    for index, case in enumerate(corpus.CASES):
        path = cases / f"case_{index:03}.py"
        path.write_text(case.source + corpus.SUBMIT_SUFFIX, encoding="utf-8")
        files.append((cases, path))
    return files


def test_findings_round_trip_exactly_through_an_entry(tmp_path: Path) -> None:
    """Every finding of the examples and the contract corpora, with its fixes, edits and
    walks, and every remote finding, reads back equal from the JSON an entry holds."""
    from evalsubmit.analysis import analyze_source
    from evalsubmit.cli.cache_codec import (
        decode_findings,
        decode_remote,
        encode_findings,
        encode_remote,
    )
    from evalsubmit.core.findings import (
        Applicability,
        Edit,
        Finding,
        Fix,
        Label,
        LabelKind,
        Occasion,
        Severity,
        Site,
        Span,
    )
    from evalsubmit.workspace.project import Project

    every = Finding(
        "ES107",
        "unserializable-config",
        Severity.WARNING,
        'a message with \udcff, \u00e9 and "quotes"\n',
        Span(1, 2, 3, 4),
        (Fix("t", (Edit(Span(1, 0, 1, 1), "x\r\n"),), Applicability.UNSAFE),),
        (
            Occasion(Site("loop", 2, 0), 1, 3, Label.text("for the 2nd"), None),
            Occasion(Site("call", 4, 0), 0, 0, Label(LabelKind.CALL, "launch", 4), (4, 5)),
            Occasion(Site("new", 9, 2), 0, 0, Label(LabelKind.CONSTRUCT, "Plan", 9), (9, 9)),
        ),
    )
    findings: list[Finding] = [every]
    remote: list[tuple[Path, Finding]] = [(Path("/a/b c.py"), every)]
    projects: dict[Path, Project] = {}
    for root, path in corpus_files(tmp_path):
        project = projects.setdefault(root, Project(root))
        report = analyze_source(
            path.read_text(encoding="utf-8"), path=path, project=project, reverse=False
        )
        findings += report.findings
        remote += report.remote_findings
    assert sum(1 for f in findings if f.fixes) > 20 and len(remote) > 1
    assert any(f.context for _, f in remote) or any(f.context for f in findings)
    data = json.loads(json.dumps([encode_findings(findings), encode_remote(tuple(remote))]))
    assert decode_findings(data[0]) == findings
    assert decode_remote(data[1]) == tuple(remote)
