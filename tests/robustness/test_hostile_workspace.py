"""A hostile workspace, through the real CLI (a subprocess) and the real server.

One tree holds every odd entry a workspace can have: a symlink loop, links to folders and out of
the tree, a FIFO, a folder nobody may read, ``.gitignore`` lines pathspec cannot compile, a tree
1,200 levels deep, a path longer than PATH_MAX, a non-UTF-8 file name, a file over the size
limit. The CLI must report each odd entry as a warning naming it and its reason, still find
the planted findings, never print a traceback, and never be "All checks passed". The server
must still publish the findings of the documents it has open.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from evalsubmit.analysis import analyze_source

from .lsp_support import open_doc, published_for, running_server, wait_until

BIN = Path(sys.executable).parent
BAD = (
    "from nemo_platform import NeMoPlatform\n"
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "client = NeMoPlatform(workspace='qa')\n"
    "client.evaluator.submit(tasks=TasksetRef('qa/smoke'), target=None, metric=1)\n"
)
DEPTH = 1_200
# (a part of the skipped path, a part of its reason)
EXPECTED_SKIPS = [
    ("pipe.py", "FIFO"),
    ("loop.py", "cannot be followed"),
    ("escape.py", "link out of"),
    ("outdir", "link to a folder"),
    ("big.py", "larger than"),
    (".gitignore", "line 1 '!'"),
    (".gitignore", "line 2 'foo\\\\'"),
    (".gitignore", "line 3 '[z-a]'"),
    ("x" * 200, "File name too long"),
]


def make_deep(root: Path, levels: int, leaf: str) -> Path:
    """``root/d/d/.../d/bad.py`` (made with folder descriptors: no path is ever too long)."""
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(levels):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        file_fd = os.open("bad.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(file_fd, leaf.encode())
        os.close(file_fd)
    finally:
        os.close(fd)
    return root.joinpath(*["d"] * levels, "bad.py")


def build(root: Path) -> Path:
    ws = root / "ws"
    ws.mkdir()
    (root / "outside").mkdir()
    (root / "outside" / "secret.py").write_text(BAD)
    (ws / "job.py").write_text(BAD)
    (ws / "caf\udce9.py").write_bytes(BAD.encode())  # a Latin-1 file name: not UTF-8
    os.symlink("loop.py", ws / "loop.py")
    os.symlink(root / "outside" / "secret.py", ws / "escape.py")
    os.symlink("/", ws / "outdir")
    os.mkfifo(ws / "pipe.py")
    (ws / "big.py").write_text("x = 1\n" * 400_000)  # 2.4 MB: over the 2 MB limit
    (ws / ".gitignore").write_text("!\nfoo\\\n[z-a]\nignored/\n")
    (ws / "ignored").mkdir()
    (ws / "ignored" / "bad.py").write_text(BAD)
    (ws / "locked").mkdir()
    (ws / "locked" / "bad.py").write_text(BAD)
    (ws / "deep").mkdir()
    make_deep(ws / "deep", DEPTH, BAD)
    (ws / "long").mkdir()
    make_deep_named(ws / "long", "x" * 200, 25)
    os.chmod(ws / "locked", 0o000)
    return ws


def make_deep_named(root: Path, name: str, levels: int) -> None:
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(levels):
            os.mkdir(name, 0o755, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        file_fd = os.open("bad.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(file_fd, BAD.encode())
        os.close(file_fd)
    finally:
        os.close(fd)


@pytest.fixture(scope="module")
def hostile() -> Iterator[Path]:
    # Not under pytest's own (root-only) temp folder: the unprivileged run must reach it.
    root = Path(tempfile.mkdtemp(prefix="evalsubmit-hostile-"))
    os.chmod(root, 0o755)
    old_umask = os.umask(0o022)  # folders 755, files 644: readable by the unprivileged run
    try:
        yield build(root)
    finally:
        os.umask(old_umask)
        os.chmod(root / "ws" / "locked", 0o755)
        # rm copes with 1,200 levels and paths over PATH_MAX; shutil.rmtree recurses too deep
        subprocess.run(["rm", "-rf", "--", str(root)], check=False, timeout=120)


def as_nobody() -> list[str] | None:
    """A command prefix that drops root, so that a folder with mode 000 is really unreadable."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    probe = subprocess.run(
        [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable, "-c", ""],
        capture_output=True,
        timeout=60,
    )
    if probe.returncode != 0:
        return None
    return [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def check(
    ws: Path, *args: str, prefix: list[str] | None = None, **env: str
) -> tuple[int, str, str]:
    started = time.monotonic()
    proc = subprocess.run(
        [*(prefix or []), str(BIN / "evalsubmit"), "check", *args, str(ws)],
        capture_output=True,
        timeout=600,
        env={**os.environ, **env},
        cwd="/",
    )
    print(f"\n[evalsubmit check {' '.join(args)}] {time.monotonic() - started:.1f} s")
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    return proc.returncode, out, err


def skips_of(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(item["path"], item["reason"]) for item in data["skipped"]]


def assert_skipped(skips: list[tuple[str, str]], part: str, reason: str) -> None:
    assert any(part in path and reason in why for path, why in skips), (part, reason, skips)


def test_the_cli_reports_every_odd_entry_and_goes_on(hostile: Path) -> None:
    code, out, err = check(hostile, "--format", "json")
    assert "Traceback" not in err, err
    data = json.loads(out)
    skips = skips_of(data)
    for part, reason in EXPECTED_SKIPS:
        assert_skipped(skips, part, reason)
    found = {Path(f["path"]).relative_to(hostile).parts[0] for f in data["findings"]}
    readable = {"locked"} if os.geteuid() == 0 else set()  # mode 000 does not bind root
    assert found == {"job.py", "caf\udce9.py", "deep", *readable}, found  # deep: 1,200 levels
    assert all("outside" not in f["path"] for f in data["findings"])  # the link was not followed
    assert data["files_skipped"] == len(skips) and code == 1


def test_the_unreadable_folder_is_named_when_run_unprivileged(hostile: Path) -> None:
    prefix = as_nobody()
    if prefix is None:
        pytest.skip("cannot drop root here (no setpriv, or it is refused): mode 000 binds no one")
    code, out, err = check(hostile, "--format", "json", prefix=prefix)
    assert "Traceback" not in err, err
    data = json.loads(out)
    assert_skipped(skips_of(data), "locked", "Permission denied")
    assert code == 1 and len(data["findings"]) >= 3


@pytest.mark.parametrize("fmt", ["text", "sarif"])
def test_every_format_lists_the_skips_and_output_never_fails(hostile: Path, fmt: str) -> None:
    code, out, err = check(hostile, "--format", fmt, PYTHONIOENCODING="ascii")
    assert code == 1 and "Traceback" not in err, err
    if fmt == "text":
        assert "caf\\udce9.py" in out  # escaped, not a UnicodeEncodeError
        assert "pipe.py: warning: skipped: not a regular file" in out
        summary, fixes = out.splitlines()[-2:]  # the summary, then ruff's line about fixes
        assert "skipped, not checked" in summary and fixes.startswith("No fixes available")
    else:
        notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        assert any("FIFO" in n["message"]["text"] for n in notes)
        assert all(n["level"] == "warning" for n in notes)


def test_a_skip_is_never_all_checks_passed_and_strict_fails(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("x = 1\n" * 400_000)
    (tmp_path / "ok.py").write_text("x = 1\n")
    code, out, _ = check(tmp_path)
    assert code == 0 and "All checks passed" not in out
    assert out.splitlines()[-1] == (
        "No problems found in 1 file checked; 1 skipped, not checked (see the warnings above)."
    )
    assert check(tmp_path, "--strict")[0] == 1


def test_fifos_and_devices_are_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "named.py"
    os.mkfifo(fifo)
    started = time.monotonic()
    code, out, _ = check(fifo)  # named on the command line: reported, not "0 files"
    assert code == 0 and "named.py: warning: skipped: not a regular file" in out
    for target in (str(fifo), "/dev/zero"):
        proc = subprocess.run(
            [str(BIN / "evalsubmit"), "preview", f"{target}:1"], capture_output=True, timeout=60
        )
        assert proc.returncode == 2 and b"not a regular file" in proc.stderr
    assert time.monotonic() - started < 60


def test_a_huge_jobs_count_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = check(tmp_path, "--jobs", "99999999999999999999")
    assert code == 2 and "Traceback" not in err and "--jobs" in err and "0 (one per core)" in err


def test_ten_thousand_files(tmp_path: Path) -> None:
    for index in range(10_000):
        (tmp_path / f"m{index:05}.py").write_text("x = 1\n")
    (tmp_path / "zz_bad.py").write_text(BAD)
    started = time.monotonic()
    code, out, err = check(tmp_path, "--format", "json")
    seconds = time.monotonic() - started
    data = json.loads(out)
    assert code == 1 and data["files_checked"] == 10_001, err
    assert {Path(f["path"]).name for f in data["findings"]} == {"zz_bad.py"}
    assert seconds < 300


def logged(client: Any, *words: str) -> str | None:
    """The server's log so far when it holds every word, else None (to wait on)."""
    text = "\n".join(m.message for m in client.log_messages)
    return text if all(word in text for word in words) else None


async def test_the_server_keeps_its_findings_in_the_hostile_workspace(hostile: Path) -> None:
    """One odd entry used to blank every document's diagnostics ("internal error")."""
    async with running_server(hostile, {"debounceMs": 0}) as client:
        job = hostile / "job.py"
        uri = open_doc(client, job, job.read_text())
        params = await wait_until(lambda: published_for(client, uri, 1), 120, "diagnostics")
        expected = sorted(f.code for f in analyze_source(BAD).findings)
        assert expected and sorted(str(d.code) for d in params.diagnostics) == expected, params
        # the odd entries are named by the walk of the project, in the step after the first
        # publish (what the modules importing this one report into it)
        logs = await wait_until(
            lambda: logged(client, "loop.py", ".gitignore"), 60, "the odd entries in the log"
        )
        assert "internal error" not in logs


def test_an_internal_error_in_one_file_loses_neither_the_others_nor_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine bug (``submit(**kw)`` raised KeyError) must cost one file, named with the
    error, never the other files' findings or the output (exit 2: not "findings", not clean)."""
    from evalsubmit.analysis.engine import analyze
    from evalsubmit.cli.main import main

    real = analyze.analyze_module

    def analyze_module(source: str, **kwargs: Any) -> Any:
        if "# BOOM" in source:
            raise KeyError("tasks")
        return real(source, **kwargs)

    monkeypatch.setattr(analyze, "analyze_module", analyze_module)
    for name in ("a.py", "boom.py", "z.py"):
        (tmp_path / name).write_text(BAD + ("# BOOM\n" if name == "boom.py" else ""))
    code = main(["check", "--format", "json", "--jobs", "1", str(tmp_path)])
    data = json.loads(capsys.readouterr().out)
    assert code == 2
    assert {Path(f["path"]).name for f in data["findings"]} == {"a.py", "z.py"}
    (skip,) = data["skipped"]
    assert skip["path"].endswith("boom.py") and "internal error: KeyError" in skip["reason"]


async def test_the_server_in_ten_thousand_files(tmp_path: Path) -> None:
    """10,000 files, 500 of which import the open document and submit (each a candidate for
    findings placed in it): the first publish and every edit's come within bounds."""
    importer = "import job\nfrom nemo_platform import NeMoPlatform  # submit\nx = {}\n"
    for index in range(10_000):
        text = importer.format(index) if index % 20 == 0 else "x = 1\n"
        (tmp_path / f"m{index:05}.py").write_text(text)
    job = tmp_path / "job.py"
    job.write_text(BAD)
    started = time.monotonic()
    async with running_server(tmp_path, {"debounceMs": 0}) as client:
        uri = open_doc(client, job, BAD)
        await wait_until(lambda: published_for(client, uri, 1), 120, "the first diagnostics")
        first = time.monotonic() - started
        edits = []
        for version in range(2, 7):
            began = time.monotonic()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[
                        types.TextDocumentContentChangeWholeDocument(text=f"{BAD}y = {version}\n")
                    ],
                )
            )
            params = await wait_until(
                lambda v=version: published_for(client, uri, v), 60, "the edit's diagnostics"
            )
            edits.append(time.monotonic() - began)
            assert params.diagnostics
    print(f"\n[10,000 files, server] first publish {first:.1f} s, edits {max(edits):.2f} s at most")
    assert first < 60 and max(edits) < 10


async def test_the_server_names_the_unreadable_folder_when_run_unprivileged(hostile: Path) -> None:
    """As the CLI above: mode 000 binds only a user who is not root, so the server runs as
    ``nobody`` here; it publishes the open document's findings and logs the folder's skip."""
    prefix = as_nobody()
    if prefix is None:
        pytest.skip("cannot drop root here (no setpriv, or it is refused): mode 000 binds no one")
    command = [*prefix, sys.executable, "-P", "-m", "evalsubmit.lsp"]
    async with running_server(hostile, {"debounceMs": 0}, command=command) as client:
        job = hostile / "job.py"
        uri = open_doc(client, job, job.read_text())
        params = await wait_until(lambda: published_for(client, uri, 1), 120, "diagnostics")
        assert params.diagnostics
        logs = await wait_until(
            lambda: logged(client, "locked", "Permission denied"), 60, "the folder in the log"
        )
        assert "internal error" not in logs


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_a_message_the_terminal_cannot_hold_is_escaped(tmp_path: Path, fmt: str) -> None:
    """An ASCII file name, but a finding whose message quotes the code (ES108 on a taskset
    reference with an accent and a check mark): before, a UnicodeEncodeError and a traceback."""
    (tmp_path / "job.py").write_text(BAD.replace("'qa/smoke'", "'qa/café ✓'"), encoding="utf-8")
    code, out, err = check(tmp_path, "--format", fmt, PYTHONIOENCODING="ascii")
    assert code == 1 and "Traceback" not in err, err
    assert out.isascii()
    if fmt == "text":
        assert "ES108" in out and "caf\\xe9" in out and "\\u2713" in out, out
    else:
        assert "ES108" in out and "caf\\u00e9" in out, out


ODD_NAMES = [
    "-rf.py",
    "--help.py",
    ".hidden.py",
    "sp ace.py",
    "emoji\U0001f600.py",
    "new\nline.py",
    "tab\t.py",
    "esc\x1b[2J\x1b]0;pwned\x07.py",
    "c1\x85\u2028.py",
]


def test_odd_file_names_are_checked_and_shown_inert(tmp_path: Path) -> None:
    """Names that look like options, hold a newline, or carry terminal escape sequences: each
    file is checked, and the text output keeps one line per finding with no control character
    (a name with ESC used to reach the terminal raw; one with a newline split its line)."""
    for name in ODD_NAMES:
        (tmp_path / name).write_text(BAD)
    code, out, _ = check(tmp_path, "--format", "json")
    found = [Path(f["path"]).name for f in json.loads(out)["findings"]]
    assert code == 1 and sorted(set(found)) == sorted(ODD_NAMES)
    code, out, err = check(tmp_path)
    assert code == 1 and "Traceback" not in err, err
    lines = out.splitlines()
    # one line per finding, the summary, ruff's line about the (unsafe) fixes
    assert len(lines) == len(found) + 2 and lines[-2].startswith(f"Found {len(found)} problems")
    assert lines[-1].startswith("No fixes available")
    assert not any(ch in out for ch in "\x1b\x07\t\x85\u2028"), out
    assert "new\\nline.py:4:" in out and "esc\\x1b[2J\\x1b]0;pwned\\x07.py:4:" in out
    code, out, err = check(tmp_path, "--output-format", "full")  # with code frames
    assert code == 1 and "Traceback" not in err, err
    assert not any(ch in out for ch in "\x1b\x07\x85\u2028"), out
