"""A push's JSON text (lsp/wire.py) is byte for byte what pygls sends of the same diagnostics
made the old way (``convert.diagnostic``, pygls's converter and JSON encoder), push after push:
the pieces a push keeps are reused only while they still hold."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest
from lsprotocol import types

from evalsubmit.analysis import Finding, Project, Severity, Span, analyze_source
from evalsubmit.core.lines import TextLines, line_starts, split_lines
from evalsubmit.lsp import convert, wire
from evalsubmit.lsp.protocol import EvalsubmitProtocol
from evalsubmit.lsp.server import create_server

ROOT = Path(__file__).resolve().parents[2]
URI = "file:///work/job.py"


class Written:
    def __init__(self) -> None:
        self.data: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.data.append(data)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def protocol() -> EvalsubmitProtocol:
    server = create_server()
    assert isinstance(server.protocol, EvalsubmitProtocol)
    return server.protocol


@pytest.fixture(scope="module")
def files() -> list[tuple[str, list[Finding]]]:
    found = []
    for folder in ("tests/contract/idioms", "examples"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            report = analyze_source(text, path=path, project=Project(path.parent))
            if report.findings:
                found.append((text, list(report.findings)))
    odd = [
        Finding("ES999", "made-up", Severity.WARNING, 'm "é\\', Span(1, 4, 1, 7), ()),
        Finding("ES999", "made-up", Severity.ERROR, "m", Span(0, 0, 9, 3), ()),
    ]
    return [*found, ("x = '🙂é'\ny", odd)]


def sent(protocol: EvalsubmitProtocol, send: Callable[[], None]) -> bytes:
    written = Written()
    protocol.set_writer(written)
    send()
    return b"".join(written.data)


def the_old_way(
    protocol: EvalsubmitProtocol,
    findings: Sequence[Finding],
    lines: Sequence[str],
    version: int | None,
    overrides: Mapping[str, str],
    encoding: str,
) -> bytes:
    diagnostics = [
        convert.diagnostic(
            f, lines, version=version, severity_overrides=overrides, encoding=encoding
        )
        for f in findings
    ]
    params = types.PublishDiagnosticsParams(uri=URI, diagnostics=diagnostics, version=version)
    message = types.PublishDiagnosticsNotification(
        method="textDocument/publishDiagnostics", params=params
    )
    return sent(protocol, functools.partial(protocol._send_data, message))


@pytest.mark.parametrize("encoding", [convert.UTF16, convert.UTF8, convert.UTF32])
def test_pushes_are_what_pygls_sends_of_the_idioms_findings(
    protocol: EvalsubmitProtocol, files: list[tuple[str, list[Finding]]], encoding: str
) -> None:
    assert len(files) > 20 and sum(len(f) for _, f in files) > 60
    reused = 0
    for text, findings in files:
        forms = wire.WireForms()
        kept: dict[Finding, object] = {}
        lines = split_lines(text)
        # the same findings on other lines (a stale piece would show), after fewer lines (the
        # clamp past the end), with other overrides (the severity), and as they were
        moved = ["🙂" + line for line in lines]
        steps: list[tuple[Sequence[Finding], Sequence[str], int | None, dict[str, str]]] = [
            (findings, lines, 1, {}),
            (findings, TextLines(text, line_starts(text)), 2, {}),
            (findings, lines, None, {}),
            (findings[::-1], moved, 3, {}),
            (findings, lines[: max(1, len(lines) // 2)], 4, {}),
            (findings, lines, 5, {"ES105": "hint", "ES999": "error", "ES101": "information"}),
            (findings[: len(findings) // 2], lines, 6, {}),
            (findings, lines, 7, {}),
        ]
        for shown, at, version, overrides in steps:
            old = the_old_way(protocol, shown, at, version, overrides, encoding)
            texts = forms.diagnostics(
                shown, at, version=version, severity_overrides=overrides, encoding=encoding
            )
            body = wire.notification(URI, version, texts)
            assert sent(protocol, functools.partial(protocol.send_text, body)) == old
            reused += sum(kept.get(finding) is entry for finding, entry in forms._kept.items())
            kept = dict(forms._kept)
    assert reused > sum(len(f) for _, f in files)  # pieces were kept, and held
