"""Names imported from the user's own modules, found by reading those modules (never importing
them): the module's top level is walked silently by the same interpreter (its own findings
belong to its own analysis) and its final bindings are cached by the module's content.

One :class:`ModuleResolver` per :class:`~evalsubmit.workspace.project.Project`, shared by every
analysis of that project (threads included), kept as long as the project lives.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from pathlib import Path

from evalsubmit.analysis.interp.interpreter import Interpreter
from evalsubmit.analysis.source.parse import parse_source
from evalsubmit.analysis.values.domain import ModuleValue, Unknown, Value
from evalsubmit.analysis.values.env import ModuleScope
from evalsubmit.workspace.project import Project

MAX_IMPORT_DEPTH = 4
"""Modules being read at once (an import of an import of ...) before giving up."""

_RESOLVERS: weakref.WeakKeyDictionary[Project, ModuleResolver] = weakref.WeakKeyDictionary()
_RESOLVERS_LOCK = threading.Lock()


class ModuleResolver:
    def __init__(self, project: Project) -> None:
        self.project = project
        self._scopes: dict[tuple[Path, str], ModuleScope] = {}
        self._loading: set[Path] = set()
        self._lock = threading.RLock()

    @classmethod
    def of(cls, project: Project) -> ModuleResolver:
        """The resolver of ``project`` (created on first use)."""
        with _RESOLVERS_LOCK:
            resolver = _RESOLVERS.get(project)
            if resolver is None:
                resolver = _RESOLVERS[project] = cls(project)
            return resolver

    def resolve(
        self, qualname: str, importer: Path | None, dependencies: set[Path]
    ) -> Value | None:
        """The value of ``qualname`` when it lives in the project, else ``None``."""
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            path = self.project.find_module(module, importer)
            if path is None:
                continue
            if path == (importer.resolve() if importer else None):
                return None
            rest = parts[cut:]
            if not rest:
                return ModuleValue(module)
            dependencies.add(path)
            scope = self.scope(path)
            if scope is None:
                return Unknown(f"{module} could not be read")
            value = scope.env.names.get(rest[0])
            if value is None:
                sub = self.project.find_module(f"{module}.{rest[0]}", importer)
                return (
                    ModuleValue(f"{module}.{rest[0]}")
                    if sub
                    else Unknown(f"{rest[0]} is not defined in {module}")
                )
            return value if len(rest) == 1 else Unknown("attribute of an imported value")
        return None

    def conftests(self, importer: Path | None, dependencies: set[Path]) -> list[ModuleScope]:
        """The ``conftest.py`` files from the importer's folder up to the project root."""
        root = self.project.root
        if importer is None or root is None:
            return []
        scopes = []
        folder = importer.resolve().parent
        while folder.is_relative_to(root):
            candidate = folder / "conftest.py"
            if candidate != importer.resolve() and self.project.read(candidate) is not None:
                dependencies.add(candidate)
                scope = self.scope(candidate)
                if scope is not None:
                    scopes.append(scope)
            if folder == root or folder.parent == folder:
                break
            folder = folder.parent
        return scopes

    def scope(self, path: Path) -> ModuleScope | None:
        """The final top-level bindings of the module at ``path`` (cached by its content)."""
        text = self.project.read(path)
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
                parsed,
                path=path,
                module_name=self.project.module_name(path),
                resolver=self,
                collect=False,
            )
            scope = interpreter.run_module()
        finally:
            with self._lock:
                self._loading.discard(path)
        with self._lock:
            self._scopes = {k: v for k, v in self._scopes.items() if k[0] != path}
            self._scopes[(path, digest)] = scope
        return scope
