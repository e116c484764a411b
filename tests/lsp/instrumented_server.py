"""The real server with test-only faults injected from outside the product code.

* a document containing ``# test: sleep=<seconds>`` takes that long to analyse;
* a module containing ``# test: slow-module=<seconds>`` takes that long to analyse wherever it
  is analysed, also as an importer of the document being checked (read from disk);
* a document containing ``# test: slow-summaries=<seconds>`` takes that long to make the
  runner previews of each group of facts with a runner in it (after its findings are known);
* a document containing ``# test: order-log=<file>`` appends to that file, each time an
  analysis hands its findings on early, whether they had been published when it goes on;
* a document containing ``# test: crash-analysis`` makes the analysis raise;
* a hover on a line containing ``BOOM`` raises inside the hover handler;
* a hover on a line containing ``STALL=<seconds>`` blocks the event loop that long;
* with ``EVALSUBMIT_TEST_SPAWN_LOG=<file>`` in its environment, every attempt of the server to
  start a process (the audit events of ``subprocess``, ``os.exec*``, ``os.posix_spawn``,
  ``os.fork``, ``os.system``) is appended to that file.
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import Any

from evalsubmit.analysis import DocumentAnalyzer
from evalsubmit.analysis.engine import analyze as engine
from evalsubmit.analysis.engine import summaries
from evalsubmit.lsp import hover, publishing, run_server

_real_analyze = DocumentAnalyzer.analyze
_real_markdown = hover.hover_markdown
_real_module = engine.analyze_module
_real_previews = summaries.runner_previews  # imported by the analysis when it makes them
_real_publish = publishing.Publisher._publish
_real_publish_text = publishing.Publisher._publish_text
_publishes = [0]
"""How many diagnostics notifications the server has sent."""


def analyze(self: DocumentAnalyzer, text: str, **kwargs: Any) -> Any:
    found = re.search(r"# test: order-log=(\S+)", text)
    handed_on = kwargs.get("on_findings")
    if found and handed_on is not None:

        def on_findings(report: Any) -> None:
            before = _publishes[0]
            handed_on(report)  # what the analysis does next runs as soon as this returns
            # this analysis's own publish, read before the file is opened (that releases the GIL)
            published = _publishes[0] > before
            with open(found.group(1), "a", encoding="utf-8") as log:
                log.write(f"published before the summaries: {published}\n")

        kwargs["on_findings"] = on_findings
    if match := re.search(r"# test: sleep=([\d.]+)", text):
        time.sleep(float(match.group(1)))
    if "# test: crash-analysis" in text:
        raise RuntimeError("injected analysis failure")
    return _real_analyze(self, text, **kwargs)


def analyze_module(source: str, **kwargs: Any) -> Any:
    if match := re.search(r"# test: slow-module=([\d.]+)", source):
        time.sleep(float(match.group(1)))
    return _real_module(source, **kwargs)


def runner_previews(ctx: Any) -> Any:
    text = "".join(ctx.parsed.lines)
    if ctx.facts.constructions and (match := re.search(r"# test: slow-summaries=([\d.]+)", text)):
        time.sleep(float(match.group(1)))
    return _real_previews(ctx)


def publish(self: Any, uri: str, version: int | None, items: Any) -> None:
    _real_publish(self, uri, version, items)
    _publishes[0] += 1


def publish_text(self: Any, uri: str, version: int | None, items: Any) -> None:
    _real_publish_text(self, uri, version, items)
    _publishes[0] += 1


def hover_markdown(snap: Any, line: int, col: int, config: Any = None) -> Any:
    if "BOOM" in snap.lines[line - 1]:
        raise RuntimeError("injected hover failure")
    if match := re.search(r"STALL=([\d.]+)", snap.lines[line - 1]):
        time.sleep(float(match.group(1)))  # on the event loop: what a stuck handler does
    return _real_markdown(snap, line, col, config)


SPAWNING = ("subprocess.Popen", "os.posix_spawn", "os.exec", "os.fork", "os.system", "os.spawn")


def _log_spawns(path: str) -> None:
    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event.startswith(SPAWNING):
            with open(path, "a", encoding="utf-8") as log:
                log.write(f"{event} {args[:2]!r}\n")

    sys.addaudithook(hook)


if spawn_log := os.environ.get("EVALSUBMIT_TEST_SPAWN_LOG"):
    _log_spawns(spawn_log)
DocumentAnalyzer.analyze = analyze  # type: ignore[method-assign]
engine.analyze_module = analyze_module
summaries.runner_previews = runner_previews
publishing.Publisher._publish = publish  # type: ignore[method-assign]
publishing.Publisher._publish_text = publish_text  # type: ignore[method-assign]
hover.hover_markdown = hover_markdown

if __name__ == "__main__":
    raise SystemExit(run_server())
