"""Renderings of findings for ``evalsubmit check``: text, the JSON contract, SARIF 2.1.0.

Findings carry 1-based lines and 0-based code-point columns; every format here prints 1-based
columns (``column = span.col + 1``).

A path that was not checked (too large, unparsable, nested too deeply, not a regular file, a
folder that cannot be read, an internal error) is never silent: every format lists it with its
reason, apart from the checked files ("2 skipped"), so that CI is never falsely green.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit import __version__

if TYPE_CHECKING:
    from evalsubmit.core.findings import Finding

JSON_VERSION = 1
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note"}

# the findings' classes are loaded by the analysis that makes findings (none without it)
Located = tuple[Path, "Finding"]
Skipped = tuple[Path, str]
"""A path that was not checked, and why."""
Effect = tuple[Path, int, int]
"""A configuration file that turned something off: files with every rule off, paths excluded."""


def render(
    fmt: str,
    findings: list[Located],
    files_checked: int,
    notes: list[str] | None = None,
    skipped: list[Skipped] | None = None,
    effects: list[Effect] | None = None,
    *,
    file_ignores: tuple[int, int, int] = (0, 0, 0),
) -> str:
    """``notes`` (about the environment, e.g. another SDK installed) end the text summary;
    ``skipped`` lists the paths not checked, with why."""
    skipped = skipped or []
    if fmt == "json":
        import json  # the machine formats only

        data = as_json(findings, files_checked, skipped, effects, file_ignores=file_ignores)
        return json.dumps(data, indent=2) + "\n"
    if fmt == "sarif":
        import json

        return json.dumps(as_sarif(findings, skipped), indent=2) + "\n"
    return as_text(findings, files_checked, notes or [], skipped, effects)


_CONTROL = "[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # compiled (and kept by re) when a finding is shown


def shown(value: object) -> str:
    """``value`` on one line and inert: a file named ``a<newline>b.py`` or ``<ESC>[2J.py`` (a
    hostile workspace) must neither split a finding's line (CI problem matchers read one per
    line) nor drive the terminal. Control characters are written as Python escapes."""
    return re.sub(_CONTROL, lambda m: repr(m.group())[1:-1], str(value))


def skipped_line(path: Path, reason: str) -> str:
    """A path not checked, as the text formats and stderr show it."""
    return f"{shown(path)}: warning: skipped: {shown(reason)}"


def sarif_uri(path: Path) -> str:
    """``path`` as a SARIF ``artifactLocation.uri``: a relative path as a relative reference,
    percent-encoded, so that ``a#b.py`` is no fragment, ``x%41.py`` no ``xA.py``, ``a:b.py`` no
    scheme (``:`` is encoded) and ``my job.py`` a valid URI; an absolute path as a ``file:``
    URI. The bytes of a name that is not UTF-8 are encoded as they are on disk."""
    if path.is_absolute():
        return path.as_uri()
    import os
    from urllib.parse import quote

    return quote(os.fsencode(path.as_posix()), safe="/")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def as_text(
    findings: list[Located],
    files_checked: int,
    notes: list[str] | None = None,
    skipped: list[Skipped] | None = None,
    effects: list[Effect] | None = None,
    *,
    marked: bool = False,
    unsafe_fixes: bool = False,
    before_summary: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> str:
    """The ``concise`` format; with ``marked``, ``[*]`` after the code of each finding that
    ``--fix`` (with ``unsafe_fixes``: ``--fix --unsafe-fixes``) fixes, as ruff marks them."""
    lines = [
        f"{shown(path)}:{f.place}: {f.code} "
        f"{'[*] ' if marked and f.applicable_fix(unsafe_fixes) else ''}{shown(f.message)}"
        for path, f in findings
    ]
    lines += before_summary
    lines += text_tail(findings, files_checked, notes, skipped, effects, extra=extra)
    return "\n".join(lines) + "\n"


def text_tail(
    findings: list[Located],
    files_checked: int,
    notes: list[str] | None = None,
    skipped: list[Skipped] | None = None,
    effects: list[Effect] | None = None,
    *,
    extra: Sequence[str] = (),
) -> list[str]:
    """What ends the text formats (``concise``, ``full``, statistics): the skipped paths, the
    summary (with what configuration files turned off: a clean run that checked nothing must
    not read like a clean run that checked everything), the notes."""
    skipped = skipped or []
    lines = [skipped_line(path, reason) for path, reason in skipped]
    if findings:
        with_problems = len({path for path, _ in findings})
        summary = f"Found {plural(len(findings), 'problem')} in {plural(with_problems, 'file')}"
    elif skipped:
        summary = f"No problems found in {plural(files_checked, 'file')} checked"
    elif files_checked == 0:
        summary = "No Python files found: nothing was checked"  # never "All checks passed"
    else:
        summary = f"All checks passed ({plural(files_checked, 'file')})"
    if skipped:
        summary += f"; {len(skipped)} skipped, not checked (see the warnings above)"
    # ``extra``: what else silenced findings (``# evalsubmit: ignore-file``), said as plainly
    lines.append(" ".join([summary + ".", *map(effect_sentence, effects or []), *extra]))
    lines += [f"Note: {shown(note)}." for note in notes or []]
    return lines


def effect_sentence(effect: Effect) -> str:
    """``Configuration sub/evalsubmit.toml turned off every rule in 3 files and excluded 4
    paths.``"""
    file, silenced, excluded = effect
    did = [f"turned off every rule in {plural(silenced, 'file')}"] if silenced else []
    did += [f"excluded {plural(excluded, 'path')}"] if excluded else []
    return f"Configuration {shown(near(file))} {' and '.join(did)}."


def near(file: Path) -> str:
    """``file`` relative to the current folder when under it (as the findings' paths are)."""
    try:
        return str(file.relative_to(Path.cwd()))
    except ValueError:
        return str(file)


def as_json(
    findings: list[Located],
    files_checked: int,
    skipped: list[Skipped] | None = None,
    effects: list[Effect] | None = None,
    *,
    file_ignores: tuple[int, int, int] = (0, 0, 0),
) -> dict[str, Any]:
    skipped = skipped or []
    hidden, files, all_off = file_ignores
    return {
        "version": JSON_VERSION,
        "files_checked": files_checked,
        "files_skipped": len(skipped),
        "skipped": [{"path": str(path), "reason": reason} for path, reason in skipped],
        "configuration_effects": [
            {"file": str(file), "files_all_rules_off": silenced, "paths_excluded": excluded}
            for file, silenced, excluded in effects or []
        ],
        "file_suppressions": {
            "findings_silenced": hidden,
            "files": files,
            "files_all_rules_off": all_off,
        },
        "findings": [finding_json(path, f) for path, f in findings],
    }


def finding_json(path: Path, f: Finding) -> dict[str, Any]:
    """One finding of the JSON contract (also each line of ``json-lines``): where (1-based
    lines and columns), what, the rule's documentation ``url``, and ruff's ``fix`` (the first
    fix offered, whatever its applicability, which it states; null when there is none)."""
    from evalsubmit.analysis.rules import RULES  # the rules' docs (loads the analysis)

    rule = RULES.get(f.code)
    fix = f.fixes[0] if f.fixes else None
    return {
        "path": str(path),
        "line": f.span.line,
        "column": f.span.col + 1,
        "end_line": f.span.end_line,
        "end_column": f.span.end_col + 1,
        "code": f.code,
        "kind": f.kind,
        "severity": str(f.severity),
        "message": f.message,
        "url": rule.url if rule is not None else None,
        **({} if f.cell is None else {"cell": f.cell + 1}),
        "fix": None
        if fix is None
        else {
            "applicability": str(fix.applicability),
            "message": fix.title,
            "edits": [
                {
                    "content": edit.new_text,
                    "location": {"row": edit.span.line, "column": edit.span.col + 1},
                    "end_location": {"row": edit.span.end_line, "column": edit.span.end_col + 1},
                }
                for edit in fix.edits
            ],
        },
    }


def as_sarif(findings: list[Located], skipped: list[Skipped] | None = None) -> dict[str, Any]:
    from evalsubmit.analysis.rules import RULES  # the rules' docs (loads the analysis)

    rules = [
        {
            "id": rule.code,
            "name": rule.kind,
            "shortDescription": {"text": rule.title},
            "fullDescription": {"text": rule.docs.split("\n\n")[0]},
            "help": {"text": rule.docs, "markdown": rule.docs},
            "helpUri": rule.url,
            "defaultConfiguration": {"level": _SARIF_LEVEL[str(rule.severity)]},
        }
        for rule in RULES.values()
    ]
    index = {rule.code: i for i, rule in enumerate(RULES.values())}
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[str(f.severity)],
            "message": {"text": f.message if f.cell is None else f"{f.place}: {f.message}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": sarif_uri(path)},
                        "region": _sarif_region(f),
                    }
                }
            ],
            **({} if f.cell is None else {"properties": _sarif_cell(f)}),
        }
        for path, f in findings
    ]
    driver = {
        "name": "evalsubmit",
        "version": __version__,
        "informationUri": RULES_URI,
        "rules": rules,
    }
    # SARIF's place for "a file was not analysed": a warning notification of the invocation.
    notifications = [
        {
            "level": "warning",
            "message": {"text": f"skipped, not checked: {reason}"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": sarif_uri(path)}}}],
        }
        for path, reason in skipped or []
    ]
    invocation = {"executionSuccessful": True, "toolExecutionNotifications": notifications}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "results": results}],
    }


RULES_URI = "https://github.com/evalsubmit/evalsubmit#rules"


def _sarif_region(f: Finding) -> dict[str, int]:
    if f.cell is not None:  # no line of the .ipynb file is the cell's: the message says where
        return {"startLine": 1, "startColumn": 1}
    return {
        "startLine": f.span.line,
        "startColumn": f.span.col + 1,
        "endLine": f.span.end_line,
        "endColumn": f.span.end_col + 1,
    }


def _sarif_cell(f: Finding) -> dict[str, int]:
    """A notebook finding's place in its cell (a SARIF property bag)."""
    assert f.cell is not None
    return {
        "cell": f.cell + 1,
        "cellLine": f.span.line,
        "cellColumn": f.span.col + 1,
        "cellEndLine": f.span.end_line,
        "cellEndColumn": f.span.end_col + 1,
    }
