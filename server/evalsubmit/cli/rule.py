"""``evalsubmit rule [CODE] [--markdown]``: a rule's documentation, or the list of rules."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from evalsubmit.cli.common import EXIT_CLEAN, EXIT_ERROR


def add_parser(commands: Any) -> None:
    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", nargs="?", help="e.g. ES101; omit to list every rule")
    rule.add_argument("--markdown", action="store_true", help="every rule's docs as Markdown")
    rule.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from evalsubmit.analysis.rules import RULES, rules_markdown

    if args.markdown:
        sys.stdout.write(rules_markdown())
        return EXIT_CLEAN
    if not args.code:
        for rule in RULES.values():
            print(f"{rule.code}  {rule.kind:<24} {rule.severity:<8} {rule.title}")
        return EXIT_CLEAN
    found = RULES.get(args.code.upper())
    if found is None:
        print(f"evalsubmit: unknown rule {args.code}; known: {', '.join(RULES)}", file=sys.stderr)
        return EXIT_ERROR
    print(f"{found.code} {found.kind} ({found.severity}): {found.title}\n\n{found.docs}")
    return EXIT_CLEAN
