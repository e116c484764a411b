"""The user's project: sibling modules, read (never imported) and cached by content.

A name imported from a module of the project (``from runners import gym_runner``) is resolved
by walking that module's top level with the same interpreter, silently (its own findings belong
to its own analysis). Results are cached by the module's content hash; editor buffers
(overlays) win over the disk.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.analysis.findings import Finding
from evalsubmit.analysis.values import ModuleValue, Unknown, Value
from evalsubmit.core.sourcefile import UnreadableSource, read_source

if TYPE_CHECKING:
    from evalsubmit.analysis.engine import AnalysisOptions
    from evalsubmit.analysis.interp import Interpreter
    from evalsubmit.analysis.scope import ModuleScope

MAX_MODULE_BYTES = 2_000_000
MAX_IMPORT_DEPTH = 4
MAX_PROJECT_FILES = 2_000


class Project:
    """Workspace root plus unsaved editor contents (overlays) that win over the disk."""

    def __init__(self, root: Path | None = None, overlays: Mapping[Path, str] | None = None):
        self.root = root.resolve() if root is not None else None
        self._overlays: dict[Path, str] = {p.resolve(): t for p, t in (overlays or {}).items()}
        self._scopes: dict[tuple[Path, str], ModuleScope] = {}
        self._lock = threading.RLock()
        self._loading: set[Path] = set()
        self._files: list[Path] | None = None
        self._found: dict[tuple[str, Path | None], Path | None] = {}
        self._remote: dict[tuple[Path, str], tuple[tuple[Path, Finding], ...]] = {}

    def set_overlay(self, path: Path, text: str) -> None:
        with self._lock:
            self._overlays[path.resolve()] = text

    def drop_overlay(self, path: Path) -> None:
        with self._lock:
            self._overlays.pop(path.resolve(), None)

    def read(self, path: Path) -> str | None:
        with self._lock:
            if path in self._overlays:
                return self._overlays[path]
        try:  # decoded as Python does; only bounded regular files (never a FIFO)
            return read_source(path, max_bytes=MAX_MODULE_BYTES).text
        except UnreadableSource:
            return None

    def module_name(self, path: Path | None) -> str:
        """Dotted name of a file relative to the project root (``pkg.runners``)."""
        if path is None:
            return "__main__"
        path = path.resolve()
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

    def _search_roots(self, importer: Path | None) -> list[Path]:
        roots: list[Path] = []
        if importer is not None:
            # A script's own folder is on sys.path; packages are found from their parent.
            folder = importer.resolve().parent
            while (folder / "__init__.py").exists() and folder.parent != folder:
                folder = folder.parent
            roots.append(folder)
            roots.append(importer.resolve().parent)
        if self.root is not None:
            roots.append(self.root)
            roots.append(self.root / "src")
        seen: list[Path] = []
        for root in roots:
            if root not in seen:
                seen.append(root)
        return seen

    def find_module(self, dotted: str, importer: Path | None) -> Path | None:
        key = (dotted, importer.parent if importer else None)
        with self._lock:
            if key in self._found:
                return self._found[key]
        found = None
        parts = dotted.split(".")
        for base in self._search_roots(importer):
            candidate = base.joinpath(*parts)
            for path in (candidate.with_suffix(".py"), candidate / "__init__.py"):
                if path.resolve() in self._overlays or path.is_file():
                    found = path.resolve()
                    break
            if found is not None:
                break
        with self._lock:
            self._found[key] = found
        return found

    def resolve_import(
        self, qualname: str, importer: Path | None, interpreter: Interpreter
    ) -> Value | None:
        """The value of ``qualname`` when it lives in the project, else ``None``."""
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            path = self.find_module(module, importer)
            if path is None:
                continue
            if path == (importer.resolve() if importer else None):
                return None
            rest = parts[cut:]
            if not rest:
                return ModuleValue(module)
            interpreter.dependencies.add(path)
            scope = self.scope(path, depth=interpreter.depth)
            if scope is None:
                return Unknown(f"{module} could not be read")
            value = scope.env.names.get(rest[0])
            if value is None:
                sub = self.find_module(f"{module}.{rest[0]}", importer)
                return (
                    ModuleValue(f"{module}.{rest[0]}")
                    if sub
                    else Unknown(f"{rest[0]} is not defined in {module}")
                )
            return value if len(rest) == 1 else Unknown("attribute of an imported value")
        return None

    def python_files(self, limit: int = MAX_PROJECT_FILES) -> list[Path]:
        """The project's Python files (bounded), listed once and cached."""
        if self.root is None:
            return []
        with self._lock:
            if self._files is None:
                from evalsubmit.walk import python_files

                files: list[Path] = []
                for found in python_files([self.root]):
                    files.append(found.resolve())
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
                self._found.clear()

    def forget_files(self) -> None:
        """Call when files are created or deleted, so :meth:`python_files` lists them again."""
        with self._lock:
            self._files = None
            self._found.clear()

    def importers(self, path: Path) -> list[Path]:
        """Project modules that may import ``path`` and submit: they can report into it."""
        stem = path.stem if path.stem != "__init__" else path.parent.name
        found = []
        for candidate in self.python_files():
            if candidate == path:
                continue
            text = self.read(candidate)
            if text and stem in text and "submit" in text:
                found.append(candidate)
        return found

    def remote_findings_for(self, path: Path, options: AnalysisOptions) -> list[Finding]:
        """Findings that other modules' submits place in ``path`` (cached by content)."""
        from evalsubmit.analysis.engine import analyze_source

        results: list[Finding] = []
        for importer in self.importers(path):
            text = self.read(importer)
            if text is None:
                continue
            key = (
                importer,
                hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=16).hexdigest(),
            )
            with self._lock:
                remote = self._remote.get(key)
            if remote is None:
                report = analyze_source(
                    text, path=importer, project=self, options=options, reverse=False
                )
                remote = report.remote_findings
                with self._lock:
                    self._remote = {k: v for k, v in self._remote.items() if k[0] != importer}
                    self._remote[key] = remote
            results.extend(f for target, f in remote if target == path)
        return results

    def scope(self, path: Path, depth: int = 0) -> ModuleScope | None:
        from evalsubmit.analysis.interp import Interpreter
        from evalsubmit.analysis.parse import parse_source

        text = self.read(path)
        if text is None:
            return None
        digest = hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=16).hexdigest()
        with self._lock:
            cached = self._scopes.get((path, digest))
            if cached is not None:
                return cached
            if path in self._loading or len(self._loading) >= MAX_IMPORT_DEPTH:
                return None
            self._loading.add(path)
        try:
            parsed = parse_source(text)
            if parsed is None:
                return None
            interpreter = Interpreter(
                parsed, path=path, module_name=self.module_name(path), project=self, collect=False
            )
            scope = interpreter.run_module()
            scope.source_hash = digest
        finally:
            with self._lock:
                self._loading.discard(path)
        with self._lock:
            self._scopes = {k: v for k, v in self._scopes.items() if k[0] != path}
            self._scopes[(path, digest)] = scope
        return scope
