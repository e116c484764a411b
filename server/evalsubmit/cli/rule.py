"""``evalsubmit rule [CODE|NAME] [--all] [--output-format text|json] [--markdown]``: a rule's
documentation (by its code, ``ES101``, or its name, ``mixed-shape``), every rule's (``--all``),
or the list of rules. ``--output-format json`` prints ruff's shape for ``ruff rule``: one
object, or a list of them with ``--all``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from evalsubmit.cli.common import EXIT_CLEAN, EXIT_ERROR

if TYPE_CHECKING:
    from evalsubmit.analysis.rules.registry import Rule

LINTER = "evalsubmit"


def add_parser(commands: Any) -> None:
    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument(
        "code", nargs="?", metavar="RULE", help="a code (ES101) or name (mixed-shape)"
    )
    rule.add_argument("--all", action="store_true", help="every rule's documentation")
    rule.add_argument(
        "--output-format",
        choices=("text", "json"),
        default="text",
        help="text (Markdown, as ruff prints it) or json (ruff's fields)",
    )
    rule.add_argument("--markdown", action="store_true", help="every rule's docs as Markdown")
    rule.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from evalsubmit.analysis.rules import RULES, rules_markdown

    if args.all and args.code:
        print("evalsubmit rule: give a rule or --all, not both", file=sys.stderr)
        return EXIT_ERROR
    if args.markdown:
        sys.stdout.write(rules_markdown())
        return EXIT_CLEAN
    json_out = args.output_format == "json"
    if args.all:
        if json_out:
            print(json.dumps([as_json(rule) for rule in RULES.values()], indent=2))
        else:
            sys.stdout.write("\n".join(as_text(rule) for rule in RULES.values()))
        return EXIT_CLEAN
    if not args.code:
        if json_out:
            print("evalsubmit rule: --output-format json needs a rule or --all", file=sys.stderr)
            return EXIT_ERROR
        for rule in RULES.values():
            print(f"{rule.code}  {rule.kind:<24} {rule.severity:<8} {rule.title}")
        return EXIT_CLEAN
    found = find(args.code)
    if found is None:
        print(
            f"evalsubmit: unknown rule {args.code}; known: {', '.join(RULES)} "
            "(or their names: `evalsubmit rule` lists them)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    if json_out:
        print(json.dumps(as_json(found), indent=2))
    else:
        sys.stdout.write(as_text(found))
    return EXIT_CLEAN


def find(word: str) -> Rule | None:
    """The rule with this code (any case) or name (``mixed-shape``, ``mixed_shape``)."""
    from evalsubmit.analysis.rules import RULES

    by_code = RULES.get(word.strip().upper())
    if by_code is not None:
        return by_code
    name = word.strip().lower().replace("_", "-")
    return next((rule for rule in RULES.values() if rule.kind == name), None)


def as_text(rule: Rule) -> str:
    """ruff's text: a Markdown heading ``# name (CODE)``, then the documentation."""
    fix = _fix(rule)[0]
    return (
        f"# {rule.kind} ({rule.code})\n\n"
        f"Severity: **{rule.severity}**: {rule.title}.\n\n"
        f"{fix}\n\n{rule.docs.strip()}\n"
    )


def as_json(rule: Rule) -> dict[str, Any]:
    """ruff's fields for ``ruff rule --output-format json`` (``linter`` is evalsubmit; no
    ``status``/``source_location``: no preview rules, and the source is not shipped that way),
    and ``severity``/``url``, which ruff's rules do not have."""
    fix, availability = _fix(rule)
    return {
        "name": rule.kind,
        "code": rule.code,
        "linter": LINTER,
        "summary": rule.title,
        "message_formats": [rule.title],
        "fix": fix,
        "fix_availability": availability,
        "explanation": rule.docs.strip() + "\n",
        "preview": False,
        "severity": str(rule.severity),
        "url": rule.url,
    }


def _fix(rule: Rule) -> tuple[str, str]:
    """ruff's words: a fix is offered where the analysis can build one ("sometimes"), and is
    unsafe for some rules (``--unsafe-fixes``)."""
    if rule.fix is None:
        return "Fix is not available.", "None"
    unsafe = " (unsafe: applied with `--unsafe-fixes`)" if rule.fix == "unsafe" else ""
    return f"Fix is sometimes available{unsafe}.", "Sometimes"
