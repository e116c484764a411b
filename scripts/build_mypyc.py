"""Compile the analysis core with mypyc into extension modules built in place.

An experiment (issue 26, docs/benchmarks.md "The analysis compiled with mypyc"): the same
sources compiled to C, so the cold measures can be timed interpreted against compiled. Not
part of `make setup` or `make test`, and not behaviour-preserving yet (the same section lists
what differs). Nothing imports the result specially: Python's import system prefers
`name.cpython-*.so` over `name.py` in the same folder, so once built, every import of a
compiled module loads the extension; `--clean` removes them and the sources run again.

usage (from the repository root):
    .venv/bin/python scripts/build_mypyc.py [--clean] [--list] [PACKAGE_OR_FILE ...]

PACKAGE_OR_FILE are paths under server/ (default: DEFAULT_TARGETS). The generated C and the
object files go to build/mypyc/ (ignored by git); the .so files land next to the sources.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "server"
BUILD = ROOT / "build" / "mypyc"

DEFAULT_TARGETS = ["evalsubmit/analysis", "evalsubmit/sdk"]

# Modules left interpreted, each with the reason (mypyc 2.4.1 either refuses it, or its
# compiled form crashes or behaves differently).
EXCLUDED: dict[str, str] = {
    "evalsubmit/analysis/interp/grouping.py": "DependencyLog subclasses set, which a native "
    "class cannot (and compiled callers bypass its add(): the docs' first difference)",
    "evalsubmit/analysis/__init__.py": "its PEP 562 module __getattr__ is called by the "
    "compiled module's own set-up (for __file__) before its globals exist: a crash on import",
    "evalsubmit/analysis/source/chunks.py": "ChunkCache is held by weak reference "
    "(weakref_slot=True); mypyc 2.4.1's native classes cannot be",
    "evalsubmit/analysis/report.py": "mypyc drops the cause of `raise ... from error`: the "
    "engine's internal errors would lose the traceback that says where they came from",
    "evalsubmit/sdk/models.py": "pydantic models (non-native classes); the C mypyc 2.4.1 writes "
    "for them in multi-file mode does not compile (CPyModule_pydantic___main undeclared)",
}


def source_files(targets: list[str]) -> list[str]:
    files: list[str] = []
    for target in targets:
        path = SERVER / target
        found = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in found:
            relative = file.relative_to(SERVER).as_posix()
            if relative not in EXCLUDED:
                files.append(relative)
    return files


def built_extensions() -> list[Path]:
    return sorted(SERVER.rglob("*.so"))


def clean() -> None:
    for extension in built_extensions():
        extension.unlink()
        print(f"removed {extension.relative_to(ROOT)}")


def build(files: list[str]) -> None:
    # mypyc names modules after the paths it is given, so it runs from server/ (the folder
    # that holds the `evalsubmit` package); pyproject.toml's strict mypy settings still apply.
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(SERVER)
    extensions = mypycify(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(BUILD / "mypy_cache"),
            *files,
        ],
        opt_level="3",
        target_dir=str(BUILD),
        multi_file=True,
    )
    setup(
        name="evalsubmit-mypyc",
        ext_modules=extensions,
        script_args=[
            "build_ext",
            "--inplace",
            "--build-temp",
            str(BUILD / "temp"),
            "--build-lib",
            str(BUILD / "lib"),
            "--parallel",
            "2",
        ],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("targets", nargs="*", default=DEFAULT_TARGETS)
    parser.add_argument("--clean", action="store_true", help="remove the built extensions")
    parser.add_argument("--list", action="store_true", help="list the files it would compile")
    arguments = parser.parse_args()
    if arguments.clean:
        clean()
        return 0
    files = source_files(arguments.targets)
    if arguments.list:
        print("\n".join(files))
        return 0
    started = time.perf_counter()
    clean()  # a module no longer compiled must not keep its stale extension
    build(files)
    print(
        f"compiled {len(files)} modules in {time.perf_counter() - started:.0f} s", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
