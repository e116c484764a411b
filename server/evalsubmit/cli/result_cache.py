"""``evalsubmit check``'s persistent cache of each file's results, on by default (as ruff's and
mypy's): a run over a tree where few files changed costs little more than reading the files.

A cached result is used only when a fresh analysis could not give another one. Its entry
(:mod:`.cache_codec`) holds a key that must equal the run's, field by field:

* the cache format, evalsubmit's version and a stamp of its installed code (a changed checker
  may answer differently);
* the file's real path, the digest of its text and the project root;
* the analysis options (``select``, ``ignore``, limits, ``sdk-version``...);
* the environment's stamp (the interpreter and its installed packages, as the editor's caches
  use it);

and every observation the analysis made of other files (:mod:`evalsubmit.workspace.observed`):
the texts of the modules it read, directly or through other modules, by digest, and the
answers of the module lookups it made, those that found nothing included, and the answers to
its questions about files it need not have read (which other files may store a module
attribute it read, which members subclasses elsewhere define:
:mod:`evalsubmit.analysis.interp.questions`; a file edited to import the module and store
the attribute or subclass the class changes the answer). Each is asked again on a hit; one
different answer makes the entry a miss. Modification times are never trusted across runs.

Results that depend on something not noted (an internal error, an incomplete journal) are
not kept. ``--fix``/``--diff`` and stdin neither read nor write the cache; ``--no-cache``
turns it off. A corrupt, foreign or unreadable entry is a miss and is rewritten; a cache
folder that cannot be written or is a link, or a key that cannot be read or made, turns the
cache off for the run with one warning.

Where it lives, as ruff's ``.ruff_cache``: ``.evalsubmit_cache/`` at the project root (or
``--cache-dir``/``$EVALSUBMIT_CACHE_DIR``) holds a ``.gitignore`` (``*``: git never sees it),
a ``CACHEDIR.TAG`` (backup tools skip it) and one folder per cache format and evalsubmit
version, in which each checked source file has one entry, named by its real path: a new result
overwrites the old one, so the cache grows with the number of files, not of runs. Entries of
files that no longer exist, and the folders of other versions, are removed at most once a day.
Every entry is written to a temporary file in the same folder and renamed over the old one
(atomic on POSIX and Windows): concurrent runs and worker processes never see half an entry,
and the last writer wins.

The folder may have come with the repository, so it is trusted for nothing:

* an entry is used only when its code verifies with the user's key, made for this very folder
  (:mod:`.cache_codec`): one edited, committed, or copied from another machine or folder is a
  miss and is rewritten;
* the cache folder and its versioned folder must be real folders, not links (a link is
  refused: the run caches nothing, with one warning); entries are opened without following a
  link (``O_NOFOLLOW``), only regular files are read, and at most
  :data:`.cache_folder.MAX_ENTRY_BYTES` (:mod:`.cache_folder` does all of this);
* what is written replaces a file by renaming over it, so a link in the way is replaced, never
  written through;
* only what is provably ours is deleted: an entry whose code verifies with the user's key,
  the marker of the last prune, a stale temporary file of this user; a versioned folder of
  another version only when it is a real folder holding our owner mark.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.cli import cache_codec as codec
from evalsubmit.cli.cache_folder import (
    CACHE_FORMAT,
    MAX_ENTRY_BYTES,
    prepare,
    prune_when_due,
    read_entry,
    write_atomically,
)
from evalsubmit.cli.projects import project_of, resolved_file, root_of
from evalsubmit.core.records import record
from evalsubmit.workspace import observed as obs
from evalsubmit.workspace.walk import CACHE_FOLDER_NAME

if TYPE_CHECKING:
    from evalsubmit.analysis import AnalysisOptions
    from evalsubmit.core.findings import Finding
    from evalsubmit.workspace.project import Project

_ROOT_MARKERS = ("pyproject.toml", ".git", "setup.py")
"""What makes a folder a project root (as `common.project_root` finds one)."""


@record
class CachedResult:
    """A file's result as kept by the result cache."""

    findings: list[Finding]
    remote: tuple[tuple[Path, Finding], ...]
    skipped: str | None
    suppressed: list[Finding]
    """The findings suppression comments silenced."""
    text: str
    """The file's text, as the analysis would have read it (for the report's lines)."""


class ResultCache:
    """The cache of one run: lookups before the analysis, stores after it."""

    def __init__(self, fixed: Path | None, python: Path) -> None:
        self._fixed = fixed
        self._python = python
        self._folders: dict[Path, Path | None] = {}
        """Cache folder -> its versioned folder, once prepared (None: not usable; nothing is
        read or written there this run)."""
        self._secret: bytes | None = None
        """The user's key (:mod:`.cache_key`), read once per run, at the first lookup (the
        analysis's worker processes never use the cache: they need no key)."""
        self._keyless = False
        """The key could not be read or made: nothing is cached this run."""
        self._answers: dict[tuple[Path | None, str, str], str | None] = {}
        """The answer to each observation's question this run, by project root."""
        self._warned = False
        self._roots: dict[Path, Path] = {}
        """Project root -> its cache folder."""

    # -- where ------------------------------------------------------------------------------

    def root_for(self, path: Path) -> Path:
        """The cache folder of a checked file: the fixed one, else at its project root (at the
        current folder for a file in no project, as ruff does)."""
        if self._fixed is not None:
            return self._fixed
        root = root_of(path)
        folder = self._roots.get(root)
        if folder is None:
            marked = any(os.path.exists(root / marker) for marker in _ROOT_MARKERS)
            folder = (root if marked else Path.cwd()) / CACHE_FOLDER_NAME
            self._roots[root] = folder
        return folder

    def _entry(self, path: Path) -> tuple[Path, bytes, str] | None:
        """The file's versioned cache folder, its key, and its entry's name there (None: the
        cache is off for this file)."""
        root = self.root_for(path)
        if root not in self._folders:
            self._folders[root] = None
            secret = self._user_secret()
            if secret is not None:
                try:
                    self._folders[root] = prepare(root, secret)
                except OSError as error:
                    self._cannot_cache(root, error)
        folder = self._folders[root]
        if folder is None or self._secret is None:
            return None
        return folder, self._secret, f"{obs.text_digest(str(resolved_file(path)))}.json"

    def _user_secret(self) -> bytes | None:
        if self._secret is None and not self._keyless:
            try:
                self._secret = codec.load_key()
            except codec.NoKey as error:
                self._keyless = True
                self._warn(error.path, error.reason)
        return self._secret

    # -- lookups ----------------------------------------------------------------------------

    def lookup(self, path: Path, options: AnalysisOptions) -> CachedResult | None:
        """The file's cached result when a fresh analysis could give no other (None: a miss)."""
        from evalsubmit.core.sourcefile import UnreadableSource, read_source

        place = self._entry(path)
        if place is None:
            return None
        folder, secret, name = place
        data = read_entry(folder / name)
        body = codec.verified(secret, folder, name, data) if data is not None else None
        if body is None:
            return None  # rewritten after the analysis
        try:
            # as the analysis reads it (check_analysis._analyse_one): the same bytes, the same limit
            source = read_source(path, max_bytes=4 * options.max_chars).text
        except UnreadableSource:
            return None  # analysed: that says why it is skipped
        try:
            return self._valid(path, options, body, source)
        except (ValueError, KeyError, TypeError, RecursionError):
            return None  # not what this version writes: a miss, rewritten after the analysis

    def _valid(
        self, path: Path, options: AnalysisOptions, body: bytes, source: str
    ) -> CachedResult | None:
        key, entry = codec.entry_key(body)
        project = project_of(path, self._python)
        if key != self._key(path, project, options, obs.text_digest(source)):
            return None
        for kind, question, answer in codec.decode_observations(entry):
            if not self._holds(project, kind, question, answer):
                return None
        return CachedResult(*codec.decode_result(entry), source)

    def _holds(self, project: Project, kind: str, key: str, answer: str | None) -> bool:
        """Whether asking again gives the answer the analysis got (each question is asked
        once per run: many files import the same modules)."""
        asked = (project.root, kind, key)
        if asked not in self._answers:
            self._answers[asked] = (
                _question_answer(project, kind, key)
                if kind in obs.QUESTION_KINDS
                else obs.answer_now(project, kind, key)
            )
        return self._answers[asked] == answer

    def _key(
        self, path: Path, project: Project, options: AnalysisOptions, digest: str
    ) -> dict[str, Any]:
        return {
            "format": CACHE_FORMAT,
            "checker": _checker_stamp(),
            "path": str(resolved_file(path)),
            "root": str(project.root),
            "text": digest,
            "options": _options_key(options),
            "environment": project.environment_stamp(),
        }

    # -- stores -----------------------------------------------------------------------------

    def store(
        self,
        path: Path,
        options: AnalysisOptions,
        facts: obs.Grounds,
        findings: list[Finding],
        remote: tuple[tuple[Path, Finding], ...],
        skipped: str | None,
        suppressed: list[Finding],
    ) -> None:
        """Keep one analysed file's result (the caller leaves out those that cannot be kept:
        internal errors, fixes)."""
        if not facts.journal.complete:
            return
        place = self._entry(path)
        if place is None:
            return
        folder, secret, name = place
        key = self._key(path, project_of(path, self._python), options, facts.text)
        observations = [(kind, k, answer) for (kind, k), answer in facts.journal.records.items()]
        body = codec.encode_entry(key, observations, findings, remote, skipped, suppressed)
        if len(body) + codec.CODE_CHARS + 1 > MAX_ENTRY_BYTES:
            return  # it would never be read
        try:
            write_atomically(folder / name, codec.signed(secret, folder, name, body))
        except OSError as error:
            self._cannot_cache(folder.parent, error)

    def _cannot_cache(self, root: Path, error: OSError) -> None:
        self._folders[root] = None
        self._warn(root, error.strerror or type(error).__name__)

    def _warn(self, where: Path, why: str) -> None:
        if not self._warned:
            self._warned = True
            from evalsubmit.cli.output import shown

            print(
                f"evalsubmit: warning: results not cached: {shown(where)}: {why}", file=sys.stderr
            )

    def close(self) -> None:
        """After the run: remove entries of files that are gone (at most once a day)."""
        for folder in self._folders.values():
            if folder is not None and self._secret is not None:
                prune_when_due(folder, self._secret)


def _question_answer(project: Project, kind: str, key: str) -> str | None:
    """Asked again of the project's files (what each imports is kept by its stat for the
    run: many cached results ask about the same modules)."""
    from evalsubmit.analysis.interp import questions  # only for such entries

    return questions.of(project).observed_answer(kind, key)


def _options_key(options: AnalysisOptions) -> dict[str, Any]:
    """Every field of the options, as JSON data (sets sorted)."""
    key: dict[str, Any] = {}
    for name in options.__match_args__:
        value = getattr(options, name)
        if isinstance(value, frozenset | set):
            value = sorted(str(item) for item in value)
        elif not (value is None or isinstance(value, str | int | float | bool)):
            value = repr(value)
        key[name] = value
    return key


@functools.cache
def _checker_stamp() -> str:
    """evalsubmit's version and each of its files' size and modification time: a
    checker changed in place (a development install) does not read an older one's entries
    (its own code is the one thing whose times are trusted: a release never changes it)."""
    import evalsubmit

    package = Path(evalsubmit.__file__).parent
    parts = [evalsubmit.__version__]
    for folder, folders, files in os.walk(package):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                status = os.stat(path)
            except OSError:
                continue
            relative = os.path.relpath(path, package)
            parts.append(f"{relative}:{status.st_size}:{status.st_mtime_ns}")
    return obs.text_digest("\n".join(parts))
