"""Typing at a person's speed into the real server, with the requests VS Code sends.

VS Code's pattern while someone types (vscode-languageclient 9, pull diagnostics): an
incremental ``didChange`` per keystroke, a ``codeAction`` request for the cursor after each
keystroke (the lightbulb), a ``textDocument/diagnostic`` pull every half second, a
``codeLens`` request after a short pause, and a hover now and then. Nothing waits for an
answer before the next keystroke. Every request is timed from when it was sent to its answer.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient

from evalsubmit.analysis import Project, analyze_source

from .inputs import EXAMPLES
from .lsp_support import open_doc

BASE = EXAMPLES / "nightly_eval.py"
BLOCK = """

def weekly_run_{n}(client: NeMoPlatform, suite: str = "qa/weekly-{n}") -> None:
    cfg = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="configs/weekly.yaml",
        resources_server="mcqa",
        num_repeats={n},
        hydra_params={{"temperature": 0.7, "seeds": list(range(8))}},
    )
    runner = GymAgentTaskRunner(config=cfg)
    job = client.evaluator.submit(tasks=TasksetRef(suite), target=runner, config=None)
    print("weekly job", job.name)
"""
PULL_EVERY_S = 0.5
LENS_AFTER_IDLE_S = 0.3
HOVER_EVERY_S = 3.0


@dataclass
class TypingResult:
    seconds: float
    keystrokes: int = 0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    unanswered: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    final_text: str = ""

    @property
    def worst_s(self) -> float:
        return max((max(v) for v in self.latencies.values() if v), default=0.0)

    def summary(self) -> str:
        lines = [f"typed {self.keystrokes} keystrokes in {self.seconds:.0f} s"]
        for kind, values in sorted(self.latencies.items()):
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            lines.append(
                f"{kind}: {len(values)} answered, median {1000 * statistics.median(values):.0f} ms,"
                f" p95 {1000 * p95:.0f} ms, max {1000 * ordered[-1]:.0f} ms"
            )
        if self.unanswered or self.errors:
            lines.append(f"unanswered: {len(self.unanswered)}, errors: {self.errors[:3]}")
        return "\n".join(lines)


class Typist:
    def __init__(self, client: LanguageClient, path: Path, seed: int) -> None:
        self.client = client
        self.path = path
        self.uri = path.as_uri()
        self.rng = random.Random(seed)
        self.text = BASE.read_text(encoding="utf-8")
        self.version = 1
        self.line = self.text.count("\n")
        self.col = 0
        self.pending: list[asyncio.Task[None]] = []
        self.previous_result: str | None = None

    def _doc(self) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=self.uri)

    def _cursor(self) -> types.Position:
        return types.Position(line=self.line, character=self.col)

    def _change(self, start: types.Position, end: types.Position, text: str) -> None:
        self.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=self.uri, version=self.version
                ),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=start, end=end), text=text
                    )
                ],
            )
        )

    def type_char(self, char: str) -> None:
        at = self._cursor()
        self._change(at, at, char)
        self.text += char
        if char == "\n":
            self.line, self.col = self.line + 1, 0
        else:
            self.col += 1

    def backspace(self) -> None:
        assert self.col > 0
        end = self._cursor()
        self.col -= 1
        self._change(self._cursor(), end, "")
        self.text = self.text[:-1]

    def track(self, kind: str, request: Awaitable[Any], result: TypingResult) -> None:
        sent = time.monotonic()

        async def wait() -> None:
            try:
                answer = await request
            except Exception as error:  # an error answer is an answer, but a wrong one
                result.errors.append(f"{kind}: {error}")
                return
            result.latencies.setdefault(kind, []).append(time.monotonic() - sent)
            if kind == "diagnostic" and isinstance(
                answer, types.RelatedFullDocumentDiagnosticReport
            ):
                self.previous_result = answer.result_id

        self.pending.append(asyncio.ensure_future(wait()))

    def code_action(self, result: TypingResult) -> None:
        at = self._cursor()
        self.track(
            "codeAction",
            self.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=self._doc(),
                    range=types.Range(start=at, end=at),
                    context=types.CodeActionContext(
                        diagnostics=[], trigger_kind=types.CodeActionTriggerKind.Automatic
                    ),
                )
            ),
            result,
        )

    def pull(self, result: TypingResult) -> None:
        self.track(
            "diagnostic",
            self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(
                    text_document=self._doc(), previous_result_id=self.previous_result
                )
            ),
            result,
        )

    def lens(self, result: TypingResult) -> None:
        self.track(
            "codeLens",
            self.client.text_document_code_lens_async(
                types.CodeLensParams(text_document=self._doc())
            ),
            result,
        )

    def hover(self, result: TypingResult) -> None:
        line = self.rng.randrange(max(1, self.line))
        self.track(
            "hover",
            self.client.text_document_hover_async(
                types.HoverParams(
                    text_document=self._doc(), position=types.Position(line=line, character=12)
                )
            ),
            result,
        )


async def type_for(
    client: LanguageClient,
    root: Path,
    seconds: float,
    *,
    chars_per_s: tuple[float, float] = (12.0, 20.0),
    seed: int = 0,
    answer_timeout_s: float = 30.0,
) -> TypingResult:
    """Type blocks of realistic code for ``seconds``; then wait for every answer."""
    path = root / "typing.py"
    typist = Typist(client, path, seed)
    path.write_text(typist.text, encoding="utf-8")
    open_doc(client, path, typist.text)
    result = TypingResult(seconds=seconds)
    began = time.monotonic()
    next_pull = next_hover = began
    block = 0
    while time.monotonic() - began < seconds:
        block += 1
        for char in BLOCK.format(n=block):
            if time.monotonic() - began >= seconds:
                break
            if char.isalpha() and typist.rng.random() < 0.04:  # a typo, seen and corrected
                typist.type_char("x")
                typist.code_action(result)
                await asyncio.sleep(1 / typist.rng.uniform(*chars_per_s))
                typist.backspace()
            typist.type_char(char)
            result.keystrokes += 1
            typist.code_action(result)
            now = time.monotonic()
            if now >= next_pull:
                typist.pull(result)
                next_pull = now + PULL_EVERY_S
            if now >= next_hover:
                typist.hover(result)
                next_hover = now + HOVER_EVERY_S
            pause = 1 / typist.rng.uniform(*chars_per_s)
            if char == "\n" and typist.rng.random() < 0.3:
                pause += LENS_AFTER_IDLE_S + 0.2  # a pause to think: the lens refreshes
                await asyncio.sleep(LENS_AFTER_IDLE_S)
                typist.lens(result)
                pause -= LENS_AFTER_IDLE_S
            await asyncio.sleep(pause)
    _, not_done = await asyncio.wait(typist.pending, timeout=answer_timeout_s)
    result.unanswered = [str(task) for task in not_done]
    for task in not_done:
        task.cancel()
    result.final_text = typist.text
    return result


def expected_codes(path: Path, text: str) -> list[str]:
    report = analyze_source(text, path=path, project=Project(path.parent))
    return sorted(f.code for f in report.findings)


async def final_pull(client: LanguageClient, path: Path) -> list[str]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri())
        )
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport), report
    return sorted(str(d.code) for d in report.items)
