"""Work the first hover of a session would otherwise pay for, done once the first result is out.

A hover costs about a millisecond, but the session's first one cost 10 to 25 ms: code that
runs once per process and that nothing before it needed.

* pygls's converter (cattrs) builds, on first use, the function that reads each kind of request
  and the one that writes each kind of answer: about 3 ms to read a hover request and 6 ms to
  write its ``Hover``; 9 ms to read a code action request, which editors send on every move of
  the cursor.
* The preview of a runner with parts that are not statically known (or refused) is rendered
  from the SDK's pydantic models (analysis/target/derive.py), imported on first use: 10 ms
  more.

The first after the session's first result is handed on (the cold diagnostics do not wait for
it), the second after the first result of a document that needs it; both while the editor
shows the diagnostics, before the user can have hovered. A runner whose parts become unknown
only after later edits still pays for the import at its first hover.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import sys
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.protocol.json_rpc import JsonRPCResponseMessage

from evalsubmit.analysis import ModuleReport

if TYPE_CHECKING:
    from evalsubmit.lsp.protocol import EvalsubmitProtocol

log = logging.getLogger(__name__)

SDK_MODELS = "evalsubmit.sdk.models"

_DOC = {"uri": "file:///warm-up.py"}
_RANGE = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}
REQUESTS: dict[str, dict[str, Any]] = {
    types.TEXT_DOCUMENT_HOVER: {"textDocument": _DOC, "position": _RANGE["start"]},
    types.TEXT_DOCUMENT_CODE_LENS: {"textDocument": _DOC},
    types.TEXT_DOCUMENT_CODE_ACTION: {
        "textDocument": _DOC,
        "range": _RANGE,
        "context": {
            "diagnostics": [{"range": _RANGE, "message": "m", "code": "ES100", "source": "s"}]
        },
    },
}
"""One of each request an editor sends as the user moves around a file."""


def _results() -> list[Any]:
    """One of each answer to them, with the classes the real answers hold. The hover last:
    cattrs forgets every function it has built whenever it first meets a list or a mapping
    type (it registers one for it, which empties its cache), and these answers hold both."""
    where = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=1)
    )
    edit = types.WorkspaceEdit(
        changes={_DOC["uri"]: [types.TextEdit(range=where, new_text="x")]},
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=_DOC["uri"], version=1
                ),
                edits=[types.TextEdit(range=where, new_text="x")],
            )
        ],
    )
    diagnostic = types.Diagnostic(
        range=where,
        message="m",
        code="ES100",
        code_description=types.CodeDescription(href="https://example.invalid"),
        severity=types.DiagnosticSeverity.Error,
        source="s",
    )
    return [
        [types.CodeLens(range=where, command=types.Command(title="t", command="c"))],
        [
            types.CodeAction(
                title="t",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                edit=edit,
                command=types.Command(title="t", command="c", arguments=["a"]),
            )
        ],
        types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="x"), range=where
        ),
    ]


def warm_codecs(protocol: EvalsubmitProtocol) -> None:
    """Read one request and write one answer of each kind, as the transport and pygls do (on
    the event loop: the converter is not shared with other threads). Nothing is sent."""
    for method, params in REQUESTS.items():
        protocol.structure_message({"jsonrpc": "2.0", "id": 0, "method": method, "params": params})
    results = _results()
    for result in results + results:  # the second round rebuilds what the first one forgot
        protocol.serialize(JsonRPCResponseMessage(id=0, result=result, jsonrpc="2.0"))


def needs_sdk_models(report: ModuleReport) -> bool:
    """Whether a preview of ``report`` will be rendered with the SDK's models when shown: one
    without a target (a part unknown or refused) whose rendering is deferred."""
    previews = [*report.runners, *(s.target for s in report.submits if s.target is not None)]
    return any(p.target is None and not isinstance(p.render, str) for p in previews)


def warm_sdk_models() -> None:
    """Import the models the deferred rendering uses (in a worker thread: ~10 ms of import)."""
    try:
        importlib.import_module(SDK_MODELS)
    except Exception:  # the hover that needs them will say what is wrong
        log.debug("importing evalsubmit.sdk.models ahead of the first hover failed", exc_info=True)


class WarmUp:
    """Told of every result handed on (on the event loop); schedules each warm-up once, to run
    after the current callback (the result's publication) has finished."""

    def __init__(self, protocol: EvalsubmitProtocol | None, executor: Executor) -> None:
        self._protocol = protocol
        self._executor = executor
        self._codecs_done = protocol is None
        self._models_started = False

    def after_result(self, report: ModuleReport, *, first_of_document: bool) -> None:
        loop = asyncio.get_running_loop()
        if not self._codecs_done:
            self._codecs_done = True
            loop.call_soon(self._warm_codecs)
        # Only a document's first result is looked at: the look reads every preview of the
        # module (0.3 ms for a 5,000-line script), too much to spend on every edit.
        if first_of_document and not self._models_started and SDK_MODELS not in sys.modules:
            loop.call_soon(self._maybe_warm_models, report)

    def _warm_codecs(self) -> None:
        assert self._protocol is not None
        try:
            warm_codecs(self._protocol)
        except Exception:  # only time is lost: the first request builds them itself
            log.debug("warming up the request and answer converters failed", exc_info=True)

    def _maybe_warm_models(self, report: ModuleReport) -> None:
        if self._models_started or not needs_sdk_models(report):
            return
        self._models_started = True
        # Not awaited: it never raises, and nothing waits for it. A pool that is shut down (the
        # server is stopping) refuses it with RuntimeError.
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().run_in_executor(self._executor, warm_sdk_models)
