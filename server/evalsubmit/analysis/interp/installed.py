"""Reading the user's installed packages (the part of :class:`.modules.ModuleResolver` for
names the project does not define): which packages are never read, and the bounds on reading
one (its size; the modules read per import are counted by the resolver)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Protocol

from evalsubmit.analysis.values.domain import Unknown, Value
from evalsubmit.analysis.values.env import ModuleScope
from evalsubmit.analysis.values.objects import ModuleValue
from evalsubmit.sdk.names import is_sdk_name
from evalsubmit.workspace import observed
from evalsubmit.workspace.environment import UNREAD_PACKAGES, FoundModule, PythonEnvironment
from evalsubmit.workspace.project import Project

MAX_INSTALLED_BYTES = 512_000
"""An installed module larger than this is not read."""


class ScopeReader(Protocol):
    """:meth:`.modules.ModuleResolver.scope`: a module's scope, read through the resolver's
    cache and bounds."""

    def __call__(
        self, path: Path, name: str, *, installed: bool, dependencies: set[Path]
    ) -> ModuleScope | None: ...


class InstalledModules:
    """The installed modules a :class:`.modules.ModuleResolver` has read, and how it reads one;
    the resolver's part for names the project does not define (it shares the resolver's lock)."""

    def __init__(self, project: Project, scope: ScopeReader, lock: threading.RLock) -> None:
        self._project = project
        self._scope = scope
        self._lock = lock
        self._read: dict[Path, str] = {}
        """Installed modules read so far: path -> dotted name."""

    def read_by(self, importer: Path | None) -> bool:
        """Whether ``importer`` is an installed module read so far (its imports are installed
        names, not the project's)."""
        return bool(self._read) and importer is not None and importer.resolve() in self._read

    def forget(self) -> None:
        """Drop what was read (the environment changed); called under the lock."""
        self._read.clear()

    def outside(self, path: Path) -> bool:
        """Whether ``path`` is an installed module outside the workspace (nothing is reported
        there: it is not the user's to fix)."""
        with self._lock:
            if path not in self._read:
                return False
        root = self._project.root
        return root is None or not path.is_relative_to(root)

    def value(
        self,
        qualname: str,
        importer: Path | None,
        dependencies: set[Path],
        environment: PythonEnvironment,
    ) -> Value | None:
        head = qualname.partition(".")[0]
        if head in sys.stdlib_module_names or head in UNREAD_PACKAGES or is_sdk_name(qualname):
            return None
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            found = _find_installed(environment, module)
            if found is None:
                continue
            rest = parts[cut:]
            if not rest:
                return ModuleValue(module)
            scope = self._scope_of(found, importer, dependencies)
            value = scope.env.bindings.get(rest[0]) if scope is not None else None
            if value is None:
                # Not bound at its top level (compiled, a lazy ``__getattr__``, over budget):
                # a submodule, or what an unknown import gives.
                sub = _find_installed(environment, f"{module}.{rest[0]}")
                return ModuleValue(f"{module}.{rest[0]}") if sub else None
            return value if len(rest) == 1 else Unknown("attribute of an imported value")
        return None

    def _scope_of(
        self, found: FoundModule, importer: Path | None, dependencies: set[Path]
    ) -> ModuleScope | None:
        if found.source is None:
            return None
        path = found.source.resolve()
        if importer is not None and path == importer.resolve():
            return None
        size = observed.size_key(path, MAX_INSTALLED_BYTES)
        answer = observed.size_answer(size)
        observed.note("size", size, answer)
        if answer != "ok":
            return None
        with self._lock:
            self._read[path] = found.name
        dependencies.add(path)
        return self._scope(path, found.name, installed=True, dependencies=dependencies)


def _find_installed(environment: PythonEnvironment, dotted: str) -> FoundModule | None:
    """Where the environment finds ``dotted`` (noted: a module installed since would be read)."""
    found = environment.find_module(dotted)
    if observed.noting():
        observed.note("installed", dotted, observed.installed_answer(found))
    return found
