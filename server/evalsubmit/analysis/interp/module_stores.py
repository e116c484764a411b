"""Module attributes that another module of the project sets: ``main.py`` runs
``settings.CONCURRENCY = 8`` before a function of ``runners.py`` reads
``settings.CONCURRENCY``. The value ``settings.py`` binds is then not what that function sees,
so a module's attribute that any other file of the project may store is not trusted (it is
unknown, hence silent), wherever it is read.

Found from the files' texts, never parsed: a file may store ``NAME`` of module ``pkg.mod``
when an import statement of it names ``mod`` and it holds ``<name>.NAME = ...`` (any
assignment operator, an annotation allowed; ``self.``/``cls.`` aside) or ``setattr(<name>,
"NAME", ...)``. A receiver that is not the module counts too, and a module is matched by its
last name only, so most stores found are not real ones (at worst a value not trusted that
could have been). Not a complete superset: stores it does not see are a tuple target
(``m.A, m.B = ...`` finds ``B`` only), a ``for m.A in ...`` target, ``vars(m)[...] = ...``,
and those of a file whose import of the module follows ``try:`` on its line or is continued by a
backslash; a value stored so is still trusted.

Cost: what a file stores is kept per file by its size and modification time (an editor buffer
by its text). The files on disk are looked at (one ``stat`` each) at most once per
:data:`FRESH_SECONDS` per project, whatever the number of analyses; editor buffers at each
analysis. The files that may store a name read become dependencies of the analysis, and the
texts of those that import the module are observations of it (the CLI's result cache), so
its cached results go when they change.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from evalsubmit.analysis.interp.grouping import DependencyLog, text_digest
from evalsubmit.core.records import record
from evalsubmit.workspace import observed
from evalsubmit.workspace.project import Project

FRESH_SECONDS = 1.0
"""How long what the files on disk store is taken as it was last looked at (an editor saves a
file, the next analysis a second later sees it)."""

_STORE = re.compile(
    r"\.[ \t]*+([A-Za-z_]\w*+)[ \t]*+(?::[^=\n]*)?(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
)
"""``.NAME = `` (annotated, augmented). Possessive (``*+``): what follows the name and the blanks
is none of theirs, so giving some back never matches; without, every ``.name(`` of the text
(thousands in a job script, scanned at each analysis of an editor buffer) was tried again
with each shorter name."""
_SETATTR = re.compile(r"setattr\s*\(\s*[\w.]+\s*,\s*['\"]([A-Za-z_]\w*)['\"]")
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+[\w. \t]+)?import\b(?:[ \t]*\(([^)]*)\)|([^\n#]*))", re.M
)
_WORD = re.compile(r"[A-Za-z_]\w*")
_NOT_MODULES = re.compile(r"(?:^|[^\w.])(?:self|cls)[ \t]*$")


@record(eq=False)
class _FileStores:
    """What one file's text may store, and the names its import statements hold."""

    signature: object
    answer: str
    """The text's digest, as ``observed.read_answer`` gives it (noted again on each use)."""
    stored: frozenset[str]
    imported: frozenset[str]


def _stores_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    stored = {
        match.group(1)
        for match in _STORE.finditer(text)
        if not _NOT_MODULES.search(text, max(0, match.start() - 8), match.start())
    }
    stored |= {match.group(1) for match in _SETATTR.finditer(text)}
    imported: set[str] = set()
    for match in import_statements(text):
        imported |= set(_WORD.findall(text, match.start(), match.end()))
    return frozenset(stored), frozenset(imported)


def import_statements(text: str) -> Iterator[re.Match[str]]:
    """``_IMPORT.finditer(text)``, tried only at the starts of lines holding ``import``
    (found by ``str.find``): a match begins on such a line. An editor buffer is scanned at
    each analysis, and the pattern tried at every line start of a 5,000-line job script
    took a millisecond."""
    end = 0
    at = text.find("import")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        if start >= end:
            match = _IMPORT.match(text, start)
            if match is not None:
                yield match
                end = max(match.end(), start + 1)
        at = text.find("import", max(at + 1, end))


class ModuleStores:
    """Per project (held by its ModuleResolver, shared by threads)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._files: dict[Path, _FileStores] = {}
        self._disk: tuple[float, dict[Path, _FileStores]] | None = None
        """When the files on disk were last looked at, and what they store."""
        self._lock = threading.Lock()
        self._current = threading.local()
        """Per thread: (the analysis's dependency set, the files' stores) for one analysis."""

    def set_elsewhere(
        self, module_path: Path, module: str, name: str, dependencies: set[Path]
    ) -> bool:
        """Whether a project file other than the module's may store its attribute ``name``;
        those files become dependencies of the analysis."""
        stem = module.rpartition(".")[2]
        if stem == "__init__":
            stem = module.rpartition(".")[0].rpartition(".")[2]
        found = False
        noting = observed.noting()
        for path, stores in self._snapshot(dependencies).items():
            if path == module_path or stem not in stores.imported:
                continue
            if noting:  # a file that imports the module: a store it gains counts
                observed.note("read", str(path), stores.answer)
            if name in stores.stored:
                found = True
                dependencies.add(path)
                if isinstance(dependencies, DependencyLog):
                    dependencies.note(path, stores.answer)
        return found

    def _snapshot(self, dependencies: set[Path]) -> dict[Path, _FileStores]:
        current = getattr(self._current, "analysis", None)
        if current is not None and current[0] is dependencies:
            return current[1]  # type: ignore[no-any-return]
        overlaid = self.project.overlaid()
        now = time.monotonic()
        with self._lock:
            disk = self._disk
        if disk is None or now - disk[0] >= FRESH_SECONDS:
            files = self.project.python_files()
            looked = {path: self._of(path, None) for path in files if path not in overlaid}
            disk = (now, {path: stores for path, stores in looked.items() if stores is not None})
            with self._lock:
                self._disk = disk
        found = dict(disk[1])
        for path in overlaid:
            if path.suffix == ".py":
                stores = self._of(path, self.project.read(path))
                if stores is not None:
                    found[path] = stores
        self._current.analysis = (dependencies, found)  # the set is held: its id stays its own
        return found

    def _of(self, path: Path, text: str | None) -> _FileStores | None:
        """What ``path`` stores: an editor buffer's ``text``, else the file (by its stat)."""
        signature: object = text
        if text is None:
            try:
                status = path.stat()
            except OSError:
                return None
            signature = (status.st_mtime_ns, status.st_size)
        with self._lock:
            kept = self._files.get(path)
        if kept is not None and (kept.signature is signature or kept.signature == signature):
            return kept
        if text is None:
            text = self.project.read(path)
        if text is None:
            return None
        stored, imported = _stores_of(text)
        kept = _FileStores(signature, text_digest(text), stored, imported)
        with self._lock:
            self._files[path] = kept
        return kept
