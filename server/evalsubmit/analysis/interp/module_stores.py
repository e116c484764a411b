"""Module attributes that another module of the project sets: ``main.py`` runs
``settings.CONCURRENCY = 8`` before a function of ``runners.py`` reads
``settings.CONCURRENCY``. The value ``settings.py`` binds is then not what that function sees,
so a module's attribute that any other file of the project may store is not trusted (it is
unknown, hence silent), wherever it is read.

Found from the files' texts, never parsed: a file may store ``NAME`` of module ``pkg.mod``
when its text names ``mod`` and holds ``<name>.NAME = ...`` (any assignment operator, an
annotation allowed; ``self.``/``cls.`` aside) or ``setattr(<name>, "NAME", ...)``. A superset
of the real stores (a receiver that is not the module counts too), so never a value trusted
that another module sets, at worst one not trusted that could have been.

Cost: what a file stores is kept per file by its size and modification time (an editor buffer
by its text), so an analysis asks the file system one ``stat`` per project file, once (the
answers for one analysis are kept with its dependency set). The files that may store a name
read become dependencies of the analysis, and the texts of those that may import the module
are observations of it (the CLI's result cache), so its cached results go when they change.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from evalsubmit.analysis.interp.grouping import DependencyLog, text_digest
from evalsubmit.core.records import record
from evalsubmit.workspace import observed
from evalsubmit.workspace.project import Project

_STORE = re.compile(
    r"(\w+)\s*\.\s*([A-Za-z_]\w*)\s*(?::[^=\n]+)?(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
)
_SETATTR = re.compile(r"setattr\s*\(\s*[\w.]+\s*,\s*['\"]([A-Za-z_]\w*)['\"]")
_WORD = re.compile(r"[A-Za-z_]\w*")
_RECEIVERS_NOT_MODULES = frozenset({"self", "cls"})


@record(eq=False)
class _FileStores:
    """What one file's text may store, and the words it names (to tell which modules)."""

    signature: object
    answer: str
    """The text's digest, as observed.read_answer gives it (re-noted on each use)."""
    stored: frozenset[str]
    words: frozenset[str]


def _stores_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    stored = {
        match.group(2)
        for match in _STORE.finditer(text)
        if match.group(1) not in _RECEIVERS_NOT_MODULES
    }
    stored |= {match.group(1) for match in _SETATTR.finditer(text)}
    return frozenset(stored), frozenset(_WORD.findall(text))


class ModuleStores:
    """Per project (held by its ModuleResolver, shared by threads)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._files: dict[Path, _FileStores] = {}
        self._lock = threading.Lock()
        self._current = threading.local()
        """Per thread: (the analysis's dependency set, its files' stores) for one analysis."""

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
            if path == module_path or stem not in stores.words:
                continue
            if noting:  # a file that may import the module: a store it gains counts
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
        files = {path: self._of(path) for path in self.project.python_files()}
        found = {path: stores for path, stores in files.items() if stores is not None}
        self._current.analysis = (dependencies, found)  # the set is held: its id stays its own
        return found

    def _of(self, path: Path) -> _FileStores | None:
        signature: object
        if self.project.is_overlay(path):
            text = self.project.read(path)
            signature = text
        else:
            try:
                status = path.stat()
            except OSError:
                return None
            signature = (status.st_mtime_ns, status.st_size)
            text = None
        with self._lock:
            kept = self._files.get(path)
        if kept is not None and (kept.signature is signature or kept.signature == signature):
            return kept
        if text is None:
            text = self.project.read(path)
        if text is None:
            return None
        stored, words = _stores_of(text)
        kept = _FileStores(signature, text_digest(text), stored, words)
        with self._lock:
            self._files[path] = kept
        return kept
