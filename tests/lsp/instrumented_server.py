"""The real server with test-only faults injected from outside the product code.

* a document containing ``# test: sleep=<seconds>`` takes that long to analyse;
* a document containing ``# test: crash-analysis`` makes the analysis raise;
* a hover on a line containing ``BOOM`` raises inside the hover handler;
* a hover on a line containing ``STALL=<seconds>`` blocks the event loop that long.
"""

from __future__ import annotations

import re
import time
from typing import Any

from evalsubmit.analysis import DocumentAnalyzer
from evalsubmit.lsp import hover, run_server

_real_analyze = DocumentAnalyzer.analyze
_real_markdown = hover.hover_markdown


def analyze(self: DocumentAnalyzer, text: str, **kwargs: Any) -> Any:
    if match := re.search(r"# test: sleep=([\d.]+)", text):
        time.sleep(float(match.group(1)))
    if "# test: crash-analysis" in text:
        raise RuntimeError("injected analysis failure")
    return _real_analyze(self, text, **kwargs)


def hover_markdown(snap: Any, line: int, col: int) -> Any:
    if "BOOM" in snap.lines[line - 1]:
        raise RuntimeError("injected hover failure")
    if match := re.search(r"STALL=([\d.]+)", snap.lines[line - 1]):
        time.sleep(float(match.group(1)))  # on the event loop: what a stuck handler does
    return _real_markdown(snap, line, col)


DocumentAnalyzer.analyze = analyze  # type: ignore[method-assign]
hover.hover_markdown = hover_markdown

if __name__ == "__main__":
    raise SystemExit(run_server())
