"""The compiled code of the methods :mod:`dataclasses` writes, kept between runs of the CLI.

Each ``@dataclass`` writes the source of its ``__init__``, ``__repr__``, ``__eq__``... as text
and compiles it while its module is imported: 4 to 6 compilations per class, for the 76 classes
a check of a job script loads about half of its start-up CPU time (measured: 72-88 ms of
160-190 ms on the shared machine). The text names the fields and nothing else (their types and
defaults are passed in as values), so the same text compiles to the same code every time: this
keeps that code, as Python keeps a module's bytecode, in a file beside that bytecode, keyed by
the text itself. A changed class writes another text (compiled, then kept); nothing stale can be
used. A cache that cannot be read is ignored, one that cannot be written is not written.

:func:`dataclasses` calls the builtin ``exec`` by its name; :func:`install` gives the module
its own ``exec`` that looks the text up first, for the CLI's process and the workers it forks.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import marshal
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from types import CodeType
from typing import Any

MAX_ENTRIES = 1_000
"""Beyond this (texts of older versions pile up), the file keeps only what this run used. A
check loads ~350-450 texts; reading the file costs ~5 µs per entry at every start (700: 3.6 ms),
so a file of thousands would give back much of what it saves."""

_FILE_STEM = "dataclass-code"


class _Cache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.codes: dict[str, CodeType] = _load(path) if path is not None else {}
        self.used: set[str] = set()
        self.compiled = 0
        """Texts compiled by this process (none when every class was seen before)."""

    def exec(self, source: Any, /, *args: Any, **kwargs: Any) -> None:
        if isinstance(source, str):
            self.used.add(source)
            code = self.codes.get(source)
            if code is None:
                # As builtins.exec compiles text for dataclasses.py (no __future__ flags there:
                # dont_inherit, or this module's `annotations` would turn the generated
                # methods' annotations into strings).
                code = self.codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
                self.compiled += 1
            source = code
        builtins.exec(source, *args, **kwargs)

    def save(self) -> None:
        if self.path is None or not self.compiled or sys.dont_write_bytecode:
            return
        codes = self.codes
        if len(codes) > MAX_ENTRIES:
            codes = {text: code for text, code in codes.items() if text in self.used}
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(marshal.dumps(codes))
            os.replace(temporary, self.path)  # whole or not at all, whoever else writes it
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)


_installed: _Cache | None = None


def install() -> None:
    """Look up and keep the code :mod:`dataclasses` compiles (once per process)."""
    global _installed
    if _installed is not None:
        return
    with _imported_on_first_use(LATE_IMPORTS):
        import dataclasses

    _installed = _Cache(cache_file())
    dataclasses.exec = _installed.exec  # type: ignore[attr-defined]


LATE_IMPORTS = ("inspect", "copy")
"""What :mod:`dataclasses` imports for what a check never asks of it: ``inspect`` (with ``dis``,
``opcode`` and ``linecache``, ~3 ms) writes the docstring of a class without one (every class a
check loads has one), ``copy`` serves ``asdict``. ``dataclasses`` gets stand-ins that import
them on first use; ``sys.modules`` never holds a stand-in once it is imported."""


@contextlib.contextmanager
def _imported_on_first_use(names: tuple[str, ...]) -> Iterator[None]:
    """While inside, importing one of ``names`` (not imported yet) gives a stand-in module whose
    attributes are the real module's, imported when the first one is read."""
    made = {}
    for name in names:
        if name not in sys.modules:
            made[name] = sys.modules[name] = _stand_in(name)
    try:
        yield
    finally:
        for name, stand_in in made.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]


def _stand_in(name: str) -> types.ModuleType:
    module = types.ModuleType(name)

    def real_attribute(attribute: str) -> Any:
        return getattr(importlib.import_module(name), attribute)

    module.__getattr__ = real_attribute  # type: ignore[method-assign]
    return module


def save() -> None:
    """Write what was compiled this run (a forked worker never calls this)."""
    if _installed is not None:
        _installed.save()


def compiled() -> int:
    """How many texts this process compiled (0 when the cache held them all)."""
    return _installed.compiled if _installed is not None else 0


def cache_file() -> Path | None:
    """Beside the package's bytecode (``__pycache__``, or under ``sys.pycache_prefix``), per
    interpreter version (``cache_tag``: code objects are not portable between versions)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    package = Path(__file__).resolve().parent.parent
    name = f"{_FILE_STEM}.{tag}.marshal"
    if sys.pycache_prefix:
        return Path(sys.pycache_prefix, *package.parts[1:], name)
    return package / "__pycache__" / name


def _load(path: Path) -> dict[str, CodeType]:
    try:
        loaded = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {
        text: code
        for text, code in loaded.items()
        if isinstance(text, str) and isinstance(code, CodeType)
    }
