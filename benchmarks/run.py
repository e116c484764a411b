"""One command for issue 7: evalsubmit's language server and CLI against the floors and peers.

    .venv/bin/python benchmarks/run.py            # full run (500 / 5,000 / 20,000 lines + CLI)
    .venv/bin/python benchmarks/run.py --quick    # 5,000 lines only, 10 edits, 1 CLI run
    .venv/bin/python benchmarks/run.py --quick --no-lsp   # the CLI rows only (a minute)

Everything goes through a real LSP client over stdio (pygls's ``LanguageClient``), with
incremental text sync when the server offers it and push diagnostics (the client does not
declare pull support). Servers measured side by side, interleaved edit by edit (the order
rotates every edit) so that noise from other processes on the machine hits all of them alike:

* ``ast.parse``   in-process parse of the same text after each edit (the floor of any parse);
* ``null``        benchmarks/null_server.py, a do-nothing pygls server: ``ast.parse`` + publish;
* ``null-nogc``   the same with the garbage collector paused around the parse;
* ``pygls-echo``  the same server publishing without parsing: pygls's own cost per edit;
* ``evalsubmit``  ``python -P -m evalsubmit.lsp`` with ``debounceMs: 0``;
* ``ruff``        ``ruff server``;
* ``basedpyright````basedpyright-langserver --stdio``.

The CLI rows, each measured against a baseline in the same run (interleaved, run by run):

* **start-up**: ``evalsubmit --version``, ``evalsubmit check`` of a small file that does not use
  the SDK and of a small job script that does, against ``python -c pass`` (wall clock and CPU
  time of the process, bytecode compiled beforehand as an installed package has it);
* **real repo**: ``evalsubmit check`` of a 1,000-file tree where 1 file in 20 uses the SDK
  against ``ruff check --select F --no-cache --isolated`` of the same tree;
* **CLI, 1,000 SDK files**: ``evalsubmit check`` of a tree where every file uses the SDK against
  ``ast.parse`` of the same files in one process.

Every timed ``evalsubmit check`` passes ``--no-cache`` (cold: each file analysed, as ruff with
``--no-cache``), except the two **warm cache** rows: the real repo and the 1,000 SDK files
checked again, unchanged, with the result cache a first run wrote (``--cache-dir`` in a
temporary folder), against the same references.

ruff and basedpyright are installed from PyPI into ``.cache/bench-venv`` on first use. Results:
a table on stdout, JSON in ``benchmarks/results/`` (``latest.json`` and a timestamped copy).
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.protocol import default_converter

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
BENCH_VENV = ROOT / ".cache" / "bench-venv"
PEER_PACKAGES = ("ruff", "basedpyright")
DIAG_TIMEOUT_S = 60.0
HOVER_TIMEOUT_S = 30.0

sys.path.insert(0, str(HERE))
import generate  # noqa: E402
from edits import TRACE_KINDS, Edit, make_edits, typing_trace  # noqa: E402

__all__ = ["Edit", "make_edits"]  # hover_ab.py and profile_edit.py take them from here

# -- peers' venv --------------------------------------------------------------------------------


def _launcher_works(script: Path) -> bool:
    """Whether a console script's ``#!`` interpreter exists (a venv embeds its own path)."""
    first = script.read_bytes().split(b"\n", 1)[0]
    return not first.startswith(b"#!") or Path(first[2:].decode().strip().split()[0]).exists()


def ensure_bench_venv() -> Path:
    """Create ``.cache/bench-venv`` with ruff and basedpyright from PyPI (once)."""
    bin_dir = BENCH_VENV / "bin"
    if all((bin_dir / exe).exists() for exe in ("ruff", "basedpyright-langserver")):
        if _launcher_works(bin_dir / "basedpyright-langserver"):
            return bin_dir
        # made from another checkout (its path is in the launchers): made again here
        shutil.rmtree(BENCH_VENV)
    uv = ROOT / ".venv" / "bin" / "uv"
    env = {**os.environ, "UV_CACHE_DIR": str(ROOT / ".cache" / "uv")}
    print(f"creating {BENCH_VENV} with {', '.join(PEER_PACKAGES)} from PyPI ...", flush=True)
    if uv.exists():
        subprocess.run(
            [str(uv), "venv", "-q", str(BENCH_VENV), "--python", sys.executable],
            check=True,
            env=env,
        )
        subprocess.run(
            [str(uv), "pip", "install", "-q", "--python", str(bin_dir / "python"), *PEER_PACKAGES],
            check=True,
            env=env,
        )
    else:
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        subprocess.run([str(bin_dir / "pip"), "install", "-q", *PEER_PACKAGES], check=True)
    return bin_dir


def tool_version(argv: list[str]) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60).stdout
        return out.strip().splitlines()[0] if out.strip() else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


# -- servers ------------------------------------------------------------------------------------


@dataclass
class ServerSpec:
    name: str
    argv: list[str]
    init_options: dict[str, Any] | None = None


def server_specs(bin_dir: Path, wanted: set[str] | None) -> list[ServerSpec]:
    py = sys.executable
    specs = [
        ServerSpec(
            "evalsubmit",
            [py, "-P", "-m", "evalsubmit.lsp"],
            {"evalsubmit": {"debounceMs": 0, "logLevel": "warning"}},
        ),
        ServerSpec("null", [py, str(HERE / "null_server.py")]),
        ServerSpec("null-nogc", [py, str(HERE / "null_server.py"), "--no-gc-during-parse"]),
        ServerSpec("pygls-echo", [py, str(HERE / "null_server.py"), "--no-parse"]),
        ServerSpec("ruff", [str(bin_dir / "ruff"), "server"]),
        ServerSpec("basedpyright", [str(bin_dir / "basedpyright-langserver"), "--stdio"]),
    ]
    return [s for s in specs if wanted is None or s.name in wanted]


def tree_pids(pid: int) -> list[int]:
    """``pid`` and its descendants (basedpyright-langserver is a Python shim running node)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_ticks(pid: int) -> int:
    """CPU time (user + system, in clock ticks) used so far by ``pid`` and its descendants."""
    total = 0
    for p in tree_pids(pid):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total


async def settle(sessions: list[Session], quiet_s: float = 0.2, limit_s: float = 5.0) -> None:
    """Wait until no server process used CPU for ``quiet_s`` (at most ``limit_s``)."""
    deadline = time.perf_counter() + limit_s
    before = [cpu_ticks(s.pid) for s in sessions]
    while time.perf_counter() < deadline:
        await asyncio.sleep(quiet_s)
        now = [cpu_ticks(s.pid) for s in sessions]
        if now == before:
            return
        before = now


def proc_kib(pid: int, key: str) -> int:
    total = 0
    for p in tree_pids(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    total += int(line.split()[1])
    return total


def lenient_converter() -> Any:
    """pygls's converter, minus the server capabilities lsprotocol cannot structure (ruff's
    ``notebookDocumentSync``); a benchmark client does not need them."""
    converter = default_converter()
    base = converter.get_structure_hook(types.InitializeResult)

    def structure(obj: Any, cls: Any) -> Any:
        if isinstance(obj, dict) and isinstance(obj.get("capabilities"), dict):
            caps = dict(obj["capabilities"])
            caps.pop("notebookDocumentSync", None)
            obj = {**obj, "capabilities": caps}
        return base(obj, cls)

    converter.register_structure_hook(types.InitializeResult, structure)
    return converter


class Session:
    """One server process driven by a pygls LanguageClient."""

    def __init__(self, spec: ServerSpec, root: Path, log_dir: Path) -> None:
        self.spec = spec
        self.root = root
        self.log = log_dir / f"{spec.name}.stderr.log"
        self.client = LanguageClient("evalsubmit-bench", "1", converter_factory=lenient_converter)
        self.waiters: list[tuple[str, int, asyncio.Future[float]]] = []
        self.incremental = True
        self.versions: dict[str, int] = {}
        self.published_versions: list[int | None] = []
        client = self.client

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            now = time.perf_counter()
            self.published_versions.append(params.version)
            for waiter in list(self.waiters):
                uri, version, fut = waiter
                if uri != params.uri or fut.done():
                    continue
                if params.version is None or params.version >= version:
                    fut.set_result(now)
                    self.waiters.remove(waiter)

        @client.feature(types.WORKSPACE_CONFIGURATION)
        def on_configuration(params: types.ConfigurationParams) -> list[Any]:
            section = (spec.init_options or {}).get("evalsubmit")
            return [section if item.section == "evalsubmit" else None for item in params.items]

        @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def on_progress(params: Any) -> None:
            return None

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def on_register(params: Any) -> None:
            return None

        @client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: Any) -> None:
            return None

        @client.feature(types.WINDOW_SHOW_MESSAGE)
        def on_show(params: Any) -> None:
            return None

    @property
    def pid(self) -> int:
        assert self.client._server is not None
        return self.client._server.pid

    async def start(self) -> float:
        """Start and initialize; seconds until ``initialize`` answered."""
        t0 = time.perf_counter()
        cmd = "exec " + " ".join(shlex.quote(a) for a in self.spec.argv)
        cmd += f" 2>>{shlex.quote(str(self.log))}"
        await self.client.start_io("/bin/sh", "-c", cmd, cwd=str(self.root))
        caps = types.ClientCapabilities(
            text_document=types.TextDocumentClientCapabilities(
                synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
                publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                    version_support=True
                ),
                hover=types.HoverClientCapabilities(
                    content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
                ),
            ),
            workspace=types.WorkspaceClientCapabilities(workspace_folders=True, configuration=True),
            general=types.GeneralClientCapabilities(
                position_encodings=[types.PositionEncodingKind.Utf16]
            ),
        )
        result = await asyncio.wait_for(
            self.client.initialize_async(
                types.InitializeParams(
                    process_id=os.getpid(),
                    root_uri=self.root.as_uri(),
                    capabilities=caps,
                    initialization_options=self.spec.init_options,
                    workspace_folders=[
                        types.WorkspaceFolder(uri=self.root.as_uri(), name=self.root.name)
                    ],
                )
            ),
            120,
        )
        sync = result.capabilities.text_document_sync
        kind = sync.change if isinstance(sync, types.TextDocumentSyncOptions) else sync
        self.incremental = kind == types.TextDocumentSyncKind.Incremental
        self.client.initialized(types.InitializedParams())
        return time.perf_counter() - t0

    def _expect(self, uri: str, version: int) -> asyncio.Future[float]:
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters.append((uri, version, fut))
        return fut

    async def _wait(self, fut: asyncio.Future[float], t0: float) -> float | None:
        try:
            return (await asyncio.wait_for(fut, DIAG_TIMEOUT_S)) - t0
        except TimeoutError:
            return None

    async def open(self, uri: str, text: str) -> float | None:
        self.versions[uri] = 1
        fut = self._expect(uri, 1)
        t0 = time.perf_counter()
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="python", version=1, text=text
                )
            )
        )
        return await self._wait(fut, t0)

    async def change(self, uri: str, edit: Edit, new_text: str) -> float | None:
        version = self.versions[uri] = self.versions[uri] + 1
        change: types.TextDocumentContentChangeEvent
        if self.incremental:
            change = types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=edit.line, character=edit.start),
                    end=types.Position(line=edit.last_line, character=edit.end),
                ),
                text=edit.text,
            )
        else:
            change = types.TextDocumentContentChangeWholeDocument(text=new_text)
        fut = self._expect(uri, version)
        t0 = time.perf_counter()
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change],
            )
        )
        return await self._wait(fut, t0)

    async def hover(self, uri: str, line: int, character: int) -> tuple[float | None, bool]:
        t0 = time.perf_counter()
        try:
            result = await asyncio.wait_for(
                self.client.text_document_hover_async(
                    types.HoverParams(
                        text_document=types.TextDocumentIdentifier(uri=uri),
                        position=types.Position(line=line, character=character),
                    )
                ),
                HOVER_TIMEOUT_S,
            )
        except (TimeoutError, Exception):
            return None, False
        return time.perf_counter() - t0, result is not None

    def peak_rss_kib(self) -> int:
        return proc_kib(self.pid, "VmHWM")

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.shutdown_async(None), 10)
        with contextlib.suppress(Exception):
            self.client.exit(None)
        server = self.client._server
        if server is not None:
            try:
                await asyncio.wait_for(server.wait(), 10)
            except TimeoutError:
                for p in reversed(tree_pids(server.pid)):
                    with contextlib.suppress(OSError):
                        os.kill(p, 9)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.stop(), 10)


# -- edits (benchmarks/edits.py) ----------------------------------------------------------------


def hover_sites(text: str, count: int, seed: int) -> list[tuple[int, int]]:
    """Positions on ``submit`` tokens and runner names (what evalsubmit's hover describes)."""
    sites = []
    for n, line in enumerate(text.split("\n")):
        for found in re.finditer(r"\.submit\(", line):
            sites.append((n, found.start() + 3))
        if re.match(r"RUNNER_\d+ = ", line):
            sites.append((n, 2))
    r = random.Random(seed)
    return [r.choice(sites) for _ in range(count)]


# -- measurement --------------------------------------------------------------------------------


def parse_seconds(text: str, *, pause_gc: bool = False, keep: list[Any] | None = None) -> float:
    t0 = time.perf_counter()
    if pause_gc:
        gc.disable()
    tree: Any = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except SyntaxError:  # half-typed code (the typing trace): the parse failed, as a server's
        pass
    finally:
        if pause_gc:
            gc.enable()
    elapsed = time.perf_counter() - t0
    if keep is not None:
        keep[:] = [tree]  # keep the latest tree alive, as a server would
    return elapsed


def stats(values: list[float | None]) -> dict[str, Any]:
    ok = sorted(v * 1000 for v in values if v is not None)
    if not ok:
        return {"n": 0, "timeouts": len(values)}
    p95 = ok[min(len(ok) - 1, max(0, round(0.95 * len(ok)) - 1))]
    return {
        "n": len(ok),
        "timeouts": len(values) - len(ok),
        "median_ms": statistics.median(ok),
        "p95_ms": p95,
        "min_ms": ok[0],
        "max_ms": ok[-1],
    }


@dataclass
class SizeResult:
    size: str
    lines: int
    kib: float
    cold: dict[str, list[float | None]] = field(default_factory=dict)
    edits: dict[str, list[float | None]] = field(default_factory=dict)
    hovers: dict[str, list[float | None]] = field(default_factory=dict)
    hover_hits: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, dict[str, list[float | None]]] = field(default_factory=dict)
    """Per server, the typing trace's times by kind of edit (``edits.TRACE_KINDS``)."""
    peak_rss_kib: dict[str, int] = field(default_factory=dict)
    incremental: dict[str, bool] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        names = list(self.edits)
        return {
            "size": self.size,
            "lines": self.lines,
            "kib": round(self.kib, 1),
            "servers": {
                n: {
                    "cold": stats(self.cold.get(n, [])),
                    "edit": stats(self.edits.get(n, [])),
                    "hover": stats(self.hovers.get(n, [])),
                    "hover_non_null": self.hover_hits.get(n, 0),
                    "peak_rss_mib": round(self.peak_rss_kib.get(n, 0) / 1024, 1),
                    "incremental_sync": self.incremental.get(n),
                    "edit_kinds": {k: stats(v) for k, v in self.kinds.get(n, {}).items()},
                    "trace": stats([t for v in self.kinds.get(n, {}).values() for t in v]),
                }
                for n in names
            },
        }


async def bench_size(
    key: str,
    path: Path,
    specs: list[ServerSpec],
    *,
    edits: int,
    hovers_per_edit: int,
    cold_rounds: int,
    log_dir: Path,
    budget_s: float | None = None,
    min_edits: int = 4,
    trace: bool = False,
) -> SizeResult:
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    result = SizeResult(key, text.count("\n"), len(text.encode()) / 1024)
    floor = "ast.parse"
    for name in [floor, floor + "-nogc", *(s.name for s in specs)]:
        result.cold[name], result.edits[name], result.hovers[name] = [], [], []
    keep: list[Any] = []
    sessions: list[Session] = []
    for rnd in range(cold_rounds):
        sessions = []
        for spec in specs:
            session = Session(spec, path.parent, log_dir)
            await session.start()
            result.incremental[spec.name] = session.incremental
            sessions.append(session)
        await asyncio.sleep(1.0)  # let start-up work (workspace scans) settle
        order = sessions[rnd % len(sessions) :] + sessions[: rnd % len(sessions)]
        result.cold[floor].append(parse_seconds(text, keep=keep))
        result.cold[floor + "-nogc"].append(parse_seconds(text, pause_gc=True, keep=keep))
        for session in order:
            # the server opened before may still be working (summaries, the collector): timing
            # the next one against it would charge that work to the next server
            await settle(sessions)
            elapsed = await session.open(uri, text)
            result.cold[session.spec.name].append(elapsed)
            print(f"  [{key}] cold {session.spec.name:<13} {_ms(elapsed)}", flush=True)
        if rnd < cold_rounds - 1:
            for session in sessions:
                await session.stop()
    await asyncio.sleep(0.5)

    lines = text.split("\n")
    sites = hover_sites(text, max(1, edits * hovers_per_edit), seed=len(lines))
    hover_i = 0
    started = time.perf_counter()
    for i, edit in enumerate(make_edits(text, edits, seed=len(lines))):
        spent = time.perf_counter() - started
        if budget_s is not None and i >= min_edits and i % 2 == 0 and spent > budget_s:
            print(f"  [{key}] time budget of {budget_s:.0f} s spent after {i} edits")
            break
        edit.apply(lines)
        new_text = "\n".join(lines)
        result.edits[floor].append(parse_seconds(new_text, keep=keep))
        result.edits[floor + "-nogc"].append(parse_seconds(new_text, pause_gc=True, keep=keep))
        order = sessions[i % len(sessions) :] + sessions[: i % len(sessions)]
        for session in order:
            await settle(sessions, quiet_s=0.05)  # no server's leftover work in the next's time
            result.edits[session.spec.name].append(await session.change(uri, edit, new_text))
        for _ in range(hovers_per_edit):
            line, col = sites[hover_i % len(sites)]
            hover_i += 1
            for session in order:
                elapsed, hit = await session.hover(uri, line, col)
                result.hovers[session.spec.name].append(elapsed)
                result.hover_hits[session.spec.name] = result.hover_hits.get(
                    session.spec.name, 0
                ) + int(hit)
        if (i + 1) % 10 == 0:
            row = "  ".join(f"{s.spec.name}={_ms(result.edits[s.spec.name][-1])}" for s in sessions)
            print(f"  [{key}] edit {i + 1}/{edits}: {row}", flush=True)
    if trace:
        await _typing_trace(key, uri, lines, sessions, result, keep)
    for session in sessions:
        result.peak_rss_kib[session.spec.name] = session.peak_rss_kib()
    for session in sessions:
        await session.stop()
    return result


async def _typing_trace(
    key: str,
    uri: str,
    lines: list[str],
    sessions: list[Session],
    result: SizeResult,
    keep: list[Any],
) -> None:
    """The edits that shift lines (``edits.typing_trace``), each sent to every server in a
    rotating order, timed by kind; the trace ends on the text it started from."""
    floor = "ast.parse"
    names = [floor, floor + "-nogc", *(s.spec.name for s in sessions)]
    for name in names:
        result.kinds[name] = {kind: [] for kind in TRACE_KINDS}
    trace = typing_trace("\n".join(lines))
    for i, edit in enumerate(trace):
        edit.apply(lines)
        new_text = "\n".join(lines)
        result.kinds[floor][edit.kind].append(parse_seconds(new_text, keep=keep))
        nogc = parse_seconds(new_text, pause_gc=True, keep=keep)
        result.kinds[floor + "-nogc"][edit.kind].append(nogc)
        order = sessions[i % len(sessions) :] + sessions[: i % len(sessions)]
        for session in order:
            await settle(sessions, quiet_s=0.05)
            elapsed = await session.change(uri, edit, new_text)
            result.kinds[session.spec.name][edit.kind].append(elapsed)
        if edit.kind not in ("type",):
            row = "  ".join(
                f"{s.spec.name}={_ms(result.kinds[s.spec.name][edit.kind][-1])}" for s in sessions
            )
            print(f"  [{key}] trace {edit.where}: {row}", flush=True)


def _ms(seconds: float | None) -> str:
    return "timeout" if seconds is None else f"{seconds * 1000:.1f} ms"


PARSE_ALL = """
import ast, sys, time, warnings
from pathlib import Path
files = sorted(Path(sys.argv[1]).rglob("*.py"))
t0 = time.perf_counter()
warnings.simplefilter("ignore")
for f in files:
    ast.parse(f.read_bytes().decode("utf-8", "replace"))
print(len(files), time.perf_counter() - t0)
"""


def bench_cli(tree: Path, runs: int, timeout_s: float) -> dict[str, Any]:
    """``evalsubmit check --no-cache TREE`` (wall clock, process start included) vs reading and
    parsing the same files with ``ast.parse`` in one fresh process (time inside the process,
    and wall), interleaved run by run; then ``check`` with a warm result cache (a second run
    over the unchanged tree, the cache primed by an untimed first run)."""
    exe = str(Path(sys.executable).parent / "evalsubmit")
    cli, parse_in, parse_wall, rcs = [], [], [], []
    files = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", PARSE_ALL, str(tree)], capture_output=True, text=True, check=True
        )
        parse_wall.append(time.perf_counter() - t0)
        count, inner = out.stdout.split()
        files = int(count)
        parse_in.append(float(inner))
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [exe, "check", "--no-cache", str(tree)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=_bench_env(),
            start_new_session=True,  # the CLI's pool workers go with it on a timeout
        )
        try:
            rc: int | None = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            rc = None
        cli.append(time.perf_counter() - t0)
        rcs.append(rc)
        shown = f"rc {rc}" if rc is not None else f"TIMEOUT after {timeout_s:.0f} s, killed"
        print(
            f"  [cli] evalsubmit check {cli[-1]:.2f} s ({shown}); "
            f"ast.parse-all {parse_in[-1]:.2f} s in-process, {parse_wall[-1]:.2f} s wall",
            flush=True,
        )
    cli_s, parse_s = statistics.median(cli), statistics.median(parse_in)
    with tempfile.TemporaryDirectory(prefix="evalsubmit-cache-") as cache:
        warm_argv = [exe, "check", "--cache-dir", cache, str(tree)]
        timed_run(warm_argv)  # the first run writes the cache
        warm = [timed_run(warm_argv)[0] for _ in range(runs)]
    warm_s = statistics.median(warm)
    print(f"  [cli] evalsubmit check, warm cache {warm_s:.2f} s (median of {runs})", flush=True)
    return {
        "files": files,
        "runs": runs,
        "timed_out": any(rc is None for rc in rcs),
        "timeout_s": timeout_s,
        "cli_s": cli,
        "cli_rc": rcs,
        "parse_all_in_process_s": parse_in,
        "parse_all_wall_s": parse_wall,
        "cli_median_s": cli_s,
        "parse_all_median_s": parse_s,
        "cli_files_per_s": files / cli_s,
        "parse_files_per_s": files / parse_s,
        "cli_warm_s": warm,
        "cli_warm_median_s": warm_s,
        "cli_warm_files_per_s": files / warm_s,
    }


def _bench_env() -> dict[str, str]:
    """The environment of the timed processes: bytecode is written and read (an installed
    package has it; ``PYTHONDONTWRITEBYTECODE`` would compile every module on every start)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("VIRTUAL_ENV", None)
    return env


def timed_run(argv: list[str], *, cwd: Path | None = None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process and its children, exit code)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env=_bench_env(),
        start_new_session=True,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def _interleaved(cases: dict[str, list[str]], runs: int, label: str) -> dict[str, Any]:
    """Run every case ``runs`` times, the order rotating per run; medians of wall and CPU."""
    names = list(cases)
    for name in names:  # warm-up: bytecode, page cache
        timed_run(cases[name])
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    codes: dict[str, int] = {}
    for i in range(runs):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            w, c, code = timed_run(cases[name])
            wall[name].append(w)
            cpu[name].append(c)
            codes[name] = code
    out = {
        name: {
            "wall_median_s": statistics.median(wall[name]),
            "cpu_median_s": statistics.median(cpu[name]),
            "wall_s": wall[name],
            "cpu_s": cpu[name],
            "exit_code": codes[name],
        }
        for name in names
    }
    for name in names:
        print(
            f"  [{label}] {name:<34} wall {out[name]['wall_median_s'] * 1000:7.0f} ms  "
            f"cpu {out[name]['cpu_median_s'] * 1000:6.0f} ms  (rc {codes[name]})",
            flush=True,
        )
    return out


def bench_startup(plain: Path, job: Path, runs: int) -> dict[str, Any]:
    """``python -c pass`` (the floor of any Python tool), ``evalsubmit --version``, and
    ``evalsubmit check`` of one small file without and with the SDK."""
    exe = str(Path(sys.executable).parent / "evalsubmit")
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "evalsubmit --version": [exe, "--version"],
        "evalsubmit check plain.py": [exe, "check", "--no-cache", str(plain)],
        "evalsubmit check job.py": [exe, "check", "--no-cache", str(job)],
    }
    return _interleaved(cases, runs, "start-up")


def ruff_exe(bin_dir: Path | None) -> str:
    for candidate in (Path(sys.executable).parent / "ruff", (bin_dir or BENCH_VENV) / "ruff"):
        if candidate.exists():
            return str(candidate)
    return "ruff"


def bench_realrepo(tree: Path, runs: int, ruff: str) -> dict[str, Any]:
    """``evalsubmit check`` of a tree where 1 file in 20 uses the SDK, against ruff's rules
    that need no type information (``--select F``) on the same tree; both without their caches,
    and evalsubmit again with a warm result cache (primed by the warm-up run)."""
    exe = str(Path(sys.executable).parent / "evalsubmit")
    files = sum(1 for _ in tree.rglob("*.py"))
    cache = tempfile.mkdtemp(prefix="evalsubmit-cache-")
    cases = {
        "ruff check --select F": [
            ruff,
            "check",
            "--isolated",
            "--select=F",
            "--no-cache",
            str(tree),
        ],
        "evalsubmit check": [exe, "check", "--no-cache", str(tree)],
        "evalsubmit check, warm cache": [exe, "check", "--cache-dir", cache, str(tree)],
    }
    try:
        out = _interleaved(cases, runs, "real repo")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    checked = json.loads(
        subprocess.run(
            [exe, "check", "--no-cache", "--format", "json", str(tree)],
            capture_output=True,
            env=_bench_env(),
        ).stdout
    )
    print(
        f"  [real repo] evalsubmit checked {checked['files_checked']} files, "
        f"{len(checked['findings'])} findings",
        flush=True,
    )
    return {
        "files": files,
        "files_checked": checked["files_checked"],
        "findings": len(checked["findings"]),
        "runs": runs,
        "cases": out,
    }


# -- targets and report -------------------------------------------------------------------------


def targets(
    sizes: dict[str, dict[str, Any]],
    cli: dict[str, Any] | None,
    startup: dict[str, Any] | None = None,
    realrepo: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def get(size: str, server: str, metric: str, *keys: str) -> float | None:
        try:
            value = sizes[size]["servers"][server][metric]
            for key in keys:
                value = value[key] if key else value
            return float(value)
        except (KeyError, TypeError):
            return None

    def add(
        name: str,
        ours: float | None,
        ref: float | None,
        factor: float,
        unit: str,
        limit: float | None = None,
    ) -> None:
        if ours is None or ref is None:
            out.append({"target": name, "status": "not measured"})
            return
        limit = ref * factor if limit is None else limit
        out.append(
            {
                "target": name,
                "ours": ours,
                "reference": ref,
                "limit": limit,
                "ratio": ours / ref if ref else None,
                "unit": unit,
                "status": "PASS" if ours <= limit else "FAIL",
            }
        )

    e = "evalsubmit"
    add(
        "edit->diagnostics median <= 2 x ruff (5,000 lines)",
        get("5000", e, "edit", "median_ms"),
        get("5000", "ruff", "edit", "median_ms"),
        2,
        "ms",
    )
    add(
        "edit->diagnostics median <= 1/10 x basedpyright (5,000 lines)",
        get("5000", e, "edit", "median_ms"),
        get("5000", "basedpyright", "edit", "median_ms"),
        0.1,
        "ms",
    )
    add(
        "edit->diagnostics p95 <= 3 x our median (5,000 lines)",
        get("5000", e, "edit", "p95_ms"),
        get("5000", e, "edit", "median_ms"),
        3,
        "ms",
    )
    for kind in TRACE_KINDS:
        add(
            f"{kind} (typing trace) median <= 2 x ruff's (5,000 lines)",
            get("5000", e, "edit_kinds", kind, "median_ms"),
            get("5000", "ruff", "edit_kinds", kind, "median_ms"),
            2,
            "ms",
        )
    add(
        "typing trace p95 <= 3 x our median (5,000 lines)",
        get("5000", e, "trace", "p95_ms"),
        get("5000", e, "trace", "median_ms"),
        3,
        "ms",
    )
    add(
        "cold first diagnostics <= 2 x null pygls server (5,000 lines)",
        get("5000", e, "cold", "median_ms"),
        get("5000", "null", "cold", "median_ms"),
        2,
        "ms",
    )
    add(
        "hover p95 <= 1 x basedpyright hover p95 (5,000 lines)",
        get("5000", e, "hover", "p95_ms"),
        get("5000", "basedpyright", "hover", "p95_ms"),
        1,
        "ms",
    )
    add(
        "peak RSS after 20,000 lines <= 1.5 x null pygls server",
        get("20000", e, "peak_rss_mib", ""),
        get("20000", "null", "peak_rss_mib", ""),
        1.5,
        "MiB",
    )
    if cli:
        add(
            "CLI check of 1,000 files <= 1.5 x single-process ast.parse of all",
            cli["cli_median_s"],
            cli["parse_all_median_s"],
            1.5,
            "s",
        )
        if cli.get("timed_out"):
            out[-1]["target"] += f" (CLI killed at {cli['timeout_s']:.0f} s: a lower bound)"
            out[-1]["status"] = "FAIL"
        add(
            "CLI 1,000 SDK files, warm cache <= 1.5 x single-process ast.parse of all",
            cli["cli_warm_median_s"],
            cli["parse_all_median_s"],
            1.5,
            "s",
        )

    else:
        out.append({"target": "CLI check of 1,000 files", "status": "not measured"})
    if startup:
        floor = startup["python -c pass"]["wall_median_s"] * 1000
        for case, name in (
            ("evalsubmit --version", "`evalsubmit --version` <= 100 ms (ref: python -c pass)"),
            (
                "evalsubmit check plain.py",
                "`check` of a small file without the SDK <= 100 ms (ref: python -c pass)",
            ),
            (
                "evalsubmit check job.py",
                "`check` of a small SDK job <= 100 ms (ref: python -c pass)",
            ),
        ):
            add(name, startup[case]["wall_median_s"] * 1000, floor, 0, "ms", limit=100.0)
    else:
        out.append({"target": "start-up", "status": "not measured"})
    if realrepo:
        cases = realrepo["cases"]
        add(
            f"real repo ({realrepo['files']:,} files, 1 in 20 uses the SDK): check <= 1.5 x "
            "ruff check --select F",
            cases["evalsubmit check"]["wall_median_s"],
            cases["ruff check --select F"]["wall_median_s"],
            1.5,
            "s",
        )
        add(
            "real repo, warm cache: check <= 1.5 x ruff check --select F",
            cases["evalsubmit check, warm cache"]["wall_median_s"],
            cases["ruff check --select F"]["wall_median_s"],
            1.5,
            "s",
        )
    else:
        out.append({"target": "real repo", "status": "not measured"})
    return out


def _fmt(stat: dict[str, Any], key: str) -> str:
    value = stat.get(key)
    if value is None:
        return "-" if not stat.get("timeouts") else f"{stat['timeouts']} t/o"
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _trace_table(report: dict[str, Any]) -> list[str]:
    """Per file size and server, each kind of edit of the typing trace: median / p95 ms."""
    rows = []
    for size in report["sizes"]:
        for name, s in size["servers"].items():
            kinds = s.get("edit_kinds") or {}
            if not kinds:
                continue
            cells = " | ".join(
                f"{_fmt(kinds[k], 'median_ms')} / {_fmt(kinds[k], 'p95_ms')}" if k in kinds else "-"
                for k in TRACE_KINDS
            )
            rows.append(f"| {size['lines']:,} lines | {name} | {cells} |")
    if not rows:
        return []
    head = " | ".join(TRACE_KINDS)
    return [
        f"\nTyping trace (edits that shift lines), median / p95 ms:\n\n| file | server | {head} |",
        "|---|---|" + "---:|" * len(TRACE_KINDS),
        *rows,
    ]


def table(report: dict[str, Any]) -> str:
    rows = [
        "| file | server | cold ms | edit median ms | edit p95 ms | hover median ms "
        "| hover p95 ms | peak RSS MiB |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for size in report["sizes"]:
        label = f"{size['lines']:,} lines ({size['kib']:.0f} KiB)"
        for name, s in size["servers"].items():
            rss = f"{s['peak_rss_mib']:.0f}" if s["peak_rss_mib"] else "-"
            hover_med = _fmt(s["hover"], "median_ms") if s["hover"].get("n") else "-"
            hover_p95 = _fmt(s["hover"], "p95_ms") if s["hover"].get("n") else "-"
            rows.append(
                f"| {label} | {name} | {_fmt(s['cold'], 'median_ms')} "
                f"| {_fmt(s['edit'], 'median_ms')} | {_fmt(s['edit'], 'p95_ms')} "
                f"| {hover_med} | {hover_p95} | {rss} |"
            )
    cli = report.get("cli")
    lines = ["\n".join(rows)] if report["sizes"] else []
    lines += _trace_table(report)
    if cli:
        over = ">= " if cli.get("timed_out") else ""
        lines.append(
            f"\nCLI, {cli['files']} files: `evalsubmit check` {over}{cli['cli_median_s']:.2f} s "
            f"({cli['cli_files_per_s']:.0f} files/s, wall, process start included) vs "
            f"`ast.parse` of all in one process {cli['parse_all_median_s']:.2f} s "
            f"({cli['parse_files_per_s']:.0f} files/s); medians of {cli['runs']} runs. "
            f"With a warm result cache (the tree unchanged since a first run): "
            f"{cli['cli_warm_median_s']:.2f} s ({cli['cli_warm_files_per_s']:.0f} files/s)."
        )
    startup = report.get("startup")
    if startup:
        lines.append("\n| start-up (one process) | wall median ms | CPU median ms | exit |")
        lines.append("|---|---:|---:|---:|")
        for name, case in startup.items():
            lines.append(
                f"| `{name}` | {case['wall_median_s'] * 1000:.0f} "
                f"| {case['cpu_median_s'] * 1000:.0f} | {case['exit_code']} |"
            )
    realrepo = report.get("realrepo")
    if realrepo:
        lines.append(
            f"\n| real repo: {realrepo['files']:,} files, 1 in 20 uses the SDK | wall median s "
            "| CPU median s | files/s (wall) |"
        )
        lines.append("|---|---:|---:|---:|")
        for name, case in realrepo["cases"].items():
            rate = realrepo["files"] / case["wall_median_s"]
            lines.append(
                f"| `{name}` | {case['wall_median_s']:.2f} | {case['cpu_median_s']:.2f} "
                f"| {rate:.0f} |"
            )
    lines.append("\n| target | ours | reference | limit | ratio | result |")
    lines.append("|---|---:|---:|---:|---:|---|")
    for t in report["targets"]:
        if t["status"] == "not measured":
            lines.append(f"| {t['target']} | | | | | not measured |")
        else:
            lines.append(
                f"| {t['target']} | {t['ours']:.1f} {t['unit']} "
                f"| {t['reference']:.1f} {t['unit']} | {t['limit']:.1f} {t['unit']} "
                f"| {t['ratio']:.2f} | {t['status']} |"
            )
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg_start": os.getloadavg(),
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    bin_dir = BENCH_VENV / "bin" if args.no_lsp else ensure_bench_venv()
    corpus = generate.generate(RESULTS / "corpus", tree=True)
    wanted = set(args.servers.split(",")) if args.servers else None
    specs = server_specs(bin_dir, wanted)
    log_dir = RESULTS / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    sizes = (
        []
        if args.no_lsp
        else ["5000"]
        if args.quick
        else (args.sizes.split(",") if args.sizes else ["500", "5000", "20000"])
    )
    edits = args.edits or (10 if args.quick else 30)
    report: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "mode": "quick" if args.quick else "full",
        "versions": {
            "ruff": tool_version([str(bin_dir / "ruff"), "--version"]),
            "ruff_cli_row": tool_version([ruff_exe(bin_dir), "--version"]),
            "basedpyright": tool_version([str(bin_dir / "basedpyright"), "--version"]),
            "pygls": _dist_version("pygls"),
            "evalsubmit": _dist_version("evalsubmit"),
            "evalsubmit_commit": subprocess.run(
                ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                capture_output=True,
                text=True,
            ).stdout.strip(),
            "server_tree_dirty": bool(
                subprocess.run(
                    ["git", "-C", str(ROOT), "status", "--porcelain", "server/"],
                    capture_output=True,
                    text=True,
                ).stdout.strip()
            ),
        },
        "settings": {"edits": edits, "hovers_per_edit": args.hovers, "debounceMs": 0},
        "sizes": [],
    }
    for key in sizes:
        n = edits
        rounds = 1 if args.quick or key != "5000" else args.cold_rounds
        budget = args.budget_20k if key == "20000" else None
        print(f"== {key} lines: {n} edits, {rounds} cold round(s) ==", flush=True)
        res = await bench_size(
            key,
            corpus[key],
            specs,
            edits=n,
            hovers_per_edit=args.hovers,
            cold_rounds=rounds,
            log_dir=log_dir,
            budget_s=budget,
            trace=key != "20000" and not args.no_trace,
        )
        report["sizes"].append(res.summary())
        report.setdefault("raw", {})[key] = {
            "cold": res.cold,
            "edit": res.edits,
            "hover": res.hovers,
            "trace": res.kinds,
        }
    print("== CLI start-up ==", flush=True)
    startup_runs = args.startup_runs or (5 if args.quick else 15)
    startup = bench_startup(corpus["small_plain"], corpus["small_job"], startup_runs)
    print("== CLI real repo ==", flush=True)
    realrepo = bench_realrepo(
        corpus["realrepo"], args.realrepo_runs or (1 if args.quick else 3), ruff_exe(bin_dir)
    )
    cli = None
    if not args.no_cli:
        print("== CLI, 1,000 SDK files ==", flush=True)
        cli = bench_cli(corpus["tree"], 1 if args.quick else args.cli_runs, args.cli_timeout)
    report["cli"] = cli
    report["startup"] = {k: {**v} for k, v in startup.items()}
    report["realrepo"] = realrepo
    report["targets"] = targets({s["size"]: s for s in report["sizes"]}, cli, startup, realrepo)
    report["machine"]["loadavg_end"] = os.getloadavg()
    return report


def _dist_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5,000 lines, 10 edits, 1 CLI run")
    parser.add_argument("--edits", type=int, default=0, help="edits per file (default 30)")
    parser.add_argument("--hovers", type=int, default=1, help="hovers after each edit")
    parser.add_argument("--cold-rounds", type=int, default=2, help="cold opens (5,000 lines)")
    parser.add_argument(
        "--budget-20k",
        type=float,
        default=60.0,
        help="seconds of edits on the 20,000-line file (at least 4 edits; it is there for "
        "peak RSS, the targets use the 5,000-line file)",
    )
    parser.add_argument("--cli-runs", type=int, default=1)
    parser.add_argument(
        "--cli-timeout", type=float, default=90.0, help="kill `evalsubmit check` after this"
    )
    parser.add_argument("--sizes", help="comma-separated subset of 500,5000,20000")
    parser.add_argument("--servers", help="comma-separated subset of the servers")
    parser.add_argument("--no-cli", action="store_true", help="skip the 1,000 SDK files row")
    parser.add_argument(
        "--no-trace", action="store_true", help="skip the typing trace that shifts lines"
    )
    parser.add_argument(
        "--no-lsp", action="store_true", help="the CLI rows only (no language servers)"
    )
    parser.add_argument("--startup-runs", type=int, default=0, help="default 15 (quick: 5)")
    parser.add_argument("--realrepo-runs", type=int, default=0, help="default 3 (quick: 1)")
    parser.add_argument("--table", type=Path, help="print the table of a stored JSON result")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(args.table.read_text(encoding="utf-8"))))
        return 0
    report = asyncio.run(main_async(args))
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = report["date"].replace(":", "").replace("-", "")
    for name in (f"bench-{report['mode']}-{stamp}.json", f"latest-{report['mode']}.json"):
        (RESULTS / name).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    m = report["machine"]
    print(
        f"\n{report['date']} · {m['nproc']} cores · {m['cpu']} · Python {m['python']} · "
        f"load {m['loadavg_start'][0]:.1f} -> {m['loadavg_end'][0]:.1f}\n"
    )
    print(table(report))
    latest = RESULTS / f"latest-{report['mode']}.json"
    print(f"\nJSON: {latest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
