"""The output formats of ``evalsubmit check``, ruff's names: ``concise`` (the default, one line
per finding), ``full`` (with a code frame), ``grouped`` (findings under their file), ``json``
(the contract), ``json-lines`` (one JSON finding a line), ``sarif``, ``github`` (workflow
commands), ``gitlab`` (Code Quality), ``azure`` (Azure Pipelines logging commands), ``junit``
(JUnit XML), ``pylint`` (``path:line: [CODE] message``), ``rdjson`` (reviewdog's diagnostic
format), and ``--statistics`` (counts per rule).

Every format lists the paths that were not checked (``skipped``), so CI is never falsely green.
Nothing here imports pydantic, httpx or pygls: rendering is plain data to text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from evalsubmit.core.records import Record

if TYPE_CHECKING:
    from evalsubmit.core.findings import Finding, Span

# The findings' classes are loaded by the analysis that makes findings: a check of files that
# cannot reach the SDK renders none and never loads them.
Located = tuple[Path, "Finding"]
Skipped = tuple[Path, str]
"""A path that was not checked, and why (the shapes of :mod:`evalsubmit.cli.output`)."""
Effect = tuple[Path, int, int]
"""A configuration file, the files it turned every rule off in, the paths it excluded."""

FORMATS = (
    "concise",
    "full",
    "grouped",
    "json",
    "json-lines",
    "sarif",
    "github",
    "gitlab",
    "azure",
    "junit",
    "pylint",
    "rdjson",
)
DEFAULT_FORMAT = "concise"
LEGACY_FORMATS = {"text": "concise", "json": "json", "sarif": "sarif"}
"""``--format`` (deprecated) values and the ``--output-format`` each stands for."""
TEXT_FORMATS = frozenset({"concise", "full", "grouped"})
"""Formats read by people: fix summaries and hints are part of them (machine formats get
those on stderr, so their output stays parseable)."""


class Report(Record):
    """What ``check`` found, ready to render in any format."""

    __slots__ = (
        "cell_sources",
        "effects",
        "file_ignores",
        "files_checked",
        "findings",
        "fix_mode",
        "fix_only",
        "fixed",
        "fixed_codes",
        "fixed_files",
        "notes",
        "show_fixes",
        "skipped",
        "sources",
        "unsafe_fixes",
    )
    findings: Final[Sequence[Located]]
    files_checked: Final[int]
    notes: Final[Sequence[str]]
    """About the environment (another SDK installed); end of the text summary."""
    skipped: Final[Sequence[Skipped]]
    sources: Final[Mapping[Path, Sequence[str]]]
    """The lines of each checked file (as analysed, after fixes): code frames, fingerprints."""
    cell_sources: Final[Mapping[Path, Mapping[int, Sequence[str]]]]
    """A notebook's code cells' lines by cell index: a finding with a ``cell`` is framed there."""
    unsafe_fixes: Final[bool]
    """Whether unsafe fixes count as available (``--unsafe-fixes``)."""
    fix_mode: Final[bool]
    """``--fix`` or ``--diff`` was given: the summary says what was fixed."""
    fixed: Final[int]
    fixed_files: Final[int]
    effects: Final[Sequence[Effect]]
    """What each configuration file turned off (only those that turned something off)."""
    fixed_codes: Final[Sequence[FixedInFile]]
    """With ``--show-fixes``: what was fixed in each file, per rule."""
    show_fixes: Final[bool]
    fix_only: Final[bool]
    """``--fix-only``: the findings that remain are not reported (only what was fixed)."""
    file_ignores: Final[tuple[int, int, int]]
    """What ``# evalsubmit: ignore-file`` comments hid: findings silenced, files they silenced
    some in, files with every rule off (:mod:`evalsubmit.cli.suppressions`)."""

    def __init__(
        self,
        findings: Sequence[Located],
        files_checked: int,
        notes: Sequence[str] = (),
        skipped: Sequence[Skipped] = (),
        sources: Mapping[Path, Sequence[str]] | None = None,
        cell_sources: Mapping[Path, Mapping[int, Sequence[str]]] | None = None,
        unsafe_fixes: bool = False,
        fix_mode: bool = False,
        fixed: int = 0,
        fixed_files: int = 0,
        effects: Sequence[Effect] = (),
        fixed_codes: Sequence[FixedInFile] = (),
        show_fixes: bool = False,
        fix_only: bool = False,
        file_ignores: tuple[int, int, int] = (0, 0, 0),
    ) -> None:
        self.findings = findings
        self.files_checked = files_checked
        self.notes = notes
        self.skipped = skipped
        self.sources = {} if sources is None else sources
        self.cell_sources = {} if cell_sources is None else cell_sources
        self.unsafe_fixes = unsafe_fixes
        self.fix_mode = fix_mode
        self.fixed = fixed
        self.fixed_files = fixed_files
        self.effects = effects
        self.fixed_codes = fixed_codes
        self.show_fixes = show_fixes
        self.fix_only = fix_only
        self.file_ignores = file_ignores

    @property
    def extra(self) -> tuple[str, ...]:
        """The summary's sentences about what else silenced findings."""
        from evalsubmit.cli.suppressions import sentence

        said = sentence(self.file_ignores)
        return (said,) if said else ()


FixedInFile = tuple[Path, Sequence[tuple[str, str, int]]]
"""A fixed file and, for each rule fixed there, its code, its name and how many."""


def render(fmt: str, report: Report, *, statistics: bool = False, color: bool = False) -> str:
    """``report`` in format ``fmt`` (one of :data:`FORMATS`); with ``statistics`` the counts per
    rule instead of the findings (a JSON list for ``json``, a table otherwise)."""
    # Each format's module is imported when used: a run renders one format.
    if report.fix_only and fmt in TEXT_FORMATS:
        return "".join(f"{line}\n" for line in fix_only_text(report))
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
    if fmt in _MODULES:
        import importlib

        module = importlib.import_module(f"evalsubmit.cli.formats.{_MODULES[fmt]}")
        rendered: str = module.render(report)
        return rendered
    from evalsubmit.cli import output

    findings, skipped, effects = list(report.findings), list(report.skipped), list(report.effects)
    if fmt in ("json", "sarif"):
        checked, ignores = report.files_checked, report.file_ignores
        return output.render(fmt, findings, checked, [], skipped, effects, file_ignores=ignores)
    text = output.as_text(
        findings,
        report.files_checked,
        list(report.notes),
        skipped,
        effects,
        marked=fix_status(report),
        unsafe_fixes=report.unsafe_fixes,
        before_summary=fixes_applied(report),
        extra=report.extra,
    )
    return text + "".join(f"{line}\n" for line in fix_summary(report))


_MODULES = {
    "grouped": "grouped",
    "json-lines": "json_lines",
    "azure": "azure",
    "junit": "junit",
    "pylint": "pylint",
    "rdjson": "rdjson",
}
"""The formats rendered by a module of their own with a ``render(report)`` function."""
SKIPS_ON_STDERR = frozenset({"json-lines", "pylint", "rdjson"})
"""Formats with no place for a path that was not checked: such paths are warned about on
stderr (as ``--statistics`` does), so the run is never silently green."""


def fix_status(report: Report) -> bool:
    """Whether findings are marked ``[*]`` (fixable): not after ``--fix`` (ruff: what could be
    fixed was), and only when some finding has a fix ``--fix`` would apply."""
    return not report.fix_mode and any(
        f.applicable_fix(report.unsafe_fixes) for _, f in report.findings
    )


def mark(finding: Finding, report: Report) -> str:
    """``[*] `` before the message of a finding ``--fix`` fixes (with ``--unsafe-fixes``, any
    fix), as ruff's concise and grouped formats."""
    return "[*] " if finding.applicable_fix(report.unsafe_fixes) else ""


def fixable_line(report: Report) -> list[str]:
    """ruff's last summary line: how many findings ``--fix`` would fix, and how many hidden
    (unsafe) fixes ``--unsafe-fixes`` would add. Nothing after ``--fix`` (the fix summary says
    it) or when no finding has a fix."""
    if report.fix_mode:
        return []
    applicable = sum(1 for _, f in report.findings if f.applicable_fix(report.unsafe_fixes))
    hidden = hidden_unsafe(report)
    if applicable and hidden:
        fixes = "hidden fix" if hidden == 1 else "hidden fixes"
        return [
            f"[*] {applicable} fixable with the `--fix` option ({hidden} {fixes} can be "
            "enabled with the `--unsafe-fixes` option)."
        ]
    if applicable:
        return [f"[*] {applicable} fixable with the `--fix` option."]
    if hidden:
        fixes = "hidden fix" if hidden == 1 else "hidden fixes"
        return [
            f"No fixes available ({hidden} {fixes} can be enabled with the `--unsafe-fixes` "
            "option)."
        ]
    return []


def fixes_applied(report: Report) -> list[str]:
    """``--show-fixes``: every fixed file and how many findings of each rule were fixed in it
    (ruff's ``Fixed 3 errors:`` table), between blank lines; nothing when nothing was fixed."""
    if not (report.show_fixes and report.fixed_codes):
        return []
    total = sum(count for _, table in report.fixed_codes for _, _, count in table)
    width = max(len(str(count)) for _, table in report.fixed_codes for _, _, count in table)
    from evalsubmit.cli.output import near, plural, shown

    lines = ["", f"Fixed {plural(total, 'problem')}:"]
    for path, table in sorted(report.fixed_codes, key=lambda item: str(item[0])):
        lines.append(f"- {shown(near(path))}:")
        for code, name, count in sorted(table, key=lambda row: (-row[2], row[0])):
            lines.append(f"    {count:>{width}} \u00d7 {code} ({name})")  # ruff's times sign
    return [*lines, ""]


def fix_only_text(report: Report) -> list[str]:
    """``--fix-only`` in a text format: the paths not checked (never silent), what was fixed,
    how many more ``--unsafe-fixes`` would fix; never the findings that remain (ruff's)."""
    from evalsubmit.cli.output import skipped_line

    skips = [skipped_line(path, reason) for path, reason in report.skipped]
    return [*skips, *fixes_applied(report), *fix_summary(report)]


def fix_summary(report: Report) -> list[str]:
    """After ``--fix``: how many were fixed, and how many more ``--unsafe-fixes`` would fix;
    otherwise how many findings are fixable (:func:`fixable_line`)."""
    if not report.fix_mode:
        return fixable_line(report)
    from evalsubmit.cli.output import plural

    lines = []
    if report.fixed:
        lines.append(
            f"Fixed {plural(report.fixed, 'problem')} in {plural(report.fixed_files, 'file')}."
        )
    hidden = hidden_unsafe(report)
    if hidden:
        lines.append(
            f"{plural(hidden, 'more problem')} can be fixed with `--unsafe-fixes` "
            "(see `evalsubmit rule CODE` for why each fix is unsafe)."
        )
    return lines


def hidden_unsafe(report: Report) -> int:
    """Findings whose only fixes are unsafe, when unsafe fixes are not enabled."""
    if report.unsafe_fixes:
        return 0
    return sum(1 for _, f in report.findings if f.fixes and f.applicable_fix() is None)


def in_file(finding: Finding) -> tuple[Span, str]:
    """Where a finding is in its file, and its message, for the formats that point at lines of
    the file: no line of a ``.ipynb`` is a cell's, so a notebook finding is placed at line 1
    and its place in the cell is said in the message (as the GitHub and GitLab formats do)."""
    if finding.cell is None:
        return finding.span, finding.message
    from evalsubmit.core.findings import Span

    return Span(1, 0, 1, 0), f"{finding.place}: {finding.message}"


def relative(path: Path, base: Path) -> str:
    """``path`` relative to ``base`` in POSIX form when it lies under it, else as given: CI
    systems (GitHub, GitLab) resolve report paths against the repository's root."""
    try:
        absolute = path if path.is_absolute() else Path.cwd() / path
        return absolute.relative_to(base).as_posix()
    except (ValueError, OSError):
        return path.as_posix()
