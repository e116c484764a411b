"""The user's Python environment, known without running any of the user's code: the import
search path (standard library, site-packages, ``.pth`` entries, editable installs) and the
installed distributions (their ``*.dist-info/METADATA``, never imported).

:func:`environment_of` gives the environment of an interpreter, cached; it is read again when
the interpreter, a site folder, a ``.pth`` file or an editable finder changes (a ``pip
install`` while the editor is open). How the paths are found and what that can miss:
``docs/environment.md``.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from evalsubmit.core.records import Record
from evalsubmit.workspace import interpreter as interp
from evalsubmit.workspace.sitepath import read_site

MAX_LISTING = 50_000
"""Entries of one folder looked at (site-packages of large environments hold ~5,000)."""
MAX_METADATA_BYTES = 256_000
CHECK_INTERVAL_S = 1.0
"""How often an environment in use is checked for changes (each check is a few ``stat``)."""
_COMPILED = (".so", ".pyd")
UNREAD_PACKAGES = frozenset({"pytest", "_pytest", "typing_extensions", "pydantic", "pydantic_core"})
"""Installed packages whose names the checker models (or types) by import path: reading their
implementation would replace the model with what their source says (the analysis never reads
them, :mod:`evalsubmit.analysis.interp.installed`; the CLI's relevance scan never follows them)."""


class FoundModule(Record):
    """Where the interpreter would import a module from."""

    __slots__ = ("name", "portions", "source")
    name: Final[str]
    source: Final[Path | None]
    """Its Python source file, or None when it has none we can read (a compiled extension,
    bytecode only, a namespace package)."""
    portions: Final[tuple[Path, ...]]
    """The folders its submodules are searched in (a package's folder, a namespace's)."""

    def __init__(self, name: str, source: Path | None, portions: tuple[Path, ...] = ()) -> None:
        self.name = name
        self.source = source
        self.portions = portions


class PythonEnvironment:
    """One interpreter's modules and distributions, as of one reading (immutable)."""

    def __init__(self, layout: interp.Layout) -> None:
        self.layout = layout
        site = read_site(layout.site)
        self.search_path: tuple[Path, ...] = (*layout.stdlib, *site.entries)
        """In ``sys.path`` order, as ``python -m`` would see it without a script folder."""
        self.editable = dict(site.mapping)
        self.namespaces = {k: tuple(v) for k, v in site.namespaces.items()}
        self._watched = (layout.executable, *layout.site, *site.watched)
        self.stamp = _stamp(self._watched)
        """Changes when anything read to build this environment changes."""
        self._distributions: dict[str, Path] | None = None
        self._versions: dict[str, str | None] = {}
        self._lock = threading.Lock()
        self._checked = time.monotonic()

    @property
    def current(self) -> bool:
        """Whether nothing read to build this has changed (checked at most once a second)."""
        now = time.monotonic()
        if now - self._checked < CHECK_INTERVAL_S:
            return True
        if _stamp(self._watched) != self.stamp:
            return False
        self._checked = now
        return True

    # -- modules --------------------------------------------------------------------------------

    def find_module(self, dotted: str) -> FoundModule | None:
        """Where ``import dotted`` would find the module, like ``importlib``'s path finder
        followed by the editable finders (which setuptools appends to ``sys.meta_path``)."""
        parts = dotted.split(".")
        if not all(part.isidentifier() for part in parts):
            return None
        found = _find_in(self.search_path, parts[0], parts[0]) or self._editable(parts[0])
        for index in range(1, len(parts)):
            if found is None or not found.portions:
                return None
            name = ".".join(parts[: index + 1])
            found = _find_in(found.portions, parts[index], name) or self._editable(name)
        return found

    def _editable(self, name: str) -> FoundModule | None:
        if name in self.namespaces:
            return FoundModule(name, None, self.namespaces[name])  # a namespace package
        source = self.editable.get(name)
        if source is None:
            return None
        if source.suffix == ".py" and source.is_file():
            return FoundModule(name, source)
        if (source / "__init__.py").is_file():
            return FoundModule(name, source / "__init__.py", (source,))
        if source.with_suffix(".py").is_file():
            return FoundModule(name, source.with_suffix(".py"))
        return None

    # -- distributions --------------------------------------------------------------------------

    def distributions(self) -> dict[str, Path]:
        """Installed distributions: normalized name -> its ``.dist-info``/``.egg-info``, the
        first on the search path winning (as ``importlib.metadata`` finds them)."""
        with self._lock:
            if self._distributions is None:
                found: dict[str, Path] = {}
                for entry in self.search_path:
                    if entry in self.layout.stdlib:
                        continue
                    for name in _listing(entry).names:
                        if name.endswith((".dist-info", ".egg-info")):
                            found.setdefault(normalize(name.split("-", 1)[0]), entry / name)
                self._distributions = found
            return self._distributions

    def version(self, distribution: str) -> str | None:
        """The installed version of ``distribution`` (from its metadata file), or None."""
        key = normalize(distribution)
        with self._lock:
            if key in self._versions:
                return self._versions[key]
        info = self.distributions().get(key)
        version = None
        if info is not None:
            metadata = info / "METADATA" if info.suffix == ".dist-info" else info / "PKG-INFO"
            version = _header(metadata if info.is_dir() else info, "Version")
        with self._lock:
            self._versions[key] = version
        return version

    def describe(self) -> dict[str, object]:
        """For debug output: where the environment came from and what it holds."""
        return {
            "interpreter": str(self.layout.executable),
            "found": self.layout.how,
            "problem": self.layout.problem,
            "venv": str(self.layout.venv) if self.layout.venv else None,
            "pythonVersion": ".".join(map(str, self.layout.version or ())) or None,
            "searchPath": [str(p) for p in self.search_path],
            "editable": {k: str(v) for k, v in sorted(self.editable.items())},
            "distributions": len(self.distributions()),
        }


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


# -- the module search --------------------------------------------------------------------------


class _Listing(Record):
    """The names in one folder of installed packages, as of its mtime."""

    __slots__ = ("compiled", "mtime", "names")
    mtime: Final[int]
    names: Final[frozenset[str]]
    compiled: Final[frozenset[str]]
    """Stems with a compiled form (``x.cpython-312-x86_64-linux-gnu.so``, ``x.pyd``, ``x.pyc``)."""

    def __init__(self, mtime: int, names: frozenset[str], compiled: frozenset[str]) -> None:
        self.mtime = mtime
        self.names = names
        self.compiled = compiled


_LISTINGS: dict[Path, _Listing] = {}
_LISTINGS_LOCK = threading.Lock()


def _listing(folder: Path) -> _Listing:
    """The names in ``folder``, kept while its mtime stays the same (site-packages is large
    and looked in for every import)."""
    try:
        mtime = folder.stat().st_mtime_ns
    except OSError:
        return _Listing(0, frozenset(), frozenset())
    with _LISTINGS_LOCK:
        cached = _LISTINGS.get(folder)
    if cached is not None and cached.mtime == mtime:
        return cached
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for _, entry in zip(range(MAX_LISTING), entries, strict=False)]
    except OSError:
        names = []
    compiled = {
        n.split(".", 1)[0]
        for n in names
        if n.endswith(_COMPILED) or (n.count(".") == 1 and n.endswith(".pyc"))
    }
    listing = _Listing(mtime, frozenset(names), frozenset(compiled))
    with _LISTINGS_LOCK:
        if len(_LISTINGS) > 4096:
            _LISTINGS.clear()
        _LISTINGS[folder] = listing
    return listing


def _find_in(folders: Iterable[Path], part: str, name: str) -> FoundModule | None:
    """``part`` in ``folders`` in order, as ``importlib.machinery.FileFinder`` looks: a package,
    then a module (a compiled one first), else the folders of a namespace package."""
    portions: list[Path] = []
    for folder in folders:
        listing = _listing(folder)
        if part in listing.names and (folder / part).is_dir():
            package = folder / part
            inner = _listing(package)
            if "__init__" in inner.compiled:
                return FoundModule(name, None, (package,))  # a compiled package
            if "__init__.py" in inner.names:
                return FoundModule(name, package / "__init__.py", (package,))
        if part in listing.compiled:
            return FoundModule(name, None, ())  # a compiled module
        if f"{part}.py" in listing.names:
            return FoundModule(name, folder / f"{part}.py")
        if part in listing.names and (folder / part).is_dir():
            portions.append(folder / part)
    if portions:
        return FoundModule(name, None, tuple(portions))  # a namespace package
    return None


def _header(path: Path, key: str) -> str | None:
    """One header of a core-metadata file (RFC 822 style, headers end at the first blank line)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            text = handle.read(MAX_METADATA_BYTES)
    except OSError:
        return None
    for line in text.splitlines():
        if not line.strip():
            break
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() == key.lower():
            return value.strip() or None
    return None


def _stamp(paths: Iterable[Path]) -> str:
    """What changes when a watched path changes: each path with its mtime (``-``: missing),
    compared as it is (no digest: hashlib is not imported for it)."""
    parts = []
    for path in paths:
        try:
            parts.append(f"{path}:{path.stat().st_mtime_ns};")
        except OSError:
            parts.append(f"{path}:-;")
    return "".join(parts)


# -- the cache ----------------------------------------------------------------------------------

_LAYOUTS: dict[tuple[Path, int], interp.Layout] = {}
_ENVIRONMENTS: dict[Path, PythonEnvironment] = {}
_LOCK = threading.Lock()


def environment_of(executable: Path) -> PythonEnvironment:
    """The environment of ``executable``: asked once per interpreter (its ``-I -S`` query is
    kept while the executable's mtime is unchanged), read again when a site folder, a ``.pth``
    file or an editable finder changes."""
    with _LOCK:
        cached = _ENVIRONMENTS.get(executable)
    if cached is not None and cached.current:
        return cached
    try:
        key = (executable, executable.stat().st_mtime_ns)
    except OSError:
        key = (executable, 0)
    with _LOCK:
        layout = _LAYOUTS.get(key)
    if layout is None:
        layout = interp.layout(executable)
        with _LOCK:
            _LAYOUTS[key] = layout
    environment = PythonEnvironment(layout)
    with _LOCK:
        _ENVIRONMENTS[executable] = environment
    return environment
