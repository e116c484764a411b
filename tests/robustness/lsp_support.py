"""Driving the real language server (``python -m evalsubmit.lsp`` over stdio) with a pytest-lsp
client, inside pytest and from the long commands alike.

``running_server`` starts it in a workspace folder and shuts it down; ``storm`` is the load
test (rapid didChange events across many documents while hovering).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from evalsubmit.analysis import Project, analyze_source

from .inputs import EXAMPLES, example_files

SERVER = [sys.executable, "-P", "-m", "evalsubmit.lsp"]
VERBOSE = bool(os.environ.get("EVALSUBMIT_ROBUSTNESS_VERBOSE"))


def note(message: str) -> None:
    if VERBOSE:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Client(LanguageClient):
    """Keeps every publishDiagnostics (with its version) and every window/logMessage."""

    published: dict[str, list[types.PublishDiagnosticsParams]]


def _record(client: Client, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.setdefault(params.uri, []).append(params)


def _register(client: Client, params: types.RegistrationParams) -> None:
    return None


def make_client() -> Client:
    client = Client(converter_factory=default_converter)
    client.published = {}
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record
    features[types.CLIENT_REGISTER_CAPABILITY] = _register
    register_lsp_features(client, features)
    return client


def capabilities(*, pull: bool = False) -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None
    if caps.text_document.publish_diagnostics is not None:
        caps.text_document.publish_diagnostics.version_support = True
    if not pull:
        caps.text_document.diagnostic = None
    return caps


def server_pid(client: LanguageClient) -> int:
    process = client._server
    assert process is not None, "the server is not running"
    return process.pid


def server_alive(client: LanguageClient) -> bool:
    process = client._server
    return process is not None and process.returncode is None


def rss_kb(pid: int) -> int:
    """VmRSS of a process in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


@contextlib.asynccontextmanager
async def running_server(
    root: Path,
    settings: dict[str, Any] | None = None,
    *,
    command: Sequence[str] = SERVER,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    pull: bool = False,
) -> AsyncIterator[Client]:
    """The server in workspace folder ``root`` with the ``evalsubmit`` section ``settings``."""
    client = make_client()
    client.set_configuration(dict(settings or {}), section="evalsubmit")
    kwargs: dict[str, Any] = {}
    if cwd is not None:
        kwargs["cwd"] = str(cwd)
    if env is not None:
        kwargs["env"] = env
    await client.start_io(command[0], *command[1:], **kwargs)
    note("server started")
    try:
        await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(
                    capabilities=capabilities(pull=pull),
                    root_uri=root.as_uri(),
                    workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
                    initialization_options={"evalsubmit": dict(settings or {})},
                )
            ),
            120,  # a busy shared machine: the server's imports alone took 24 s once
        )
        note("initialized")
        yield client
        if server_alive(client):
            await asyncio.wait_for(client.shutdown_session(), 60)
    finally:
        await stop_server(client)


async def stop_server(client: LanguageClient) -> None:
    """End the server however the test ended: closing its stdin makes it leave (its lifeline),
    and it is killed if it is still there 15 s later (pygls's stop() only waits)."""
    process = client._server
    if process is not None and process.returncode is None:
        with contextlib.suppress(Exception):
            if process.stdin is not None:
                process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 15)
        except TimeoutError:
            process.kill()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.stop(), 15)  # type: ignore[no-untyped-call]


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=version, text=text
            )
        )
    )
    return uri


async def wait_until(predicate: Callable[[], Any], timeout: float, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        if result := predicate():
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"not in {timeout:g} s: {what or predicate}")
        await asyncio.sleep(0.01)


def published_for(
    client: Client, uri: str, version: int | None
) -> types.PublishDiagnosticsParams | None:
    for params in client.published.get(uri, []):
        if params.version == version:
            return params
    return None


async def hover(client: LanguageClient, uri: str, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character),
        )
    )


# -- the storm --------------------------------------------------------------------------------

MARKER = "_storm = 0"


@dataclass
class StormDoc:
    path: Path
    uri: str
    text: str
    """Current text (the example plus a marker line at the end)."""
    version: int
    marker_line: int
    marker: str
    expected: list[tuple[str, int]]
    hover_at: tuple[int, int] | None


@dataclass
class StormResult:
    events: int
    docs: int
    send_s: float
    total_s: float
    hover_latencies_s: list[float] = field(default_factory=list)
    hovers_answered_during_storm: int = 0
    hovers_with_content: int = 0
    rss_warm_kb: int = 0
    rss_end_kb: int = 0
    rss_max_kb: int = 0
    final_published: int = 0

    @property
    def events_per_s(self) -> float:
        return self.events / self.total_s if self.total_s else 0.0

    def summary(self) -> str:
        lat = sorted(self.hover_latencies_s) or [0.0]
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        return "\n".join(
            [
                f"didChange events: {self.events} across {self.docs} documents",
                f"sent in {self.send_s:.1f} s ({self.events / max(self.send_s, 1e-9):.0f}/s); "
                f"all final diagnostics after {self.total_s:.1f} s "
                f"({self.events_per_s:.0f} events/s end to end)",
                f"hovers: {len(self.hover_latencies_s)} answered "
                f"({self.hovers_answered_during_storm} during the storm, "
                f"{self.hovers_with_content} with content); latency median "
                f"{1000 * statistics.median(lat):.0f} ms, p95 {1000 * p95:.0f} ms, "
                f"max {1000 * lat[-1]:.0f} ms",
                f"server RSS: {self.rss_warm_kb / 1024:.1f} MiB after warm-up, "
                f"{self.rss_end_kb / 1024:.1f} MiB at the end (max {self.rss_max_kb / 1024:.1f})",
                f"final versions published: {self.final_published}/{self.docs}",
            ]
        )


def prepare_workspace(root: Path, docs: int) -> list[StormDoc]:
    """Copy the examples into ``root`` and make ``docs`` documents from them (with a marker)."""
    shutil.copytree(EXAMPLES, root, dirs_exist_ok=True)
    sources = [p for p in example_files()]
    written: list[tuple[Path, str]] = []
    for i in range(docs):
        source = sources[i % len(sources)]
        folder = root / source.relative_to(EXAMPLES).parent
        path = folder / f"storm_{i:03d}.py"
        text = source.read_text(encoding="utf-8").rstrip("\n") + "\n" + MARKER + "\n"
        path.write_text(text, encoding="utf-8")
        written.append((path, text))
    # Every file is on disk before any is analysed: the server sees the finished workspace,
    # and a project's listing (modules, conftest files) is read once.
    out: list[StormDoc] = []
    project = Project(root)
    for path, text in written:
        report = analyze_source(text, path=path, project=project)
        expected = sorted((f.code, f.span.line) for f in report.findings)
        hover_at = None
        if report.submits:
            span = report.submits[0].name_span
            hover_at = (span.line - 1, span.col + 1)
        out.append(
            StormDoc(path, path.as_uri(), text, 1, text.count("\n") - 1, MARKER, expected, hover_at)
        )
    return out


def _change(client: LanguageClient, doc: StormDoc, new_marker: str, *, whole: bool) -> None:
    doc.version += 1
    doc.text = doc.text[: doc.text.rindex(doc.marker)] + new_marker + "\n"
    change: types.TextDocumentContentChangeEvent
    if whole:
        change = types.TextDocumentContentChangeWholeDocument(text=doc.text)
    else:
        change = types.TextDocumentContentChangePartial(
            range=types.Range(
                start=types.Position(line=doc.marker_line, character=0),
                end=types.Position(line=doc.marker_line, character=len(doc.marker)),
            ),
            text=new_marker,
        )
    doc.marker = new_marker
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
            content_changes=[change],
        )
    )


def _codes(params: types.PublishDiagnosticsParams) -> list[tuple[str, int]]:
    return sorted((str(d.code), d.range.start.line + 1) for d in params.diagnostics)


async def _send(
    client: LanguageClient, docs: list[StormDoc], events: int, rng: random.Random, batch: int
) -> None:
    for n in range(events):
        doc = docs[rng.randrange(len(docs))] if n % 3 else docs[n % len(docs)]
        _change(client, doc, f"_storm = {n}", whole=n % 100 == 99)
        if n % batch == batch - 1:
            await asyncio.sleep(0.002)


async def _settle(client: Client, docs: list[StormDoc], timeout: float) -> int:
    """Wait until every document's current version is published; check the findings."""

    def done() -> bool:
        return all(published_for(client, d.uri, d.version) is not None for d in docs)

    await wait_until(done, timeout, "the final versions' diagnostics")
    for doc in docs:
        params = published_for(client, doc.uri, doc.version)
        assert params is not None
        assert _codes(params) == doc.expected, (doc.path.name, _codes(params), doc.expected)
    return len(docs)


async def storm(
    client: Client,
    root: Path,
    *,
    events: int,
    docs: int = 50,
    batch: int = 20,
    settle_timeout: float = 120.0,
    seed: int = 0,
) -> StormResult:
    rng = random.Random(seed)
    pid = server_pid(client)
    documents = prepare_workspace(root, docs)
    note("workspace prepared")
    for doc in documents:
        open_doc(client, doc.path, doc.text)
    note(f"opened {len(documents)} documents")
    await _settle(client, documents, settle_timeout)
    note("initial diagnostics published")

    # Warm-up: a tenth of the events, then the server settles; its RSS is the baseline.
    warm = max(1, events // 10)
    await _send(client, documents, warm, rng, batch)
    for doc in documents:  # every document gets a version after the warm-up
        _change(client, doc, f"_storm = 'warm-{doc.version}'", whole=False)
    await _settle(client, documents, settle_timeout)
    note(f"warm-up done ({warm} events)")
    result = StormResult(events=events, docs=docs, send_s=0.0, total_s=0.0)
    result.rss_warm_kb = result.rss_max_kb = rss_kb(pid)

    storming = True
    hoverable = [d for d in documents if d.hover_at is not None]

    async def hover_loop() -> None:
        i = 0
        while storming:
            doc = hoverable[i % len(hoverable)]
            i += 1
            assert doc.hover_at is not None
            began = time.perf_counter()
            answer = await asyncio.wait_for(hover(client, doc.uri, *doc.hover_at), 60)
            result.hover_latencies_s.append(time.perf_counter() - began)
            if storming:
                result.hovers_answered_during_storm += 1
            if answer is not None:
                result.hovers_with_content += 1
            result.rss_max_kb = max(result.rss_max_kb, rss_kb(pid))
            await asyncio.sleep(0.02)

    # The storm lasts from the first event until every final version is published.
    hovering = asyncio.create_task(hover_loop())
    began = time.perf_counter()
    rest = max(0, events - warm - docs)
    await _send(client, documents, rest, rng, batch)
    result.send_s = time.perf_counter() - began
    note(f"storm sent in {result.send_s:.1f} s")
    try:
        result.final_published = await _settle(client, documents, settle_timeout)
        result.total_s = time.perf_counter() - began
        note(f"final versions published after {result.total_s:.1f} s")
    finally:
        storming = False
        await hovering
    result.events = warm + docs + rest
    result.rss_end_kb = rss_kb(pid)
    result.rss_max_kb = max(result.rss_max_kb, result.rss_end_kb)
    return result
