"""Which files ``evalsubmit check`` (and the server's project listing) reads: Python files, minus
VCS, virtualenvs, caches and what ``.gitignore`` files exclude.

A cache folder is never entered, even without its ``.gitignore``: one named
``.evalsubmit_cache``, one tagged by a ``CACHEDIR.TAG`` holding the standard signature
(https://bford.info/cachedir/), and the folders the caller names (``--cache-dir``).

A workspace can hold anything: a symlink loop, a link out of the tree, a folder nobody may read,
a ``.gitignore`` line that is not a valid glob (``!``, ``foo\\``, ``[z-a]``), a tree thousands of
levels deep, paths longer than the system allows. The walk never raises for any of them: what
it cannot read is skipped, the reason goes to ``on_skip`` (by default a logged warning), and the
walk goes on. It is iterative (no recursion limit), looks at each entry once (no ``resolve()``
per entry), and does not follow links to folders.

A link to a file is judged by its target as well as by its name: a link whose target the
configuration's ``exclude`` or a ``.gitignore`` leaves out is left out as silently as the
target itself (:class:`WalkRules`, which ``check --fix`` asks again before it writes a file).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Final

from evalsubmit.core.records import Record
from evalsubmit.core.sourcefile import UnreadableSource, read_regular_file
from evalsubmit.workspace.globs import GlobError, GlobSet, compile_glob

_BEFORE_FIRST_LOG: list[Callable[[], None]] = []
"""Run once before the first skip is logged: the command line quiets the library's loggers
then (:mod:`logging` is imported by the first skip, not with this module)."""

CACHE_FOLDER_NAME = ".evalsubmit_cache"
CACHEDIR_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55"
SKIPPED_DIRS = frozenset(
    {
        CACHE_FOLDER_NAME,
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        "node_modules",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        "site-packages",
    }
)
SUFFIXES = (".py", ".pyi", ".ipynb")
"""What a folder walk checks: Python files and Jupyter notebooks (as ruff does by default;
``extend-exclude = ["*.ipynb"]`` leaves notebooks out)."""
NOTEBOOK_SUFFIX = ".ipynb"


def is_notebook(path: Path) -> bool:
    """Whether ``path`` names a Jupyter notebook (read by :mod:`.notebook`, not as Python)."""
    return path.suffix.lower() == NOTEBOOK_SUFFIX


MAX_GITIGNORE_BYTES = 1024 * 1024
MAX_TAG_BYTES = 64 * 1024
OnSkip = Callable[[Path, str], None]
Excluded = Callable[[Path, bool], bool]
"""Whether the project's configuration leaves a path out (the path, whether it is a folder)."""


class _Rules(Record):
    """One ``.gitignore``. A path relative to the walked root (POSIX) is under it when it
    starts with ``within`` (the file's folder inside the walk); its patterns see it as
    ``prefix`` + the rest (``prefix``: the walked root's place below a ``.gitignore`` above)."""

    __slots__ = ("prefix", "spec", "within")
    within: Final[str]
    prefix: Final[str]
    spec: Final[GlobSet]

    def __init__(self, within: str, prefix: str, spec: GlobSet) -> None:
        self.within = within
        self.prefix = prefix
        self.spec = spec


def before_logging(hook: Callable[[], None]) -> None:
    """Have ``hook`` run before the first skip is logged (at once if one was)."""
    _BEFORE_FIRST_LOG.append(hook)


def log_skip(path: Path, reason: str) -> None:
    import logging

    while _BEFORE_FIRST_LOG:
        _BEFORE_FIRST_LOG.pop(0)()
    logging.getLogger(__name__).warning("skipped %s: %s", path, reason)


def python_files(
    paths: Iterable[Path],
    on_skip: OnSkip | None = None,
    *,
    excluded: Excluded | None = None,
    force_exclude: bool = False,
    skipped_folders: Iterable[Path] = (),
) -> Iterator[Path]:
    """Files named explicitly are yielded (the reader then refuses what is not a regular
    file, with the reason); folders are walked. ``excluded`` (the configuration's ``exclude``)
    leaves out what the walk finds; a path named explicitly only with ``force_exclude``, as
    ruff does (a pre-commit hook names every changed file). ``skipped_folders`` are never
    walked into (a cache folder inside the tree)."""
    report = on_skip or log_skip
    seen: set[tuple[int, int]] = set()
    rules = WalkRules(excluded)
    skipped = {identity for folder in skipped_folders if (identity := _identity(folder))}
    for path in paths:
        try:
            is_dir = path.is_dir()
        except OSError as error:
            report(path, f"cannot look at it ({_why(error)})")
            continue
        if force_exclude and excluded is not None and _excluded_named(path, is_dir, excluded):
            continue
        if not is_dir:
            if _first_time(path, seen):
                yield path
            continue
        yield from _walk(path, report, seen, excluded, rules, skipped)


def _excluded_named(path: Path, is_dir: bool, excluded: Excluded) -> bool:
    """A path named explicitly, by its name or, for a link to a file, by its target."""
    if excluded(path, is_dir):
        return True
    return not is_dir and os.path.islink(path) and excluded(Path(os.path.realpath(path)), False)


def _walk(
    root: Path,
    report: OnSkip,
    seen: set[tuple[int, int]],
    excluded: Excluded | None,
    judge: WalkRules,
    skipped: set[tuple[int, int]] | None = None,
) -> Iterator[Path]:
    real_root = os.path.realpath(root)
    stack: list[tuple[str, str, tuple[_Rules, ...]]] = [(str(root), "", _rules_above(root, report))]
    visited: set[tuple[int, int]] = set(skipped or ())  # as if seen already: never entered
    while stack:
        folder, relative, rules = stack.pop()
        try:
            info = os.stat(folder)
            if (info.st_dev, info.st_ino) in visited:  # a bind mount or hard-linked folder loop
                continue
            visited.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError as error:
            report(Path(folder), f"cannot read this folder ({_why(error)})")
            continue
        if relative and any(e.name == "CACHEDIR.TAG" for e in entries) and _tagged(folder):
            continue
        if any(e.name == ".gitignore" for e in entries):
            rules = (*rules, *_load_rules(Path(folder) / ".gitignore", relative, report))
        subfolders: list[tuple[str, str, tuple[_Rules, ...]]] = []
        for entry in entries:
            rel = f"{relative}{entry.name}"
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError as error:
                report(Path(entry.path), f"cannot look at it ({_why(error)})")
                continue
            if _ignored(rules, rel, is_dir):
                continue
            if excluded is not None and excluded(Path(entry.path), is_dir):
                continue
            if is_dir:
                if entry.name not in SKIPPED_DIRS and not _is_virtualenv(entry.path):
                    subfolders.append((entry.path, rel + "/", rules))
            elif entry.name.endswith(SUFFIXES):
                found = _python_file(entry.path, is_link, real_root, report)
                if found is None:
                    continue
                # a link is also judged as if met under its target's name (which is inside the
                # walked folder: links out of it are refused)
                if is_link and judge.leaves_out(Path(os.path.realpath(found)), below=real_root):
                    continue
                if _first_time(found, seen):
                    yield found
            elif is_link and entry.name not in SKIPPED_DIRS and _links_to_folder(entry.path):
                report(Path(entry.path), "a link to a folder; links to folders are not followed")
        stack.extend(reversed(subfolders))


def _python_file(path: str, is_link: bool, real_root: str, report: OnSkip) -> Path | None:
    """The file, unless it is a link that loops, dangles or leads out of the walked folder."""
    if not is_link:
        return Path(path)
    target = os.path.realpath(path)
    try:
        os.stat(path)
    except OSError as error:
        report(Path(path), f"a link that cannot be followed ({_why(error)})")
        return None
    if os.path.commonpath([real_root, target]) != real_root:
        report(Path(path), f"a link out of {real_root} (to {target}); not followed")
        return None
    return Path(path)


def _links_to_folder(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def _tagged(folder: str) -> bool:
    """Whether ``folder`` is a cache folder by its ``CACHEDIR.TAG`` (the standard's test: the
    file begins with the signature)."""
    signature = CACHEDIR_SIGNATURE.encode("ascii")
    try:
        tag = read_regular_file(Path(folder, "CACHEDIR.TAG"), max_bytes=MAX_TAG_BYTES)
    except UnreadableSource:
        return False
    return tag.startswith(signature)


def _identity(folder: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(folder)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _first_time(path: Path, seen: set[tuple[int, int]]) -> bool:
    """False for a file already yielded under another name (a link, a repeated argument)."""
    try:
        info = os.stat(path)
    except OSError:
        return True  # the reader says why it cannot be read
    key = (info.st_dev, info.st_ino)
    if key in seen:
        return False
    seen.add(key)
    return True


def _is_virtualenv(folder: str) -> bool:
    return os.path.exists(os.path.join(folder, "pyvenv.cfg")) or os.path.exists(
        os.path.join(folder, "bin", "activate")
    )


def _ignored(rules: tuple[_Rules, ...], rel: str, is_dir: bool) -> bool:
    """Git's rule: the last matching pattern decides, deeper ``.gitignore`` files last."""
    ignored = False
    for rule in rules:
        if not rel.startswith(rule.within):
            continue
        path = rule.prefix + rel[len(rule.within) :]
        include = rule.spec.check(path + "/" if is_dir else path)
        if include is not None:
            ignored = include
    return ignored


def _load_rules(
    gitignore: Path, within: str, report: OnSkip, prefix: str = ""
) -> tuple[_Rules, ...]:
    """The patterns of one ``.gitignore``; a line that is not a valid glob is reported and left
    out, the others still apply."""
    try:
        data = read_regular_file(gitignore, max_bytes=MAX_GITIGNORE_BYTES)
    except UnreadableSource as error:
        report(gitignore, error.reason)
        return ()
    good = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), start=1):
        try:
            glob = compile_glob(line)
        except GlobError as error:
            report(gitignore, f"line {number} {line!r} is not a valid pattern ({error}); ignored")
            continue
        if glob is not None:
            good.append(glob)
    return (_Rules(within, prefix, GlobSet(good)),) if good else ()


def _rules_above(root: Path, report: OnSkip) -> tuple[_Rules, ...]:
    """The nearest ``.gitignore`` above the walked folder, up to the repository's top."""
    if os.path.exists(root / ".git"):
        return ()
    try:
        absolute = os.path.abspath(root)
        for parent in Path(absolute).parents:
            if os.path.isfile(parent / ".gitignore"):
                inside = os.path.relpath(absolute, parent).replace(os.sep, "/") + "/"
                return _load_rules(parent / ".gitignore", "", report, prefix=inside)
            if os.path.exists(parent / ".git"):
                break
    except (OSError, ValueError) as error:
        report(root, f"cannot look above it for a .gitignore ({_why(error)})")
    return ()


def _why(error: BaseException) -> str:
    return getattr(error, "strerror", None) or type(error).__name__


class WalkRules:
    """Whether the walk leaves a file out, asked of the file's real path wherever a walk
    started: a link leads there, or ``check --fix`` is about to replace it.

    The ``.gitignore`` files from the repository's top (the nearest folder above holding
    ``.git``; the filesystem's root outside a repository) down to the file's folder apply, and
    the configuration's ``exclude`` (``excluded``) is asked of each folder on the way below
    ``below`` and of the file itself: a folder left out leaves out everything in it, as the
    walk (which never enters it) and git do. Matching is the walk's own (:func:`_ignored`).
    """

    def __init__(self, excluded: Excluded | None) -> None:
        self._excluded = excluded
        self._gitignores: dict[tuple[str, str], tuple[_Rules, ...]] = {}
        """(folder, top) -> its .gitignore's rules (a nested repository has its own top)."""

    def leaves_out(
        self, path: Path, *, below: str | None = None, is_dir: bool = False
    ) -> str | None:
        """Why ``path`` (a real path, links resolved; a folder when ``is_dir``) is left out;
        None when it is not."""
        absolute = os.path.abspath(path)
        folders = [str(p) for p in reversed(Path(absolute).parents)]  # the root first
        top = next((f for f in reversed(folders) if os.path.lexists(os.path.join(f, ".git"))), "")
        start = folders.index(top) if top else 0
        top = folders[start]
        rules: tuple[_Rules, ...] = ()
        for depth in range(start, len(folders)):
            rules = (*rules, *self._gitignore_in(folders[depth], top))
            entry = folders[depth + 1] if depth + 1 < len(folders) else absolute
            folder = entry != absolute or is_dir
            if _ignored(rules, _relative_to(entry, top), folder):
                return "by a .gitignore"
            inside = below is None or entry.startswith(os.path.join(below, ""))
            if inside and self._excluded is not None and self._excluded(Path(entry), folder):
                return "by the configuration's exclude"
        return None

    def _gitignore_in(self, folder: str, top: str) -> tuple[_Rules, ...]:
        known = self._gitignores.get((folder, top))
        if known is None:
            relative = _relative_to(folder, top)
            within = relative + "/" if relative else ""
            gitignore = os.path.join(folder, ".gitignore")
            # a line that cannot be compiled is left out; the walk reports it when it meets it
            quiet: OnSkip = lambda _path, _why: None  # noqa: E731
            found = os.path.isfile(gitignore)
            known = _load_rules(Path(gitignore), within, quiet) if found else ()
            self._gitignores[folder, top] = known
        return known


def _relative_to(path: str, top: str) -> str:
    """``path`` below ``top``, POSIX-style ("" for ``top`` itself)."""
    relative = os.path.relpath(path, top).replace(os.sep, "/")
    return "" if relative == "." else relative
