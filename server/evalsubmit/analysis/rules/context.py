"""What a rule's check reads besides its fact: the module's source and where values live."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from evalsubmit.analysis.interp.facts import ModuleFacts
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import Origin
from evalsubmit.core.findings import Finding, Span
from evalsubmit.core.records import Record


class RuleContext(Record, hash=False):
    """What a rule reads (the facts of one group) and where it reports."""

    __slots__ = ("facts", "outside", "parsed", "path", "remote", "reported")
    parsed: ParsedModule
    path: Path | None
    facts: ModuleFacts
    reported: set[tuple[str, Span]]
    remote: list[tuple[Path, Finding]]
    """Findings located in another module (reported in that module's analysis)."""
    outside: Callable[[Path], bool]
    """Whether a module is installed outside the workspace: nothing is reported there."""

    def __init__(
        self,
        parsed: ParsedModule,
        path: Path | None,
        facts: ModuleFacts,
        reported: set[tuple[str, Span]] | None = None,
        remote: list[tuple[Path, Finding]] | None = None,
        outside: Callable[[Path], bool] = lambda _path: False,
    ) -> None:
        self.parsed = parsed
        self.path = path
        self.facts = facts
        self.reported = set() if reported is None else reported
        self.remote = [] if remote is None else remote
        self.outside = outside

    def here(self, origin: Origin | None) -> bool:
        """Whether a value was written in the module being checked."""
        return origin is not None and origin.path == self.path

    def text(self, span: Span) -> str:
        lines = self.parsed.lines
        if span.line == span.end_line:
            return lines[span.line - 1][span.col : span.end_col]
        parts = [lines[span.line - 1][span.col :]]
        parts.extend(lines[span.line : span.end_line - 1])
        parts.append(lines[span.end_line - 1][: span.end_col])
        return "".join(parts)


class ModuleContext(Record):
    """What a module check reads: the module, and what is installed in the user's
    environment."""

    __slots__ = ("installed_sdk", "parsed", "path", "sdk_declared")
    parsed: Final[ParsedModule]
    path: Final[Path | None]
    installed_sdk: Final[Mapping[str, str]]
    """Installed versions of the SDK's distributions (``{"nemo-platform": "0.7.1"}``)."""
    sdk_declared: Final[bool]
    """``installed_sdk`` is the ``sdk-version`` the user declared, not read from the
    environment."""

    def __init__(
        self,
        parsed: ParsedModule,
        path: Path | None,
        installed_sdk: Mapping[str, str] | None = None,
        sdk_declared: bool = False,
    ) -> None:
        self.parsed = parsed
        self.path = path
        self.installed_sdk = {} if installed_sdk is None else installed_sdk
        self.sdk_declared = sdk_declared

    @property
    def tree(self) -> ast.Module:
        """The module's tree, every node at its line: a module check may read any statement,
        and below a line shift the nodes inside the statements not walked move only when
        settled (:meth:`~evalsubmit.analysis.source.parse.ParsedModule.settle`)."""
        self.parsed.settle()
        return self.parsed.tree
