"""``evalsubmit preview PATH:LINE[:COL]``: the target JSON the SDK would send for a runner."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from evalsubmit.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    interpreter,
    parse_location,
    project_root,
    python_option,
)

if TYPE_CHECKING:
    from evalsubmit.analysis import ModuleReport, TargetPreview


def add_parser(commands: Any) -> None:
    preview = commands.add_parser("preview", help="print the target JSON for a runner")
    preview.add_argument("location", help="PATH:LINE[:COL] (1-based)")
    python_option(preview)
    preview.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from evalsubmit.analysis import Project, analyze_source
    from evalsubmit.cli.output import shown
    from evalsubmit.core.sourcefile import UnreadableSource, read_source

    location: str = args.location
    parsed = parse_location(location)
    if parsed is None:
        print("evalsubmit: expected PATH:LINE[:COL]", file=sys.stderr)
        return EXIT_ERROR
    path, line, col = parsed
    try:
        text = read_source(path).text
    except UnreadableSource as error:
        print(f"evalsubmit: cannot read {shown(path)}: {shown(error.reason)}", file=sys.stderr)
        return EXIT_ERROR
    python = interpreter(args.python)
    if python is None:
        return EXIT_ERROR
    # Only this file's values make its preview: the files importing it are not analysed (in a
    # large project that is most of the cost, for findings preview does not print).
    project = Project(project_root(path), python=python)
    report = analyze_source(text, path=path, project=project, reverse=False)
    preview = preview_on_line(report, line, col)
    if preview is None:
        print(f"evalsubmit: no runner or target= at {shown(location)}", file=sys.stderr)
        return EXIT_FINDINGS
    if preview.submittable:
        print(json.dumps(preview.target, indent=2))
        return EXIT_CLEAN
    print(preview.rendered)
    for reason in (*preview.problems, *(f"unknown: {u}" for u in preview.unknowns)):
        print(f"cannot derive: {reason}", file=sys.stderr)
    return EXIT_FINDINGS


def preview_on_line(report: ModuleReport, line: int, col: int) -> TargetPreview | None:
    """The runner or ``target=`` at (line, col), or the first one spanning ``line`` (col -1)."""
    if col >= 0:
        return report.preview_at(line, col)
    candidates = [p for p in report.runners if p.span.line <= line <= p.span.end_line]
    candidates += [
        s.target for s in report.submits if s.target and s.span.line <= line <= s.span.end_line
    ]
    return candidates[0] if candidates else None
