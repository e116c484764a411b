"""The user's project: its files (editor buffers, "overlays", win over the disk), the dotted
names of its modules, the listing of its Python files, and the Python environment its imports
come from when they are not its own (:mod:`.environment`).

Reading is all this does: resolving names imported from these modules is the interpreter's job
(:mod:`evalsubmit.analysis.interp.modules`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path

from evalsubmit.sdk.releases import SDK_DISTRIBUTIONS
from evalsubmit.sdk.version import SDK_DISTRIBUTION
from evalsubmit.workspace import observed, walk
from evalsubmit.workspace.disk_texts import DiskTexts
from evalsubmit.workspace.environment import PythonEnvironment, environment_of

MAX_MODULE_BYTES = 2_000_000
MAX_PROJECT_FILES = 2_000
MAX_CONFTEST_DEPTH = 12


def _is_pytest_module(path: Path) -> bool:
    name = path.name
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


class Project:
    """Workspace root plus unsaved editor contents (overlays) that win over the disk."""

    def __init__(
        self,
        root: Path | None = None,
        overlays: Mapping[Path, str] | None = None,
        *,
        python: Path | None = None,
    ):
        self.root = root.resolve() if root is not None else None
        self._python = python
        self._overlays: dict[Path, str] = {p.resolve(): t for p, t in (overlays or {}).items()}
        self._lock = threading.RLock()
        self._files: list[Path] | None = None
        self._disk = DiskTexts(MAX_MODULE_BYTES)
        """The texts read of files on disk, given again while their ``stat`` is unchanged."""
        self._found: dict[tuple[str, Path | None, bool], Path | None] = {}
        self._under: dict[tuple[Path, str], Path | None] = {}
        self._resolved: dict[Path, Path] = {}
        """``resolve()`` of the paths asked about (:meth:`resolved`), forgotten with
        :attr:`_under` when files come and go."""
        self._roots: dict[Path | None, list[Path]] = {}
        """Each importer's search roots (forgotten with :attr:`_found`, when files come and go):
        every import that is not the project's own (the standard library's) looks them up."""
        self._generation = 0
        self.watched = False
        """Whether whoever holds the project tells it when files on disk change
        (:meth:`files_changed`, :meth:`forget_files`): the language server once its client
        watches the files, the CLI (a run sees the files as they were). If not, what is kept of
        the files on disk is looked at again after a while."""

    @property
    def shared_reads(self) -> DiskTexts | None:
        """The texts of the files on disk and their import statements, shared by the readers
        that read every file, when they are kept for one run (:meth:`keep_texts_for_one_run`)."""
        return self._disk if self._disk.one_run else None

    def keep_texts_for_one_run(self) -> None:
        """Keep every text read for a run that sees the files as they were (the CLI's):
        :mod:`.disk_texts`' one-run policy."""
        self._disk = DiskTexts(MAX_MODULE_BYTES, one_run=True)

    @property
    def python(self) -> Path | None:
        """The interpreter whose installed packages imports fall back to (None: only the
        project's own modules are read)."""
        return self._python

    def set_python(self, python: Path | None) -> bool:
        """Use another interpreter's packages; True when it changed."""
        with self._lock:
            changed = python != self._python
            self._python = python
            return changed

    @property
    def environment(self) -> PythonEnvironment | None:
        """The installed packages of :attr:`python`, read again when they change."""
        python = self._python
        return environment_of(python) if python is not None else None

    def environment_stamp(self) -> str:
        """Changes when what imports of installed packages resolve to can change (another
        interpreter, a package installed): part of every cache key that depends on them."""
        environment = self.environment
        return f"{self._python}:{environment.stamp}" if environment is not None else ""

    def set_overlay(self, path: Path, text: str) -> None:
        with self._lock:
            resolved = self.resolved(path)  # (each edit of a buffer sets it again)
            if resolved not in self._overlays:
                # a new buffer may be a conftest.py (roots), or a module not found before
                self._roots.clear()
                self._found.clear()
                self._under.clear()
                self._resolved.clear()
            self._overlays[resolved] = text

    def drop_overlay(self, path: Path) -> None:
        with self._lock:
            if self._overlays.pop(path.resolve(), None) is not None:
                self._roots.clear()
                self._generation += 1  # the file on disk is read again

    @property
    def generation(self) -> int:
        """Changes when the project is told that files on disk may have changed (created,
        deleted, written, a buffer closed): what was read of the files it does not hold as
        buffers may be kept while it does not."""
        return self._generation

    def files_changed(self) -> None:
        """Call when files on disk were written (created or deleted: :meth:`forget_files`)."""
        with self._lock:
            self._generation += 1

    def read(self, path: Path) -> str | None:
        text = self._read(path)
        if observed.noting():
            observed.note("read", str(path), observed.read_answer(text))
        return text

    def read_unobserved(self, path: Path) -> str | None:
        """:meth:`read` for a caller that notes itself what its answer depends on (a scan of
        every file must not make an analysis depend on every file's text)."""
        return self._read(path)

    def _read(self, path: Path) -> str | None:
        with self._lock:
            if path in self._overlays:
                return self._overlays[path]
        # decoded as Python does; only bounded regular files (never a FIFO)
        return self._disk.read(path)

    def resolved(self, path: Path) -> Path:
        """``path.resolve()`` (a system call per folder of the path), kept until files come or
        go, as the modules found are (a link made or removed is a file that comes or goes). A
        relative path is resolved each time (it depends on the working directory)."""
        if not path.is_absolute():
            return path.resolve()
        with self._lock:
            found = self._resolved.get(path)
        if found is None:
            found = path.resolve()
            with self._lock:
                self._resolved[path] = found
        return found

    def module_name(self, path: Path | None) -> str:
        """Dotted name of a file relative to the project root (``pkg.runners``)."""
        if path is None:
            return "__main__"
        name = self._module_name(path)
        if observed.noting():
            observed.note("name", str(path), name)
        return name

    def _module_name(self, path: Path) -> str:
        path = self.resolved(path)
        for base in self._search_roots(path):
            try:
                relative = path.with_suffix("").relative_to(base)
            except ValueError:
                continue
            parts = list(relative.parts)
            if parts and parts[-1] == "__init__":
                parts.pop()
            return ".".join(parts) or path.stem
        return path.stem

    def search_roots(self, importer: Path | None) -> list[Path]:
        """The folders ``importer``'s absolute imports are searched in, first to last."""
        return self._search_roots(importer)

    def _search_roots(self, importer: Path | None) -> list[Path]:
        with self._lock:
            known = self._roots.get(importer)
        if known is None:
            known = self._find_search_roots(importer)
            with self._lock:
                self._roots[importer] = known
        return list(known)

    def _find_search_roots(self, importer: Path | None) -> list[Path]:
        roots: list[Path] = []
        if importer is not None:
            # A script's own folder is on sys.path; packages are found from their parent.
            own = folder = importer.resolve().parent
            while (folder / "__init__.py").exists() and folder.parent != folder:
                folder = folder.parent
            roots.append(folder)
            roots.append(own)
            if _is_pytest_module(importer):
                roots.extend(self._conftest_roots(own))
        if self.root is not None:
            roots.append(self.root)
            roots.append(self.root / "src")
        seen: list[Path] = []
        for root in roots:
            if root not in seen:
                seen.append(root)
        return seen

    def _conftest_roots(self, folder: Path) -> list[Path]:
        """pytest (its default ``prepend`` import mode) puts the base folder of every
        ``conftest.py`` above a test on ``sys.path`` before importing the test."""
        roots: list[Path] = []
        for ancestor in [folder, *folder.parents][:MAX_CONFTEST_DEPTH]:
            conftest = ancestor / "conftest.py"
            if conftest in self._overlays or conftest.is_file():
                base = ancestor
                while (base / "__init__.py").exists() and base.parent != base:
                    base = base.parent
                roots.append(base)
            if self.root is not None and ancestor == self.root.resolve():
                break
        return roots

    def find_module(self, dotted: str, importer: Path | None) -> Path | None:
        found = self._find_module(dotted, importer)
        if observed.noting():
            answer = str(found) if found is not None else None
            observed.note("module", observed.module_key(dotted, importer), answer)
        return found

    def _find_module(self, dotted: str, importer: Path | None) -> Path | None:
        # The search path depends on the folder and, under pytest, on the kind of module.
        key = (
            dotted,
            importer.parent if importer else None,
            bool(importer and _is_pytest_module(importer)),
        )
        with self._lock:
            if key in self._found:
                return self._found[key]
        found = None
        for base in self._search_roots(importer):
            found = self._module_under(base, dotted)
            if found is not None:
                break
        with self._lock:
            self._found[key] = found
        return found

    def _module_under(self, base: Path, dotted: str) -> Path | None:
        """``dotted``'s file under one search root (the project's top and its src/ are roots
        of every folder: looked up once, not once per importing folder)."""
        key = (base, dotted)
        with self._lock:
            if key in self._under:
                return self._under[key]
        found = None
        candidate = base.joinpath(*dotted.split("."))
        for path in (candidate.with_suffix(".py"), candidate / "__init__.py"):
            if self._is_overlay(path) or path.is_file():
                found = path.resolve()
                break
        with self._lock:
            self._under[key] = found
        return found

    def overlaid(self) -> frozenset[Path]:
        """The (resolved) paths that read as editor buffers: their text is not the disk's."""
        with self._lock:
            return frozenset(self._overlays)

    def _is_overlay(self, path: Path) -> bool:
        """Whether ``path`` is an editor buffer; without any (the CLI), no ``resolve()``: it
        costs a system call per folder of the path, and most candidates do not exist."""
        return bool(self._overlays) and path.resolve() in self._overlays

    def python_files(self, limit: int = MAX_PROJECT_FILES) -> list[Path]:
        """The project's Python files (bounded), listed once and cached."""
        if self.root is None:
            return []
        with self._lock:
            if self._files is None:
                files: list[Path] = []
                for found in walk.python_files([self.root]):
                    # under the resolved root, only a link is not its own real path (the walk
                    # does not enter linked folders): an lstat, not one per folder of the path
                    files.append(found.resolve() if found.is_symlink() else found)
                    if len(files) >= limit:
                        break
                self._files = files
            return list(self._files)

    def note_file(self, path: Path) -> None:
        """A file that may be new: list the project again if it is missing from the listing.
        Never walks the tree itself (the next analysis does, off the editor's event loop)."""
        with self._lock:
            if self._files is not None and path.resolve() not in self._files:
                self._files = None
                self._generation += 1
                self._found.clear()
                self._under.clear()
                self._resolved.clear()
                self._roots.clear()

    def forget_files(self) -> None:
        """Call when files are created or deleted, so :meth:`python_files` lists them again."""
        with self._lock:
            self._files = None
            self._generation += 1
            self._found.clear()
            self._under.clear()
            self._resolved.clear()
            self._roots.clear()


def installed_sdk(project: Project | None, declared: str | None = None) -> dict[str, str]:
    """The SDK's distributions installed in the project's environment, with their versions
    (read from their metadata; empty without an environment). A ``declared`` version (the
    user's ``sdk-version``) stands for the environment, which is then not read."""
    if declared is not None:
        return {SDK_DISTRIBUTION: declared}
    environment = project.environment if project is not None else None
    if environment is None:
        return {}
    versions = {name: environment.version(name) for name in SDK_DISTRIBUTIONS}
    return {name: version for name, version in versions.items() if version is not None}
