"""Which project files may set a module's attribute: only those whose imports can name the
module (:mod:`evalsubmit.analysis.interp.import_reach`), resolved from each file's place,
not every file importing a module of the same last name. A file that may reach it still
counts (its store makes the value unknown: silent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import Project
from evalsubmit.analysis.interp.import_reach import Asked, may_change_path, places_by_key
from evalsubmit.analysis.interp.module_stores import ModuleStores

STORE = "X = 1\n"


def _set_elsewhere(
    root: Path, files: dict[str, str], module_file: str, module: str | None = None
) -> bool:
    """Whether a file of ``files`` other than ``module_file`` may store or change in place
    the module's ``X``."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    path = (root / module_file).resolve()
    dotted = module or module_file.removesuffix(".py").replace("/", ".")
    return bool(ModuleStores(Project(root)).set_elsewhere(path, dotted, "X", set()))


PACKAGE = {"pkg/__init__.py": "", "pkg/settings.py": STORE, "other/__init__.py": ""}


@pytest.mark.parametrize(
    ("writer", "text", "reaches"),
    [
        ("pkg/main.py", "from . import settings\nsettings.X = 2\n", True),
        ("pkg/main.py", "from .settings import X\nX['a'] = 2\n", True),
        ("pkg/main.py", "from .. import settings\nsettings.X = 2\n", False),  # the root's
        ("pkg/sub/main.py", "from .. import settings\nsettings.X = 2\n", True),
        ("pkg/sub/main.py", "from ..settings import X\nX['a'] = 2\n", True),
        ("pkg/sub/main.py", "from . import settings\nsettings.X = 2\n", False),  # pkg.sub's
        ("other/main.py", "from . import settings\nsettings.X = 2\n", False),  # other's
        ("other/main.py", "from ..pkg import settings\nsettings.X = 2\n", True),
        ("other/main.py", "from .settings import X\nX['a'] = 2\n", False),
        # a package bound by a relative import reaches the modules under it
        ("main/m.py", "from .. import pkg\npkg.settings.X = 2\n", True),
        ("main/m.py", "from .. import other\nother.settings.X = 2\n", False),
    ],
)
def test_a_relative_import_names_what_is_at_its_place(
    tmp_path: Path, writer: str, text: str, reaches: bool
) -> None:
    files = {**PACKAGE, "other/settings.py": STORE, writer: text}
    assert _set_elsewhere(tmp_path, files, "pkg/settings.py") is reaches


def test_a_relative_import_of_the_package_itself_reaches_its_init(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": STORE, "pkg/main.py": "from . import X\nX['a'] = 2\n"}
    assert _set_elsewhere(tmp_path, files, "pkg/__init__.py", "pkg")
    files = {"other/__init__.py": STORE, "pkg/main.py": "from . import X\nX['a'] = 2\n"}
    assert not _set_elsewhere(tmp_path, files, "other/__init__.py", "other")


@pytest.mark.parametrize(
    ("text", "reaches"),
    [
        ("from team_a import runners\nrunners.X = 2\n", True),
        ("from team_b import runners\nrunners.X = 2\n", False),
        ("import team_a.runners as r\nr.X = 2\n", True),
        ("import team_b.runners as r\nr.X = 2\n", False),
        ("from team_a.runners import X\nX['a'] = 2\n", True),
        ("from team_b.runners import X\nX['a'] = 2\n", False),
        # a dotted name matches whatever folder is on sys.path above it: the root's name too
        ("import {root}.team_a.runners as r\nr.X = 2\n", True),
        ("import elsewhere.team_a.runners as r\nr.X = 2\n", False),
    ],
)
def test_an_absolute_dotted_import_names_the_modules_its_names_end_the_path_of(
    tmp_path: Path, text: str, reaches: bool
) -> None:
    files = {
        "team_a/runners.py": STORE,
        "team_b/runners.py": STORE,
        "team_b/job.py": text.format(root=tmp_path.resolve().name),
    }
    assert _set_elsewhere(tmp_path, files, "team_a/runners.py", "runners") is reaches


TEAMS = {
    "team_a/runners.py": STORE,
    "team_a/job.py": "from runners import X\nprint(X)\n",
    "team_b/runners.py": STORE,
}


@pytest.mark.parametrize(
    ("writer", "text", "reaches"),
    [
        # the regression of issue 26: every team's job imports its own `runners`
        ("team_b/job.py", "import runners\nrunners.X = 2\n", False),
        ("team_b/job.py", "from runners import X\nX['a'] = 2\n", False),
        ("team_a/job_2.py", "import runners\nrunners.X = 2\n", True),
        ("team_a/job_2.py", "from runners import X\nX['a'] = 2\n", True),
        ("main.py", "import runners\nrunners.X = 2\n", False),  # the root's own runners
        # a script of a folder below: run from team_a (`python -m`, pytest), it finds it
        ("team_a/jobs/nightly.py", "import runners\nrunners.X = 2\n", True),
        # a folder may be put on sys.path: then any single name may be any folder's
        (
            "team_b/job.py",
            "import sys\nsys.path.insert(0, '../team_a')\n" + "import runners\nrunners.X = 2\n",
            True,
        ),
        (
            "team_b/job.py",
            "from sys import path\npath[:0] = ['../team_a']\n" + "import runners\nrunners.X = 2\n",
            True,
        ),
    ],
)
def test_a_single_name_names_a_module_of_a_folder_that_may_be_on_sys_path(
    tmp_path: Path, writer: str, text: str, reaches: bool
) -> None:
    files = {**TEAMS, writer: text}
    assert _set_elsewhere(tmp_path, files, "team_a/runners.py", "runners") is reaches


def test_a_file_changing_sys_path_elsewhere_makes_any_folder_possible(tmp_path: Path) -> None:
    files = {**TEAMS, "team_b/job.py": "import runners\nrunners.X = 2\n"}
    assert not _set_elsewhere(tmp_path, files, "team_a/runners.py", "runners")
    files["conftest.py"] = "import sys\n\nsys.path.append('team_a')\n"
    assert _set_elsewhere(tmp_path, files, "team_a/runners.py", "runners")


@pytest.mark.parametrize(
    ("configuration", "text"),
    [
        ("team_a/pyproject.toml", "[project]\nname = 'a'\n"),  # installable: found anywhere
        ("team_a/setup.py", "from setuptools import setup\nsetup()\n"),
        ("pyproject.toml", "[tool.pytest.ini_options]\npythonpath = ['team_a']\n"),
        ("pytest.ini", "[pytest]\npythonpath = team_a\n"),
        ("tox.ini", "[testenv]\nsetenv = PYTHONPATH = {toxinidir}/team_a\n"),
    ],
)
def test_a_folder_a_configuration_may_put_on_sys_path_is_possible_everywhere(
    tmp_path: Path, configuration: str, text: str
) -> None:
    files = {**TEAMS, "team_b/job.py": "import runners\nrunners.X = 2\n"}
    assert not _set_elsewhere(tmp_path, files, "team_a/runners.py", "runners")
    files[configuration] = text
    assert _set_elsewhere(tmp_path, files, "team_a/runners.py", "runners")


@pytest.mark.parametrize(
    ("writer", "text", "reaches"),
    [
        ("tests/test_app.py", "import app.settings as s\ns.X = 2\n", True),
        ("tests/test_app.py", "from app import settings\nsettings.X = 2\n", True),
        ("tests/test_app.py", "import app\napp.settings.X = 2\n", True),  # src/ on sys.path
        ("tests/test_app.py", "import settings\nsettings.X = 2\n", False),  # src/app is not
        ("tests/test_app.py", "import other\nother.settings.X = 2\n", False),
    ],
)
def test_a_src_layout(tmp_path: Path, writer: str, text: str, reaches: bool) -> None:
    files = {"src/app/__init__.py": "", "src/app/settings.py": STORE, writer: text}
    assert _set_elsewhere(tmp_path, files, "src/app/settings.py", "app.settings") is reaches


def test_a_dotted_name_is_matched_whatever_folder_may_be_on_sys_path(tmp_path: Path) -> None:
    """libs/ is above no importer, but a dotted name is matched by its path's end alone
    (``PYTHONPATH=libs``, not seen, may put it there)."""
    files = {
        "libs/app/__init__.py": "",
        "libs/app/settings.py": STORE,
        "tools/run.py": "import app.settings as s\ns.X = 2\n",
    }
    assert _set_elsewhere(tmp_path, files, "libs/app/settings.py", "app.settings")


def test_a_module_at_the_top_of_src_is_found_from_the_tests(tmp_path: Path) -> None:
    files = {"src/settings.py": STORE, "tests/test_s.py": "import settings\nsettings.X = 2\n"}
    assert _set_elsewhere(tmp_path, files, "src/settings.py", "settings")
    files = {"lib/settings.py": STORE, "tests/test_s.py": "import settings\nsettings.X = 2\n"}
    assert not _set_elsewhere(tmp_path, files, "lib/settings.py", "settings")


@pytest.mark.parametrize(
    ("text", "reaches"),
    [
        ("import pkg\npkg.settings.X = 2\n", True),
        ("import pkg.other\npkg.settings.X = 2\n", True),  # binds pkg
        ("import pkg.other as o\no.X = 2\n", False),  # binds pkg.other only
        ("from pkg import other\nother.settings.X = 2\n", False),
        ("import nested.pkg as p\np.settings.X = 2\n", False),  # another pkg
        ("import other\nother.settings.X = 2\n", False),
    ],
)
def test_a_package_bound_reaches_the_modules_under_it(
    tmp_path: Path, text: str, reaches: bool
) -> None:
    files = {**PACKAGE, "pkg/other.py": "", "nested/pkg/__init__.py": "", "main.py": text}
    assert _set_elsewhere(tmp_path, files, "pkg/settings.py", "pkg.settings") is reaches


def test_a_package_bound_from_another_folder_reaches_only_when_it_may_be_found(
    tmp_path: Path,
) -> None:
    files = {
        **PACKAGE,
        "tools/pkg/__init__.py": "",
        "tools/run.py": "import pkg\npkg.settings.X = 2\n",
    }
    # the root is above tools/: run from it (`python -m tools.run`), its pkg is found
    assert _set_elsewhere(tmp_path, files, "pkg/settings.py", "pkg.settings")
    files = {
        "libs/pkg/__init__.py": "",
        "libs/pkg/settings.py": STORE,
        "tools/run.py": "import pkg\npkg.settings.X = 2\n",
    }
    assert not _set_elsewhere(tmp_path, files, "libs/pkg/settings.py", "pkg.settings")


def test_a_module_found_under_another_name_is_matched_by_its_names(tmp_path: Path) -> None:
    """Its dotted name is not its path's (a symbolic link): any import naming its last name
    counts, as before imports were resolved."""
    files = {"real/settings.py": STORE, "main.py": "from linked import settings\nsettings.X = 2\n"}
    assert _set_elsewhere(tmp_path, files, "real/settings.py", "linked.settings")
    assert not _set_elsewhere(tmp_path, files, "real/settings.py", "real.settings")


def test_an_editor_buffer_is_resolved_from_its_place(tmp_path: Path) -> None:
    for name, text in TEAMS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    project = Project(tmp_path)
    stores = ModuleStores(project)
    runners = (tmp_path / "team_a/runners.py").resolve()
    job_b = (tmp_path / "team_b/job.py").resolve()
    project.set_overlay(job_b, "import runners\nrunners.X = 2\n")
    assert not stores.set_elsewhere(runners, "runners", "X", set())
    project.set_overlay(job_b, "from team_a import runners\nrunners.X = 2\n")
    assert stores.set_elsewhere(runners, "runners", "X", set())


@pytest.mark.parametrize(
    ("text", "changes"),
    [
        ("import sys\nsys.path.insert(0, 'x')\n", True),
        ("import sys as s\ns.path.append('x')\n", True),
        ("from sys import path\n", True),
        ("import os\nos.sys.path.append('x')\n", True),
        ("import site\nsite.addsitedir('x')\n", True),
        ("import sys\nsys.exit(analysis.path)\n", False),
        ("import os\nos.path.join('a', 'b')\n", False),
        ("import sys\nimport os\nprint(sys.argv)\n", False),
        ("sys.path[:0] = ['x']\n", True),  # at the very start
        ("x = mysys.path + sysys.path + ésys.path + _sys.path\n", False),  # not a word of its own
        ("import sys\nsys . path.append('x')\n", True),
        ("syssys.path = 1\n", False),
    ],
)
def test_a_text_that_may_change_sys_path(text: str, changes: bool) -> None:
    assert may_change_path(text) is changes


def test_a_single_name_is_possible_from_the_importers_folder_and_above_only() -> None:
    parts = ("/", "p", "team_a", "runners")
    asked = Asked(parts, frozenset(), any_root=False)
    places = places_by_key(("/", "p", "team_b"), [("", "runners", None, "init")])
    assert not asked.reached_by(("/", "p", "team_b"), places["runners"])
    assert asked.reached_by(("/", "p", "team_a"), places["runners"])
    assert asked.reached_by(("/", "p", "team_a", "deeper"), places["runners"])
    assert Asked(parts, frozenset({3}), any_root=False).reached_by(
        ("/", "p", "team_b"), places["runners"]
    )


def test_file_keys_are_places_by_key_and_import_words_item_by_item() -> None:
    """The index's per-file record, built with each absolute item's share kept, is what
    :func:`places_by_key` and :func:`import_words` find for the file: over the statements of
    this repository's sources and a few written to hit relative, starred and dotted forms."""
    from evalsubmit.analysis.interp.import_reach import file_keys, items_of, unresolved_imports
    from evalsubmit.analysis.interp.store_text import import_words
    from evalsubmit.workspace.import_text import statements_in

    root = Path(__file__).parents[2]
    texts = [path.read_text("utf-8") for path in sorted((root / "server").rglob("*.py"))]
    texts += [
        "from . import a, b as c\nfrom .. import d\nfrom ...pkg.sub import (e,\n f)\n",
        "import a.b.c, d as e\nfrom x.y import *\nfrom .m import n.o\nimport p.q as r\n",
        "from .... import far\nfrom . import *\nimport \\\n  x . y\n",
    ]
    memo: dict = {}
    folders = [(), ("/",), ("/", "a"), ("/", "a", "b", "c")]
    for text in texts:
        items = items_of(statements_in(text))
        for folder in folders:
            expected = places_by_key(folder, items), *import_words(unresolved_imports(items))
            assert file_keys(folder, items, memo) == expected


def test_may_change_path_looks_at_every_sys_not_inside_a_word() -> None:
    """Its pattern finds the same ``sys`` as :func:`~.store_text.occurrences` (every start not
    preceded by a word character, overlapping ones included): random texts of the pieces that
    matter."""
    import random

    from evalsubmit.analysis.interp.import_reach import _SYS_USE
    from evalsubmit.analysis.interp.store_text import occurrences

    pieces = ["sys", "s", "y", ".", "path", " ", "\t", "as", "import", "_", "é", "1", "\n", "ys"]
    r = random.Random(7)
    for _ in range(5_000):
        text = "".join(r.choice(pieces) for _ in range(r.randint(1, 12)))
        expected = any(_SYS_USE.match(text, at + 3) for at in occurrences(text, "sys"))
        assert may_change_path(text) is expected, text
