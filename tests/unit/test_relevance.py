"""The CLI's pre-filter (:mod:`evalsubmit.workspace.relevance`): a file that cannot reach the
SDK is not analysed, and that changes no result. Every case compares the CLI with the filter
on and off (every file analysed, as before it existed)."""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path

import pytest

from evalsubmit.cli import main
from evalsubmit.cli import projects as check_command
from evalsubmit.workspace.import_text import Statement, imports_in
from evalsubmit.workspace.project import Project
from evalsubmit.workspace.relevance import RelevanceScan
from evalsubmit.workspace.walk import python_files
from fake_env import FakeEnv

REPO = Path(__file__).resolve().parents[2]
SDK = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
"""
HELPERS = SDK + textwrap.dedent("""\
    client = NeMoPlatform(workspace="qa")


    def make_runner(hp):
        return GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="c.yaml", resources_server="m", hydra_params=hp))


    def submit_to(ref, target=None):
        client.evaluator.submit(tasks=TasksetRef(ref), target=target)
    """)
TREE = {
    "pyproject.toml": "[project]\nname = 't'\n",
    ".gitignore": "# nothing ignored\n",
    "app/__init__.py": "",
    "app/util.py": "import json\n\n\ndef load(p):\n    return json.loads(open(p).read())\n",
    # bad values written where the SDK is never named, submitted from jobs/job_a.py
    "app/params.py": "HP = {'fn': lambda x: x}\n",
    "app/params2.py": (
        "import os\n\nHP2 = {'files': open(os.devnull)}  # evalsubmit: ignore[ES107]\n"
        "HP3 = {'gen': (i for i in range(3))}\n"
    ),
    "app/helpers.py": HELPERS,
    "jobs/job_a.py": SDK
    + textwrap.dedent("""\
        from app.helpers import make_runner
        from app.params import HP
        from app.params2 import HP2, HP3

        client = NeMoPlatform(workspace="qa")
        client.evaluator.submit(tasks="qa/x", target=make_runner(HP))
        client.evaluator.submit(tasks="qa/x", target=make_runner(HP2))
        client.evaluator.submit(tasks="qa/x", target=make_runner(HP3))
        """),
    # no SDK name, but a helper that submits: each must be analysed
    "jobs/indirect.py": "from app.helpers import submit_to\n\nsubmit_to('qa/x', 42)\n",
    "jobs/via_package.py": "import app.helpers\n\napp.helpers.submit_to('qa/x', 'str')\n",
    "jobs/via_alias.py": "import app.helpers as h\n\nh.submit_to('qa/x', 1.5)\n",
    "jobs/via_star.py": "from app.helpers import *\n\nsubmit_to('qa/x', [1])\n",
    "jobs/via_chain.py": "import os\nimport app\n\napp.helpers.submit_to('qa/x', {})\n",
    "jobs/multiline.py": "from app import (\n  util,\n  helpers)\nhelpers.submit_to('qa/x', 2)\n",
    "jobs/continued.py": "from app.helpers \\\n    import submit_to\nsubmit_to('qa/x', 3)\n",
    "jobs/one_line.py": "import os; from app.helpers import submit_to; submit_to('qa/x', 4)\n",
    "jobs/plain.py": "import os\nfrom app.util import load\n\nprint(load(os.devnull))\n",
    "rel/__init__.py": "",
    "rel/b.py": SDK
    + "client = NeMoPlatform(workspace='qa')\n\n\ndef go(target):\n"
    + "    client.evaluator.submit(tasks=TasksetRef('qa/x'), target=target)\n",
    "rel/a.py": "from .b import go\n\ngo(5)\n",
    "rel/c.py": "from . import b\n\nb.go(6)\n",
    "rel/d.py": "from . import a\n",
    "rel/plain.py": "from . import e\n",
    "rel/e.py": "import os\n",
    "tests/conftest.py": SDK
    + textwrap.dedent("""\
        import pytest


        @pytest.fixture
        def submitter():
            client = NeMoPlatform(workspace="qa")
            return lambda target: client.evaluator.submit(tasks=TasksetRef("qa/x"), target=target)
        """),
    "tests/test_x.py": "import pytest\n\n\ndef test_run(submitter):\n    submitter(7)\n",
    "tests/test_plain.py": "def test_nothing():\n    assert True\n",
}
IRRELEVANT = {
    "app/__init__.py",
    "app/util.py",
    "app/params.py",
    "app/params2.py",
    "jobs/plain.py",
    "rel/__init__.py",
    "rel/plain.py",
    "rel/e.py",
    "tests/test_plain.py",
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def cli(capsys: pytest.CaptureFixture[str], *argv: str, prefilter: bool) -> tuple[int, str]:
    saved = check_command.PREFILTER
    check_command.PREFILTER = prefilter
    try:
        code = main(list(argv))
    finally:
        check_command.PREFILTER = saved
    captured = capsys.readouterr()
    return code, captured.out


def same_either_way(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    for fmt in ("text", "json", "sarif"):
        with_filter = cli(capsys, "check", "--format", fmt, *argv, prefilter=True)
        without = cli(capsys, "check", "--format", fmt, *argv, prefilter=False)
        assert with_filter == without, fmt
    return cli(capsys, "check", "--format", "json", *argv, prefilter=True)[1]


def relevant(root: Path, python: Path | None = None) -> set[str]:
    files = list(python_files([root]))
    found = RelevanceScan(Project(root, python=python)).relevant(files)
    return {path.relative_to(root).as_posix() for path in found}


def test_what_cannot_reach_the_sdk_is_left_out(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "t", TREE)
    assert relevant(root, Path(sys.executable)) == set(TREE) - IRRELEVANT - {
        "pyproject.toml",
        ".gitignore",
    }


def test_the_tree_gives_the_same_results_with_and_without_the_filter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_tree(tmp_path / "t", TREE)
    data = json.loads(same_either_way(capsys, str(root)))
    places = {(Path(f["path"]).relative_to(root).as_posix(), f["code"]) for f in data["findings"]}
    # the remote findings land in files that are not analysed (one is suppressed there)
    assert ("app/params.py", "ES107") in places and ("app/params2.py", "ES107") in places
    assert len([p for p in places if p[0] == "app/params2.py"]) == 1
    assert data["files_checked"] == len(TREE) - 2


def test_the_examples_give_the_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    same_either_way(capsys, str(REPO / "examples"))


def test_a_generated_tree_gives_the_same_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Random imports between SDK users, their helpers and plain modules."""
    r = random.Random(13)
    files = {"pyproject.toml": "[project]\nname = 'g'\n", ".gitignore": "\n"}
    names = [f"m{i:02d}" for i in range(40)]
    for i, name in enumerate(names):
        deps = r.sample(names, 2)
        lines = ["import os"] + [f"from pkg import {d}" for d in deps if d != name]
        if i % 8 == 0:
            lines = [SDK, *lines, "client = NeMoPlatform(workspace='qa')"]
            lines.append(
                "def submit(target):\n    client.evaluator.submit(tasks='qa/x', target=target)"
            )
        else:
            lines.append(f"VALUE = {{'fn': lambda x: x, 'n': {i}}}")
        for d in deps:
            if d != name and names.index(d) % 8 == 0:
                lines.append(f"{d}.submit({i})")
        files[f"pkg/{name}.py"] = "\n".join(lines) + "\n"
    files["pkg/__init__.py"] = ""
    files["job.py"] = (
        SDK
        + "from pkg import m01, m02, m03\nclient = NeMoPlatform(workspace='qa')\n"
        + "for v in (m01.VALUE, m02.VALUE, m03.VALUE):\n"
        + "    client.evaluator.submit(tasks='qa/x', target=GymAgentTaskRunner(config="
        + "GymRuntimeConfig(agent='a', agent_config='c', resources_server='r', hydra_params=v)))\n"
    )
    root = write_tree(tmp_path / "g", files)
    found = relevant(root, Path(sys.executable))
    assert 0 < len(found) < len(files) - 2
    same_either_way(capsys, str(root))


def test_strict_analyses_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that cannot be parsed fails a --strict run, whatever it imports."""
    root = write_tree(
        tmp_path / "s", {"pyproject.toml": "", "broken.py": "import os\nif x:\n  pass\n else:\n"}
    )
    code, out = cli(capsys, "check", "--strict", str(root), prefilter=True)
    assert code == 1 and "broken.py: warning: skipped: the file could not be parsed" in out
    code, out = cli(capsys, "check", str(root), prefilter=True)
    assert code == 0 and "skipped" not in out


def test_an_installed_helper_package_makes_its_importers_relevant(
    installed_env: FakeEnv, tmp_path: Path
) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "pyproject.toml": "",
            "uses_teamlib.py": "from teamlib.runners import make_runner\nrunner = make_runner()\n",
            "uses_editable.py": "import teamedit as team\nrunner = team.make_runner()\n",
            "uses_compiled.py": "import fastlib\n",
            "uses_stdlib.py": "import json, os.path\n",
            "uses_nothing_known.py": "import not_installed_anywhere\n",
        },
    )
    assert relevant(root, installed_env.python) == {"uses_teamlib.py", "uses_editable.py"}
    assert installed_env.fired() == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("import a.b as c, d.e\n", {("a.b", "module"), ("d.e", "head")}),
        (
            "from x import (\n  y,\n  z as w)\n",
            {("x", "init"), ("x.y", "module"), ("x.z", "module"), ("x.w", "module")},
        ),
        ("from . import q\n", {("pkg", "init"), ("pkg.q", "module")}),
        ("from .. import r\n", {("r", "module")}),
        ("from .m import *\n", {("pkg.m", "module")}),
        ("x = 1; import foo\n", {("foo", "head")}),
        ("from\\\n  bar import baz\n", {("bar", "init"), ("bar.baz", "module")}),
        ("from.m import(n)\n", {("pkg.m", "init"), ("pkg.m.n", "module")}),
        ('"""we import data from here"""\n', {("data", "module")}),
    ],
)
def test_imports_are_over_approximated(text: str, expected: set[tuple[str, str]]) -> None:
    found = set(imports_in(text, lambda: ["pkg", "mod"]))
    assert expected <= found, found


def test_a_statement_kept_by_its_text_names_the_same_from_every_file() -> None:
    """The scan keeps what each import statement names by its text (and where ``import`` is
    in it), shared by every file: a relative statement resolves against each file's package,
    a statement in an installed file (no package) stays unresolved, and whatever follows or
    precedes the statement changes nothing it names."""
    pieces = ["from", "import", " ", ".", "..", "a", "b.c", "(", ")", ",", "\\\n", "\n", ";"]
    pieces += ["*", "as", "x", "\t", "#", "'", "é", "\r\n", "imports", "_import"]
    r = random.Random(7)
    texts = ["".join(r.choice(pieces) for _ in range(r.randint(1, 25))) for _ in range(3000)]
    texts += ["from . import q\nfrom .m import n\n", "from .m import n as k\nimport a.b\n"]
    shared: dict[tuple[str, int], Statement] = {}
    for text in texts:
        for package in (None, lambda: ["pkg", "sub", "mod"], lambda: ["top"]):
            alone = list(imports_in(text, package))
            assert list(imports_in(text, package, shared)) == alone, repr(text)


def test_a_folder_listing_only_rules_out_names_no_file_system_could_match(tmp_path: Path) -> None:
    """Imports are looked up with one listing per folder instead of two ``stat`` calls per
    name; a name the listing holds in any case (a case-insensitive file system would open it),
    a name that is not ASCII, or a folder that cannot be listed, is left to ``stat``."""
    root = write_tree(
        tmp_path / "c",
        {
            "pyproject.toml": "",
            "Helpers.py": "",
            "pkg/__init__.py": "",
            "modulé.py": SDK,
            "job.py": "import modulé\n",
        },
    )
    scan = RelevanceScan(Project(root, python=Path(sys.executable)))
    folder = str(root)
    assert scan._surely_absent(folder, "json") and scan._surely_absent(folder, "pkg2")
    assert not scan._surely_absent(folder, "helpers")  # Helpers.py, on macOS or Windows
    assert not scan._surely_absent(folder, "HELPERS") and not scan._surely_absent(folder, "pkg")
    assert not scan._surely_absent(folder, "modulé")
    assert not scan._surely_absent(str(root / "missing"), "json")
    assert relevant(root, Path(sys.executable)) == {"modulé.py", "job.py"}
