"""Import statements and the values of imported names.

A name is resolved by its import origin, never by its spelling: SDK names become canonical
class references (:mod:`evalsubmit.sdk.names`), modelled standard-library names their models,
and names from the user's own modules the values an :class:`ImportResolver` finds by reading
those modules (:mod:`.modules`).
"""

from __future__ import annotations

import ast
import builtins
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from evalsubmit.analysis.models import stdlib
from evalsubmit.analysis.values.domain import Unknown, Value
from evalsubmit.analysis.values.env import ModuleScope
from evalsubmit.analysis.values.objects import ClassRef, ClassValue, ModuleValue
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


class ImportResolver(Protocol):
    """Finds names defined in the user's own modules (and the conftest.py files that apply)."""

    def conftests(self, importer: Path | None, dependencies: set[Path]) -> list[ModuleScope]:
        """The ``conftest.py`` modules that apply to ``importer``, nearest first."""
        ...

    def resolve(
        self, qualname: str, importer: Path | None, dependencies: set[Path]
    ) -> Value | None:
        """The value of ``qualname`` when a module of the project defines it, else None. The
        modules read to find it are added to ``dependencies``."""
        ...

    def exported(
        self, module: str, importer: Path | None, dependencies: set[Path]
    ) -> dict[str, Value] | None:
        """What ``from module import *`` binds, when the module is the project's."""
        ...

    def subclass_members(
        self, name: str, path: Path, analysed: Path | None, dependencies: set[Path]
    ) -> frozenset[str] | None:
        """The members subclasses of class ``name`` of the module at ``path`` define in the
        project's files other than ``analysed`` (None: any member may be). The files looked at
        are added to ``dependencies``."""
        ...


class Imports:
    def __init__(self, interp: Interpreter, resolver: ImportResolver | None) -> None:
        self.interp = interp
        self.resolver = resolver

    def import_statement(self, node: ast.Import) -> None:
        names = self.interp.frame.env.names
        for alias in node.names:
            if alias.asname:
                names[alias.asname] = self.module_value(alias.name)
            else:
                head = alias.name.split(".")[0]
                names[head] = self.module_value(head)

    def import_from(self, node: ast.ImportFrom) -> None:
        module = self.absolute_module(node.module or "", node.level)
        names = self.interp.frame.env.names
        for alias in node.names:
            if alias.name == "*":
                self._import_star(module, names)
                continue
            names[alias.asname or alias.name] = self.import_value(
                f"{module}.{alias.name}" if module else alias.name
            )

    def _import_star(self, module: str, names: dict[str, Value]) -> None:
        if self.resolver is None or not module or sdk.is_sdk_name(module):
            return
        exported = self.resolver.exported(module, self.interp.source.path, self.interp.dependencies)
        if exported is not None:
            names.update(exported)

    def absolute_module(self, module: str, level: int) -> str:
        if level == 0:
            return module
        parts = self.interp.source.name.split(".")
        path = self.interp.source.path
        if path is not None and path.name == "__init__.py":
            parts.append("__init__")  # in a package's own __init__, "." is the package
        package = parts[: max(len(parts) - level, 0)]
        return ".".join([*package, module] if module else package)

    def module_value(self, qualname: str) -> Value:
        return ModuleValue(sdk.canonical(qualname))

    def import_value(self, qualname: str) -> Value:
        head, _, rest = qualname.partition(".")
        if head == "builtins":
            if not hasattr(builtins, rest):
                return Unknown(f"name {rest} is not defined here")
            found = stdlib.stdlib_constant(qualname, None)
            return found if found is not None else ClassValue(ClassRef(qualname))
        if self.resolver is not None and not sdk.is_sdk_name(qualname):
            resolved = self.resolver.resolve(
                qualname, self.interp.source.path, self.interp.dependencies
            )
            if resolved is not None:
                return resolved
        found = stdlib.stdlib_constant(qualname, None)
        if found is not None:
            return found
        return ClassValue(ClassRef(sdk.canonical(qualname)))
