"""The output formats of ``evalsubmit check``, ruff's names: ``concise`` (the default, one line
per finding), ``full`` (with a code frame), ``json`` (the contract), ``sarif``, ``github``
(workflow commands), ``gitlab`` (Code Quality), and ``--statistics`` (counts per rule).

Every format lists the paths that were not checked (``skipped``), so CI is never falsely green.
Nothing here imports pydantic, httpx or pygls: rendering is plain data to text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evalsubmit.core.findings import Finding

Located = tuple[Path, Finding]
Skipped = tuple[Path, str]
"""A path that was not checked, and why (the shapes of :mod:`evalsubmit.cli.output`)."""
Effect = tuple[Path, int, int]
"""A configuration file, the files it turned every rule off in, the paths it excluded."""

FORMATS = ("concise", "full", "json", "sarif", "github", "gitlab")
DEFAULT_FORMAT = "concise"
LEGACY_FORMATS = {"text": "concise", "json": "json", "sarif": "sarif"}
"""``--format`` (deprecated) values and the ``--output-format`` each stands for."""
TEXT_FORMATS = frozenset({"concise", "full"})
"""Formats read by people: fix summaries and hints are part of them (machine formats get
those on stderr, so their output stays parseable)."""


@dataclass(frozen=True, slots=True)
class Report:
    """What ``check`` found, ready to render in any format."""

    findings: Sequence[Located]
    files_checked: int
    notes: Sequence[str] = ()
    """About the environment (another SDK installed); end of the text summary."""
    skipped: Sequence[Skipped] = ()
    sources: Mapping[Path, Sequence[str]] = field(default_factory=dict)
    """The lines of each checked file (as analysed, after fixes): code frames, fingerprints."""
    cell_sources: Mapping[Path, Mapping[int, Sequence[str]]] = field(default_factory=dict)
    """A notebook's code cells' lines by cell index: a finding with a ``cell`` is framed there."""
    unsafe_fixes: bool = False
    """Whether unsafe fixes count as available (``--unsafe-fixes``)."""
    fix_mode: bool = False
    """``--fix`` or ``--diff`` was given: the summary says what was fixed."""
    fixed: int = 0
    fixed_files: int = 0
    effects: Sequence[Effect] = ()
    """What each configuration file turned off (only those that turned something off)."""


def render(fmt: str, report: Report, *, statistics: bool = False, color: bool = False) -> str:
    """``report`` in format ``fmt`` (one of :data:`FORMATS`); with ``statistics`` the counts per
    rule instead of the findings (a JSON list for ``json``, a table otherwise)."""
    # Each format's module is imported when used: a run renders one format.
    if statistics:
        from evalsubmit.cli.formats import statistics as stats

        return stats.as_json(report) if fmt == "json" else stats.as_table(report)
    if fmt == "full":
        from evalsubmit.cli.formats import full

        return full.as_full(report, color=color)
    if fmt == "github":
        from evalsubmit.cli.formats import github

        return github.as_github(report)
    if fmt == "gitlab":
        from evalsubmit.cli.formats import gitlab

        return gitlab.as_gitlab(report)
    from evalsubmit.cli import output

    findings, skipped, effects = list(report.findings), list(report.skipped), list(report.effects)
    if fmt in ("json", "sarif"):
        return output.render(fmt, findings, report.files_checked, [], skipped, effects)
    text = output.as_text(findings, report.files_checked, list(report.notes), skipped, effects)
    return text + "".join(f"{line}\n" for line in fix_summary(report))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def fix_summary(report: Report) -> list[str]:
    """After ``--fix``: how many were fixed, and how many more ``--unsafe-fixes`` would fix."""
    if not report.fix_mode:
        return []
    lines = []
    if report.fixed:
        lines.append(
            f"Fixed {_plural(report.fixed, 'problem')} in {_plural(report.fixed_files, 'file')}."
        )
    hidden = hidden_unsafe(report)
    if hidden:
        lines.append(
            f"{_plural(hidden, 'more problem')} can be fixed with `--unsafe-fixes` "
            "(see `evalsubmit rule CODE` for why each fix is unsafe)."
        )
    return lines


def hidden_unsafe(report: Report) -> int:
    """Findings whose only fixes are unsafe, when unsafe fixes are not enabled."""
    if report.unsafe_fixes:
        return 0
    return sum(1 for _, f in report.findings if f.fixes and f.applicable_fix() is None)


def relative(path: Path, base: Path) -> str:
    """``path`` relative to ``base`` in POSIX form when it lies under it, else as given: CI
    systems (GitHub, GitLab) resolve report paths against the repository's root."""
    try:
        absolute = path if path.is_absolute() else Path.cwd() / path
        return absolute.relative_to(base).as_posix()
    except (ValueError, OSError):
        return path.as_posix()
