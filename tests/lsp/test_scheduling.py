"""The server never stops answering (docs/reliability.md, "Scheduling").

* storms: 200 full-text edits back to back, each followed by a request (hover, code action,
  code lens, pull diagnostics, or a mix), in push and pull mode: every request is answered and
  the last version's diagnostics are those of a fresh analysis of the final text;
* random interleavings of edits, requests, cancellations, closes and re-opens on several
  documents: every request answered, every open document's final version right;
* the stall watchdog: a blocked event loop leaves the thread stacks in the log.

Each runs ``REPEAT`` times (20 by default: the issue asks for 20 in a row within one run).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from lsp_helpers import (
    HEADER,
    RecordingClient,
    codes,
    open_doc,
    published,
    replace_all,
    wait_until,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from evalsubmit.analysis import Project, analyze_source

REPEAT = int(os.environ.get("EVALSUBMIT_SCHEDULING_REPEAT", "20"))
EDITS = 200
ANSWER_TIMEOUT_S = 60.0
"""Generous: a busy CI machine. The point is that every request is answered at all (before the
fix the server stopped reading messages for good)."""

BODY = (
    HEADER
    + """\

def run_nightly(suite: str) -> None:
    client.evaluator.submit(tasks=TasksetRef(suite), target=runner, metric=metric)
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner, config=cfg)
    client.evaluator.submit(target=runner)
"""
)
SUBMIT_LINE = BODY.count("\n", 0, BODY.index("client.evaluator.submit(tasks=TasksetRef(suite)"))
KINDS = ("hover", "codeAction", "codeLens", "diagnostic")


def _variant(n: int) -> str:
    """The body with an edit that changes the findings now and then (a row option added)."""
    extra = "    client.evaluator.submit(tasks=TasksetRef('qa/x'), target=runner, config=cfg)\n"
    return BODY + (extra if n % 7 == 3 else "") + f"_edit = {n}\n"


def _expected(path: Path, text: str) -> list[str]:
    report = analyze_source(text, path=path, project=Project(path.parent))
    return sorted(f.code for f in report.findings)


def _request(
    client: RecordingClient, kind: str, uri: str, line: int = SUBMIT_LINE
) -> Awaitable[Any]:
    doc = types.TextDocumentIdentifier(uri=uri)
    at = types.Position(line=line, character=14)
    if kind == "hover":
        return client.text_document_hover_async(types.HoverParams(text_document=doc, position=at))
    if kind == "codeAction":
        return client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=doc,
                range=types.Range(start=at, end=at),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
    if kind == "codeLens":
        return client.text_document_code_lens_async(types.CodeLensParams(text_document=doc))
    return client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc))


async def _pull_codes(client: RecordingClient, uri: str) -> list[str]:
    report = await asyncio.wait_for(_request(client, "diagnostic", uri), ANSWER_TIMEOUT_S)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport), report
    return codes(list(report.items))


async def _storm(client: RecordingClient, root: Path, mix: str, seed: int, *, pull: bool) -> None:
    rng = random.Random(seed)
    path = root / f"storm_{mix}_{seed}.py"
    uri = open_doc(client, path, _variant(0))
    kinds = [k for k in KINDS if pull or k != "diagnostic"]
    pending: list[Awaitable[Any]] = []
    for version in range(2, EDITS + 2):
        replace_all(client, uri, _variant(version), version)
        kind = rng.choice(kinds) if mix == "mixed" else mix
        pending.append(_request(client, kind, uri))
        if rng.random() < 0.1:
            await asyncio.sleep(rng.random() * 0.01)  # vary the timing a little
    answers = await asyncio.wait_for(
        asyncio.gather(*pending, return_exceptions=True), ANSWER_TIMEOUT_S
    )
    failures = [a for a in answers if isinstance(a, BaseException)]
    assert not failures, failures[:3]
    final = _variant(EDITS + 1)
    if pull:
        assert await _pull_codes(client, uri) == _expected(path, final)
    else:
        assert codes(await published(client, uri, EDITS + 1)) == _expected(path, final)


def _storm_plan() -> list[tuple[str, int]]:
    """REPEAT storms of the random mix, and a fifth as many of each single kind."""
    single = [(kind, rep) for kind in KINDS for rep in range(max(1, REPEAT // 5))]
    return [("mixed", rep) for rep in range(REPEAT)] + single


async def test_storms_push(client: RecordingClient, workspace: Path) -> None:
    for mix, rep in _storm_plan():
        if mix != "diagnostic":
            await _storm(client, workspace, mix, rep, pull=False)


async def test_storms_pull(pull_client: RecordingClient, workspace: Path) -> None:
    for mix, rep in _storm_plan():
        await _storm(pull_client, workspace, mix, rep, pull=True)


# -- random interleavings ---------------------------------------------------------------------


class Interleaving:
    """A random program of edits, requests, cancellations, closes and re-opens."""

    def __init__(self, client: RecordingClient, root: Path, seed: int, *, docs: int = 3) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.paths = [root / f"doc_{seed}_{i}.py" for i in range(docs)]
        self.texts: dict[Path, str] = {}
        self.versions: dict[Path, int] = {}
        self.open: set[Path] = set()
        self.requests: list[tuple[str, asyncio.Future[Any]]] = []
        self.cancelled: set[str] = set()
        self.counter = 0

    def uri(self, path: Path) -> str:
        return path.as_uri()

    def do_open(self, path: Path) -> None:
        text = _variant(self.rng.randrange(50))
        # a re-opened document goes on counting: results of its earlier life still arrive
        self.texts[path], self.versions[path] = text, self.versions.get(path, 0) + 1
        open_doc(self.client, path, text, version=self.versions[path])
        self.open.add(path)

    def do_edit(self, path: Path) -> None:
        self.versions[path] += 1
        text = _variant(self.rng.randrange(50))
        if self.rng.random() < 0.3:  # a half-typed line now and then
            text += "client.evaluator.submit(tasks=TasksetRef('qa/s'), target=\n"
        self.texts[path] = text
        replace_all(self.client, self.uri(path), text, self.versions[path])

    def do_close(self, path: Path) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri(path))
            )
        )
        self.open.discard(path)

    def do_request(self, path: Path) -> None:
        self.counter += 1
        msg_id = f"req-{self.counter}"
        kind = self.rng.choice(KINDS)
        params: Any = _params(kind, self.uri(path))
        method = {
            "hover": types.TEXT_DOCUMENT_HOVER,
            "codeAction": types.TEXT_DOCUMENT_CODE_ACTION,
            "codeLens": types.TEXT_DOCUMENT_CODE_LENS,
            "diagnostic": types.TEXT_DOCUMENT_DIAGNOSTIC,
        }[kind]
        future = asyncio.ensure_future(
            self.client.protocol.send_request_async(method, params, msg_id=msg_id)
        )
        self.requests.append((msg_id, future))

    def do_cancel(self) -> None:
        waiting = [(i, f) for i, f in self.requests if not f.done() and i not in self.cancelled]
        if waiting:
            msg_id, _ = self.rng.choice(waiting)
            self.cancelled.add(msg_id)
            self.client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))

    async def run(self, steps: int) -> None:
        for path in self.paths:
            self.do_open(path)
        for _ in range(steps):
            path = self.rng.choice(self.paths)
            roll = self.rng.random()
            if path not in self.open:
                self.do_open(path)
            elif roll < 0.40:
                self.do_edit(path)
            elif roll < 0.75:
                self.do_request(path)
            elif roll < 0.90:
                self.do_cancel()
            elif roll < 0.95:
                self.do_close(path)
            else:
                await asyncio.sleep(self.rng.random() * 0.05)
            if self.rng.random() < 0.2:
                await asyncio.sleep(0)

    async def check(self, pull: bool) -> None:
        done, _ = (
            await asyncio.wait([f for _, f in self.requests], timeout=ANSWER_TIMEOUT_S)
            if self.requests
            else (set(), set())
        )
        assert len(done) == len(self.requests), "requests left unanswered"
        for msg_id, future in self.requests:
            error = future.exception()
            # A cancelled request may be answered with its result or with RequestCancelled.
            assert error is None or (
                msg_id in self.cancelled and isinstance(error, JsonRpcException)
            ), (
                msg_id,
                error,
            )
        for path in sorted(self.open):
            expected = _expected(path, self.texts[path])
            if pull:
                assert await _pull_codes(self.client, self.uri(path)) == expected
            else:
                got = await published(self.client, self.uri(path), self.versions[path])
                assert codes(got) == expected, path.name


def _params(kind: str, uri: str) -> Any:
    doc = types.TextDocumentIdentifier(uri=uri)
    at = types.Position(line=SUBMIT_LINE, character=14)
    return {
        "hover": lambda: types.HoverParams(text_document=doc, position=at),
        "codeAction": lambda: types.CodeActionParams(
            text_document=doc,
            range=types.Range(start=at, end=at),
            context=types.CodeActionContext(diagnostics=[]),
        ),
        "codeLens": lambda: types.CodeLensParams(text_document=doc),
        "diagnostic": lambda: types.DocumentDiagnosticParams(text_document=doc),
    }[kind]()


async def test_random_interleavings_push(client: RecordingClient, workspace: Path) -> None:
    for seed in range(REPEAT):
        program = Interleaving(client, workspace, seed)
        await program.run(steps=150)
        await program.check(pull=False)


async def test_random_interleavings_pull(pull_client: RecordingClient, workspace: Path) -> None:
    for seed in range(REPEAT):
        program = Interleaving(pull_client, workspace, 1000 + seed)
        await program.run(steps=150)
        await program.check(pull=True)


# -- bounded waits and the watchdog -----------------------------------------------------------


async def test_a_request_answers_from_the_last_result_when_the_analysis_is_slow(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    text = _variant(0)
    uri = open_doc(client, tmp_path / "slow.py", text)
    first = codes(await published(client, uri, 1))
    replace_all(client, uri, text + "# test: sleep=6\n", 2)
    began = time.monotonic()
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=SUBMIT_LINE, character=14),
        )
    )
    assert time.monotonic() - began < 4.0, "the wait for a fresh result is bounded"
    assert hover is not None, "answered from the last result"
    await wait_until(
        lambda: any("answering from version 1" in m.message for m in client.log_messages)
    )
    assert codes(await published(client, uri, 2, after=0)) == first


async def test_a_stalled_event_loop_logs_the_thread_stacks(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    uri = open_doc(client, tmp_path / "stall.py", HEADER + "x = 1  # STALL=6\n")
    await published(client, uri, 1)
    began = time.monotonic()
    await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=HEADER.count("\n"), character=1),
        )
    )
    assert time.monotonic() - began >= 5.5
    dump = await wait_until(
        lambda: next((m.message for m in client.log_messages if "thread stacks" in m.message), None)
    )
    assert "stopped answering" in dump
    assert "hover_markdown" in dump, "the stack of the stalled loop, pointing at the culprit"
    # and the server goes on serving
    replace_all(client, uri, HEADER, 2)
    assert await published(client, uri, 2) == []
