"""ES111 sdk-version-mismatch: the installed SDK is not the release the rules are for."""

from __future__ import annotations

import ast

from evalsubmit.analysis.rules.context import ModuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import ModuleCheck, Rule, register
from evalsubmit.analysis.source import tree_walk
from evalsubmit.core.findings import Finding, Severity, Span
from evalsubmit.sdk.names import is_sdk_name
from evalsubmit.sdk.releases import SUPPORTED, version_note
from evalsubmit.sdk.version import SDK_DISTRIBUTION

RULE = Rule(
    code="ES111",
    kind="sdk-version-mismatch",
    title="installed SDK differs from the release the rules are for",
    severity=Severity.INFORMATION,
    docs=f"""Every rule states what {SDK_DISTRIBUTION} {SUPPORTED.version} does: its `submit()`
shapes, the fields, defaults and constraints of `GymRuntimeConfig`, the JSON it sends. When the
Python environment you selected (the editor's interpreter, `--python` or the active virtualenv
for `evalsubmit check`) has another version installed, a finding may be missing or no longer
true. Reported once per file that imports the SDK, on its first SDK import, as information; it
never fails `evalsubmit check`. The version is read from the installed package's
`*.dist-info/METADATA`, never by importing it; with no SDK installed nothing is reported.
An `sdk-version` in the project's configuration (`[tool.evalsubmit]`) is compared instead of
the installed version, and the environment is then not read for it.

```python
from nemo_platform import NeMoPlatform  # ES111 (information) with nemo-platform 0.7.1 installed
```

**Fix:** install {SDK_DISTRIBUTION}=={SUPPORTED.version}, or update evalsubmit to a release
whose rules cover yours; `--ignore ES111` (or `"evalsubmit.ignore": ["ES111"]`) hides the note.""",
)


def check(ctx: ModuleContext) -> list[Finding]:
    note = version_note(ctx.installed_sdk, declared=ctx.sdk_declared)
    if note is None:
        return []
    anchor = _first_sdk_import(ctx)
    return [finding(RULE, anchor, note)] if anchor is not None else []


def _first_sdk_import(ctx: ModuleContext) -> Span | None:
    """The first line of the first statement importing the SDK (the note is about it)."""
    imports = [
        node
        for node in tree_walk.walk(ctx.tree)
        if (isinstance(node, ast.Import) and any(is_sdk_name(a.name) for a in node.names))
        or (isinstance(node, ast.ImportFrom) and not node.level and is_sdk_name(node.module or ""))
    ]
    if not imports:
        return None
    first = min(imports, key=lambda node: (node.lineno, node.col_offset))
    span = ctx.parsed.span(first)
    return span if span.end_line == span.line else ctx.parsed.line_span(span.line)


register(RULE, ModuleCheck(1, check))
