"""The user's Python environment, found statically (workspace/environment.py and friends):
search path, ``.pth`` entries, editable installs, distributions; nothing of the user's runs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from evalsubmit.workspace import environment as environment_module
from evalsubmit.workspace.environment import PythonEnvironment, environment_of, normalize
from evalsubmit.workspace.interpreter import (
    QUERY,
    default_interpreter,
    interpreter_from_setting,
    layout,
    venv_of,
)
from evalsubmit.workspace.sitepath import read_site
from fake_env import FakeEnv, make_venv, write_dist_info


def test_the_search_path_follows_site(installed_env: FakeEnv) -> None:
    env = environment_of(installed_env.python)
    assert env.layout.how == "interpreter" and env.layout.problem is None
    assert env.layout.venv == installed_env.root / "venv"
    path = list(env.search_path)
    stdlib = Path(os.__file__).parent
    assert stdlib in path and installed_env.site in path
    assert path.index(stdlib) < path.index(installed_env.site)
    # the src-layout editable install is a path line of a .pth file, after its site folder
    src = installed_env.root / "src" / "teamsrc" / "src"
    assert path.index(installed_env.site) < path.index(src)
    # the flat editable install is setuptools' finder: its MAPPING, read from the literal
    assert env.editable == {"teamedit": installed_env.root / "src" / "teamedit" / "teamedit"}
    assert installed_env.fired() == []


def test_modules_are_found_where_python_would_import_them(installed_env: FakeEnv) -> None:
    env = environment_of(installed_env.python)
    site, src = installed_env.site, installed_env.root / "src"
    expected = {
        "teamlib": site / "teamlib" / "__init__.py",
        "teamlib.runners": site / "teamlib" / "runners.py",
        "teamedit.runners": src / "teamedit" / "teamedit" / "runners.py",
        "teamsrc.config": src / "teamsrc" / "src" / "teamsrc" / "config.py",
        "json": Path(os.__file__).parent / "json" / "__init__.py",
    }
    for name, where in expected.items():
        found = env.find_module(name)
        assert found is not None and found.source == where, name
    assert env.find_module("teamlib.nothing") is None
    assert env.find_module("not_installed") is None
    for name in ("fastlib", "fastpkg"):
        found = env.find_module(name)
        assert found is not None and found.source is None, name
    assert env.find_module("fastpkg.runners") is not None  # its submodules are source
    assert env.find_module("not a name") is None


def test_distributions_come_from_their_metadata(installed_env: FakeEnv) -> None:
    env = environment_of(installed_env.python)
    assert {"teamlib", "teamedit", "teamsrc", "nemo-platform"} <= set(env.distributions())
    assert env.version("nemo-platform") == "0.7.1"
    assert env.version("NeMo_Platform") == "0.7.1"  # names compare as PEP 503 says
    assert env.version("teamedit") == "1.2.3"
    assert env.version("nemo-evaluator-sdk") is None
    assert normalize("Foo.Bar__baz") == "foo-bar-baz"


def test_nothing_is_imported_or_run(installed_env: FakeEnv) -> None:
    """The -I -S query runs no .pth line (evil.pth, the editable finder) and no package."""
    environment_module._ENVIRONMENTS.clear()
    environment_module._LAYOUTS.clear()
    env = environment_of(installed_env.python)
    env.distributions()
    env.find_module("teamedit.runners")
    assert installed_env.fired() == []


def test_an_environment_is_read_again_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, site = make_venv(tmp_path / "venv")
    monkeypatch.setattr(environment_module, "CHECK_INTERVAL_S", 0.0)
    first = environment_of(python)
    assert environment_of(python) is first and first.version("teamlib") is None
    write_dist_info(site, "teamlib", "2.0")
    second = environment_of(python)
    assert second is not first and second.version("teamlib") == "2.0"
    assert second.stamp != first.stamp
    (tmp_path / "extra").mkdir()
    (site / "extra.pth").write_text(str(tmp_path / "extra") + "\n")
    assert tmp_path / "extra" in environment_of(python).search_path


def test_pth_files_are_read_not_run(tmp_path: Path) -> None:
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    site.mkdir()
    (elsewhere / "pkg").mkdir(parents=True)
    (site / "a.pth").write_text(f"# a comment\n\n{elsewhere}\n/does/not/exist\nrelative\n")
    (site / "relative").mkdir()
    (site / ".hidden.pth").write_text(f"{tmp_path}\n")
    (site / "b.pth").write_text("import _editable_impl_pkg\n")
    (site / "_editable_impl_pkg.py").write_text(
        "from editables.redirector import RedirectingFinder as F\n"
        "F.install()\n"
        f"F.map_module('pkg', {str(elsewhere / 'pkg' / '__init__.py')!r})\n"
        f"F.map_module('single', {str(elsewhere / 'single.py')!r})\n"
    )
    (site / "c.pth").write_text("import broken(\nimport os, sys; os.system('exit 1')\n")
    found = read_site((site,))
    assert found.entries == [site, elsewhere, site / "relative"]
    assert found.mapping == {"pkg": elsewhere / "pkg", "single": elsewhere / "single.py"}
    assert site / "_editable_impl_pkg.py" in found.watched


def test_an_interpreter_that_cannot_run_falls_back_to_the_venv_folders(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /nowhere\ninclude-system-site-packages = false\n")
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 3\n")
    (venv / "bin" / "python").chmod(0o755)
    site = venv / "lib" / "python3.12" / "site-packages"
    site.mkdir(parents=True)
    found = layout(venv / "bin" / "python")
    assert found.how == "pyvenv.cfg" and found.problem and "exit 3" in found.problem
    assert found.site == (site,) and found.version == (3, 12) and found.venv == venv
    env = PythonEnvironment(found)
    assert env.search_path == (site,)


def test_choosing_the_interpreter(tmp_path: Path) -> None:
    python, _ = make_venv(tmp_path / "venv")
    assert default_interpreter({"VIRTUAL_ENV": str(tmp_path / "venv")}) == python
    assert default_interpreter({}) == Path(sys.executable)
    assert default_interpreter({"VIRTUAL_ENV": str(tmp_path / "gone")}) == Path(sys.executable)
    assert interpreter_from_setting(str(tmp_path / "venv"), None) == python
    assert interpreter_from_setting("venv/bin/python", tmp_path) == tmp_path / "venv/bin/python"
    assert interpreter_from_setting("  ", tmp_path) is None
    assert interpreter_from_setting(None, tmp_path) is None
    assert venv_of(python) == (tmp_path / "venv", False)
    assert venv_of(Path("/usr/bin/python3")) == (None, False)


def test_the_running_interpreter_answers_in_process_as_the_query_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server starts no process of its own: its own Python's layout comes from this
    process, and is the one ``python -I -S -c QUERY`` prints."""
    import json
    import subprocess

    executable = Path(sys.executable)
    venv, system_site = venv_of(executable)
    queried = subprocess.run(
        [sys.executable, "-I", "-S", "-c", QUERY, str(venv or ""), str(system_site).lower()],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(queried.stdout)

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a process was started: {args}")

    monkeypatch.setattr(subprocess, "run", no_process)
    own = layout(executable)
    assert own.how == "interpreter" and own.problem is None
    assert own.version == tuple(expected["version"])
    assert own.stdlib == tuple(Path(p) for p in expected["stdlib"])
    assert own.site == tuple(dict.fromkeys(Path(p) for p in expected["site"]))


SYSTEM_PYTHONS = [p for p in ("/usr/bin/python3",) if Path(p).is_file()]


@pytest.mark.parametrize("base", SYSTEM_PYTHONS)
def test_a_venv_of_the_system_python_lists_its_site_packages(tmp_path: Path, base: str) -> None:
    """Debian's and Ubuntu's patched ``site`` lists a venv's ``site-packages`` only once
    ``sys.prefix`` is the venv, which ``-I -S`` leaves at the base: the query must still find
    the packages installed there (a project's ``.venv`` made with ``python3 -m venv``)."""
    import subprocess

    venv = tmp_path / ".venv"
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    version = subprocess.run(
        [str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    site = venv / "lib" / f"python{version}" / "site-packages"
    write_dist_info(site, "nemo-platform", "0.0.1")
    found = layout(python)
    assert found.how == "interpreter" and found.problem is None
    assert site in found.site
    assert environment_of(python).version("nemo-platform") == "0.0.1"
