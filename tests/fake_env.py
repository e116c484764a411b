"""Real Python environments holding fake packages, for the tests of installed-package imports
and of the user's SDK version. ``tests/`` is on sys.path, so a test module or conftest does

    from fake_env import installed_env  # noqa: F401  (the session fixture)

``installed_env`` (built once, kept in ``.cache/test-envs/`` under a key of this file's text and
the Python and setuptools versions): a venv (``python -m venv --without-pip``) into which the
test suite's own pip installs, with no index and no build isolation (setuptools comes from the
dev venv), three local packages:

* ``teamlib``: flat layout, a normal install (copied into site-packages);
* ``teamedit``: flat layout, ``pip install -e``: setuptools writes an ``__editable__`` finder
  (a ``MAPPING`` to the source folder) behind an import line of a ``.pth`` file;
* ``teamsrc``: src layout, ``pip install -e``: a path line in a ``.pth`` file;

and, written by hand into site-packages: ``nemo_platform-0.7.1.dist-info`` (another SDK than the
rules'), ``fastlib`` (compiled only: an ``.so`` and no source), ``biglib`` (a module larger than
evalsubmit reads), ``typing_extensions`` (named like a package modelled by name) and
``evil.pth`` (an import line). Every module and the ``.pth`` line leave a
file in ``sentinels`` when imported or run: the tests assert that none ever appears.

:func:`sdk_env` makes a bare venv with only an SDK's ``dist-info`` (milliseconds).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

HARBOR = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import "
    "HarborAgentTaskRunner, HarborRuntimeConfig"
)
GYM = "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig"
PYPROJECT = """\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "1.2.3"
"""
RUNNERS = f"""\
{{sentinel}}{HARBOR}
{GYM}
from {{package}}.config import BASE


def make_runner():
    return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir="runs"))


def gym_runner(agent):
    return GymAgentTaskRunner(config=GymRuntimeConfig(
        agent=agent, agent_config="a.yaml", resources_server="mcqa",
        hydra_params={{{{"seeds": (s for s in range(3))}}}}))


GOOD = GymAgentTaskRunner(config=GymRuntimeConfig(**BASE))
"""
CONFIG = """\
{sentinel}BASE = {{"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}}
"""


@dataclass(frozen=True)
class FakeEnv:
    root: Path
    python: Path
    site: Path
    sentinels: Path

    def fired(self) -> list[str]:
        return sorted(p.name for p in self.sentinels.iterdir())


def sentinel(sentinels: Path, name: str) -> str:
    return f"open({str(sentinels / name)!r}, 'w').close()\n"


def make_venv(folder: Path) -> tuple[Path, Path]:
    """A venv without pip (fast): its interpreter and its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return python, folder / "lib" / version / "site-packages"


def write_dist_info(site: Path, name: str, version: str) -> Path:
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\n")
    return info


def sdk_env(folder: Path, **versions: str) -> Path:
    """A venv whose only content is the metadata of the given SDK distributions
    (``nemo_platform="0.7.1"``); returns its interpreter."""
    python, site = make_venv(folder)
    for name, version in versions.items():
        write_dist_info(site, name.replace("_", "-"), version)
    return python


def _package(source: Path, name: str, sentinels: Path, *, src: bool = False) -> Path:
    """A local project folder holding package ``name`` (flat or src layout)."""
    project = source / name
    package = project / "src" / name if src else project / name
    package.mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT.format(name=name))
    (package / "__init__.py").write_text(
        sentinel(sentinels, name) + "from .runners import make_runner, gym_runner, GOOD\n"
    )
    (package / "runners.py").write_text(
        RUNNERS.format(sentinel=sentinel(sentinels, f"{name}.runners"), package=name)
    )
    (package / "config.py").write_text(
        CONFIG.format(sentinel=sentinel(sentinels, f"{name}.config"))
    )
    return project


def build_installed_env(root: Path) -> FakeEnv:
    sentinels = root / "sentinels"
    sentinels.mkdir(parents=True)
    python, site = make_venv(root / "venv")
    source = root / "src"
    teamlib = _package(source, "teamlib", sentinels)
    teamedit = _package(source, "teamedit", sentinels)
    teamsrc = _package(source, "teamsrc", sentinels, src=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    pip += ["--no-build-isolation", "--no-compile", "--disable-pip-version-check"]
    subprocess.run(
        [
            *pip,
            "--prefix",
            str(root / "venv"),
            str(teamlib),
            "-e",
            str(teamedit),
            "-e",
            str(teamsrc),
        ],
        check=True,
        env=env,
        cwd=root,
    )
    write_dist_info(site, "nemo-platform", "0.7.1")
    # Compiled only: an extension module and a package whose __init__ is one (never loadable).
    (site / "fastlib.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF not really")
    (site / "fastpkg").mkdir()
    (site / "fastpkg" / "__init__.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (site / "fastpkg" / "runners.py").write_text(
        sentinel(sentinels, "fastpkg.runners") + HARBOR + "\nR = HarborAgentTaskRunner()\n"
    )
    # Larger than evalsubmit reads: a Harbor runner after 600 KB of comments.
    (site / "biglib.py").write_text(
        sentinel(sentinels, "biglib")
        + HARBOR
        + "\n"
        + ("# padding\n" * 60_000)
        + "def make_runner():\n    return HarborAgentTaskRunner()\n"
    )
    (site / "evil.pth").write_text("import os; " + sentinel(sentinels, "evil.pth"))
    # Named like a package the checker models by name: never read.
    (site / "typing_extensions.py").write_text(
        sentinel(sentinels, "typing_extensions") + RUNNERS.format(sentinel="", package="teamlib")
    )
    return FakeEnv(root, python, site, sentinels)


CACHE = Path(__file__).resolve().parents[1] / ".cache" / "test-envs"
_SOURCE = Path(__file__).read_bytes()
"""This file as imported: the cache key must describe the code that builds the environment."""


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One builder at a time (the cache is shared by the worktrees and parallel runs)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def installed_env(tmp_path_factory: pytest.TempPathFactory) -> FakeEnv:
    """Built once (pip and setuptools take ~10 s on a busy machine), then reused."""
    key = hashlib.sha256(
        _SOURCE
        + f"{sys.version}|{sys.base_prefix}|{importlib.metadata.version('setuptools')}".encode()
    ).hexdigest()[:16]
    root = CACHE.resolve() / f"installed-{key}" if CACHE.parent.is_dir() else None
    if root is None:
        return build_installed_env(tmp_path_factory.mktemp("installed-env"))
    with _locked(root.with_suffix(".lock")):
        if not (root / ".complete").is_file():
            shutil.rmtree(root, ignore_errors=True)
            build_installed_env(root)
            (root / ".complete").touch()
    python = root / "venv" / "bin" / "python"
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    found = FakeEnv(
        root, python, root / "venv" / "lib" / version / "site-packages", root / "sentinels"
    )
    for fired in found.sentinels.iterdir():  # left by an earlier run that failed: start clean
        fired.unlink()
    return found


JOB = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
from teamlib.runners import make_runner

client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=make_runner())
"""
"""A job using a runner built by the installed ``teamlib``: ES106 on line 6 (``target=``)."""


def source(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")
