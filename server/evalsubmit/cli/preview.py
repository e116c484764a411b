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
    project_root,
    python_option,
)

if TYPE_CHECKING:
    from evalsubmit.analysis import TargetPreview


def add_parser(commands: Any) -> None:
    preview = commands.add_parser("preview", help="print the target JSON for a runner")
    preview.add_argument(
        "location", help="PATH:LINE[:COL] or NOTEBOOK.ipynb:'cell N:LINE[:COL]' (1-based)"
    )
    python_option(preview)
    preview.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from evalsubmit.analysis import Project, analyze_source
    from evalsubmit.cli.notebooks import located
    from evalsubmit.cli.output import shown
    from evalsubmit.core.sourcefile import UnreadableSource, read_source

    location: str = args.location
    parsed = located(location)
    if parsed is None:
        print(
            "evalsubmit: expected PATH:LINE[:COL] or NOTEBOOK.ipynb:cell N:LINE[:COL]",
            file=sys.stderr,
        )
        return EXIT_ERROR
    if isinstance(parsed, str):
        print(f"evalsubmit: {shown(parsed)}", file=sys.stderr)
        return EXIT_ERROR
    path, line, col, text = parsed
    in_cell = text is not None
    if text is None:
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
    from evalsubmit.analysis.runner_at import runner_at

    found = runner_at(report, line, col, text.splitlines())
    if not found.targets:
        reason = found.reason or ""
        if in_cell:  # the reason's line is the joined module's: the location says where
            where = f"line {line}" if col < 0 else f"line {line}, column {col + 1}"
            reason = reason.replace(f" at {where}", " there")
        print(f"evalsubmit: {shown(location)}: {reason}", file=sys.stderr)
        return EXIT_FINDINGS
    single = found.single
    if single is not None:
        if single.submittable:
            print(json.dumps(single.target, indent=2))
            return EXIT_CLEAN
        print(target_text(single))
        for note in notes(single):
            print(note, file=sys.stderr)
        return EXIT_FINDINGS
    print(f"{found.count} different targets are sent from {found.what} (never one of them alone):")
    for index, preview in enumerate(found.targets, start=1):
        where = "; ".join(preview.wheres) or "when the code is run otherwise"
        print(f"\n# target {index} of {found.count}: {where}")
        print(target_text(preview))
        for note in notes(preview):
            print(f"# {note}")
    if found.more:
        print(f"\n# … and {found.more} more different target{'s' if found.more > 1 else ''}")
    return EXIT_FINDINGS


def target_text(preview: TargetPreview) -> str:
    """The JSON that is sent when it is known (with iterators as the [] sent), else the
    rendering with unknown parts as ``<unknown: why>``."""
    if preview.target is not None:
        return json.dumps(preview.target, indent=2)
    return preview.rendered


def notes(preview: TargetPreview) -> list[str]:
    """Why a target is not the one exact, submittable JSON: beside it, never inside it."""
    sent = preview.target is not None  # one-shot iterators: sent as [], a warning
    return [f"{'warning' if sent else 'cannot derive'}: {p}" for p in preview.problems] + [
        f"cannot derive: unknown: {u}" for u in preview.unknowns
    ]
