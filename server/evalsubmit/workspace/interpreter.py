"""Which Python interpreter is the user's, and where its standard library and site-packages are.

The interpreter is the one the user chose: the editor's selection (the server's ``python``
setting), ``--python`` or the active virtualenv (``VIRTUAL_ENV``) for the CLI, else the one
running evalsubmit. Nothing is discovered by walking the workspace: a ``.venv/bin/python`` in a
cloned repository is a program its author wrote, and is never run unless the user selects it.

The interpreter itself is asked for its paths, as ``python -I -S -c <QUERY>``: ``-I`` ignores
``PYTHON*`` variables, the user site and the current directory; ``-S`` does not import
:mod:`site`'s main, so no ``.pth`` file, ``sitecustomize`` or ``usercustomize`` runs. The query
only imports ``sys``, ``json`` and ``site``/``sysconfig`` from the interpreter's own standard
library. When the interpreter cannot be run (missing, another platform, a timeout), the layout
of a virtualenv is read from its ``pyvenv.cfg`` and folders instead.
"""

from __future__ import annotations

import os
import site
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

from evalsubmit.core.records import Record

QUERY_TIMEOUT_S = 10.0

# Run by the user's interpreter under -I -S. ``site`` is imported for its path functions only:
# with -S its main() (which processes .pth files) does not run. The venv prefix comes from our
# own reading of pyvenv.cfg, because before 3.11 only site.main() switched sys.prefix to it.
QUERY = r"""
import json, os, site, sys
venv, system_site = sys.argv[1], sys.argv[2] == "true"
if venv:
    # Debian's site.getsitepackages() lists a venv's site-packages only when sys.prefix differs
    # from sys.base_prefix, which under -S (no site.main()) it does not: say it is the venv.
    sys.prefix = sys.exec_prefix = venv
    prefixes = [venv] + ([sys.base_prefix, sys.base_exec_prefix] if system_site else [])
else:
    prefixes = [sys.prefix, sys.exec_prefix]
user = (not venv or system_site) and os.path.isdir(site.getusersitepackages())
print(json.dumps({
    "version": list(sys.version_info[:2]),
    "stdlib": [p for p in sys.path if p],
    "site": ([site.getusersitepackages()] if user else []) + site.getsitepackages(prefixes),
}))
"""


class Layout(Record):
    """Where an interpreter finds modules before any ``.pth`` file is read."""

    __slots__ = ("executable", "how", "problem", "site", "stdlib", "venv", "version")
    executable: Final[Path]
    version: Final[tuple[int, int] | None]
    stdlib: Final[tuple[Path, ...]]
    """The standard library: zip, source folder, ``lib-dynload``."""
    site: Final[tuple[Path, ...]]
    """Site folders in :mod:`site`'s order (user site, then the venv's, then the base's)."""
    venv: Final[Path | None]
    how: Final[str]
    """How the layout was found: ``"interpreter"`` (asked with -I -S) or ``"pyvenv.cfg"``."""
    problem: Final[str | None]
    """Why the interpreter could not be asked (then the layout is the static guess)."""

    def __init__(
        self,
        executable: Path,
        version: tuple[int, int] | None,
        stdlib: tuple[Path, ...],
        site: tuple[Path, ...],
        venv: Path | None,
        how: str,
        problem: str | None = None,
    ) -> None:
        self.executable = executable
        self.version = version
        self.stdlib = stdlib
        self.site = site
        self.venv = venv
        self.how = how
        self.problem = problem


def default_interpreter(environ: Mapping[str, str] | None = None) -> Path:
    """The CLI's default: the active virtualenv's interpreter, else the one running evalsubmit."""
    env = os.environ if environ is None else environ
    active = env.get("VIRTUAL_ENV")
    if active:
        found = executable_in(Path(active))
        if found is not None:
            return found
    return Path(sys.executable)


def interpreter_from_setting(value: str | None, base: Path | None) -> Path | None:
    """The interpreter a setting names: an executable or a virtualenv folder; relative paths
    are relative to ``base`` (the workspace folder). None for an empty setting."""
    if value is None or not value.strip():
        return None
    path = Path(os.path.expandvars(value.strip())).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    return executable_in(path) or path


def executable_in(path: Path) -> Path | None:
    """``path`` itself when it is a file, else the interpreter of the environment folder."""
    if path.is_file():
        return path
    for candidate in ("bin/python", "bin/python3", "Scripts/python.exe", "python.exe"):
        if (path / candidate).is_file():
            return path / candidate
    return None


def venv_of(executable: Path) -> tuple[Path | None, bool]:
    """The virtualenv an interpreter belongs to (the folder holding ``pyvenv.cfg`` next to or
    above it, as CPython looks; symlinks are not followed) and whether it includes the system
    site-packages."""
    for folder in (executable.parent.parent, executable.parent):
        config = folder / "pyvenv.cfg"
        if config.is_file():
            return folder, _pyvenv_value(config, "include-system-site-packages") == "true"
    return None, False


def layout(executable: Path) -> Layout:
    """Ask the interpreter for its paths (-I -S); fall back to the virtualenv's folders. The
    Python running evalsubmit answers in-process: the server starts no process of its own."""
    venv, system_site = venv_of(executable)
    if _is_running_interpreter(executable):
        return _own_layout(executable, venv, system_site)
    import json  # another interpreter only: the running one answers without them
    import subprocess

    argv = [str(executable), "-I", "-S", "-c", QUERY, str(venv or ""), str(system_site).lower()]
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=QUERY_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if done.returncode != 0:
            raise ValueError(f"exit {done.returncode}: {done.stderr.strip()[-300:]}")
        data = json.loads(done.stdout)
        version = data["version"]
        return Layout(
            executable=executable,
            version=(int(version[0]), int(version[1])),
            stdlib=tuple(Path(p) for p in data["stdlib"]),
            site=_unique(Path(p) for p in data["site"]),
            venv=venv,
            how="interpreter",
        )
    except (OSError, ValueError, KeyError, IndexError, TypeError, subprocess.TimeoutExpired) as e:
        problem = f"could not run {executable} -I -S: {type(e).__name__}: {e}"
        return _static_layout(executable, venv, problem)


def _is_running_interpreter(executable: Path) -> bool:
    # Not resolved: a venv's bin/python links to the base interpreter, whose layout differs.
    return Path(os.path.abspath(executable)) == Path(os.path.abspath(sys.executable))


def _own_layout(executable: Path, venv: Path | None, system_site: bool) -> Layout:
    """What :data:`QUERY` would print, from this process: the standard library is the part of
    ``sys.path`` under the base installation that is no site folder (``-I -S`` keeps only it)."""
    prefixes = [str(venv)] if venv else [sys.prefix, sys.exec_prefix]
    if venv and system_site:
        prefixes += [sys.base_prefix, sys.base_exec_prefix]
    user = (not venv or system_site) and os.path.isdir(site.getusersitepackages())
    sites = ([site.getusersitepackages()] if user else []) + site.getsitepackages(prefixes)
    bases = tuple(
        os.path.join(os.path.abspath(b), "") for b in (sys.base_prefix, sys.base_exec_prefix)
    )
    every_site = set(sites) | set(site.getsitepackages())
    stdlib = [
        Path(entry)
        for entry in sys.path
        if entry
        and os.path.abspath(entry).startswith(bases)
        and entry not in every_site
        and not {"site-packages", "dist-packages"} & set(Path(entry).parts)
    ]
    return Layout(
        executable=executable,
        version=(sys.version_info[0], sys.version_info[1]),
        stdlib=_unique(stdlib),
        site=_unique(Path(p) for p in sites),
        venv=venv,
        how="interpreter",
    )


def _static_layout(executable: Path, venv: Path | None, problem: str) -> Layout:
    """A virtualenv's site-packages from its folders alone (``lib/pythonX.Y/site-packages`` or
    ``Lib/site-packages``); outside a virtualenv nothing can be known without the interpreter."""
    site: list[Path] = []
    version: tuple[int, int] | None = None
    if venv is not None:
        for found in sorted(venv.glob("lib/python3*/site-packages")):
            site.append(found)
            digits = found.parent.name.removeprefix("python").split(".")
            if len(digits) == 2 and all(d.isdigit() for d in digits):
                version = (int(digits[0]), int(digits[1]))
        site += [p for p in (venv / "Lib" / "site-packages",) if p.is_dir()]
    return Layout(executable, version, (), tuple(site), venv, "pyvenv.cfg", problem)


def _pyvenv_value(config: Path, key: str) -> str | None:
    try:
        text = config.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip().lower() == key:
            return value.strip().lower()
    return None


def _unique(paths: Iterable[Path]) -> tuple[Path, ...]:
    seen: list[Path] = []
    for path in paths:
        if path not in seen:
            seen.append(path)
    return tuple(seen)
