"""A module's attribute that another module of the project sets (``settings.CONCURRENCY = 8``
in ``main.py``) is not trusted at the value the module binds: a function reading it runs
after the entry point set it. It was read as ``settings.py``'s 0 and reported (idiom
``objects/ok-settings-module-set-by-main``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.cli import main

SETTINGS = 'AGENT = "simple_agent"\nCONCURRENCY = 0  # set by the entry point\n'
RUNNERS = """\
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

from . import settings


def build_runner():
    config = GymRuntimeConfig(
        agent=settings.AGENT,
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=settings.CONCURRENCY,
    )
    return GymAgentTaskRunner(config=config)
"""
MAIN = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

from evals import settings
from evals.runners import build_runner

{store}
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner())
"""
ZERO = "`concurrency` must be ≥ 1, got 0"


def _project(root: Path, store: str, settings: str = SETTINGS) -> Path:
    (root / "evals").mkdir()
    (root / "evals" / "__init__.py").write_text("")
    (root / "evals" / "settings.py").write_text(settings)
    (root / "evals" / "runners.py").write_text(RUNNERS)
    (root / "main.py").write_text(MAIN.format(store=store))
    return root / "evals" / "runners.py"


def _es109(path: Path, project: Project) -> list[str]:
    report = analyze_source(path.read_text(), path=path, project=project)
    assert report.skipped is None, report.skipped
    return [f.message for f in report.findings if f.code == "ES109"]


@pytest.mark.parametrize(
    "store",
    [
        "settings.CONCURRENCY = 8",
        "settings.CONCURRENCY += 8",
        'setattr(settings, "CONCURRENCY", 8)',
        "settings.CONCURRENCY: int = 8",
    ],
)
def test_an_attribute_another_module_sets_is_not_trusted(tmp_path: Path, store: str) -> None:
    runners = _project(tmp_path, store)
    assert _es109(runners, Project(tmp_path)) == []


@pytest.mark.parametrize(
    "store",
    ["settings.AGENT = 'x'", "self.CONCURRENCY = 8", "if settings.CONCURRENCY == 8: pass"],
)
def test_an_attribute_no_other_module_sets_stays_known(tmp_path: Path, store: str) -> None:
    runners = _project(tmp_path, store)
    assert _es109(runners, Project(tmp_path)) == [ZERO]


def test_a_store_in_an_editor_buffer_counts(tmp_path: Path) -> None:
    runners = _project(tmp_path, "")
    project = Project(tmp_path)
    assert _es109(runners, project) == [ZERO]
    project.set_overlay(tmp_path / "main.py", MAIN.format(store="settings.CONCURRENCY = 8"))
    assert _es109(runners, project) == []


def test_an_attribute_its_own_module_rebinds_through_global_is_not_trusted(
    tmp_path: Path,
) -> None:
    settings = SETTINGS + "\n\ndef configure(n):\n    global CONCURRENCY\n    CONCURRENCY = n\n"
    runners = _project(tmp_path, "settings.configure(8)", settings)
    assert _es109(runners, Project(tmp_path)) == []


def test_a_store_added_to_another_module_is_a_result_cache_miss(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI's cached result of runners.py does not outlive a store main.py gains (the
    texts of the files that may import settings are observations of the analysis)."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'jobs'\n")
    runners = _project(root, "")
    assert main(["check", str(runners)]) == 1 and ZERO in capsys.readouterr().out
    (root / "main.py").write_text(MAIN.format(store="settings.CONCURRENCY = 8"))
    assert main(["check", str(runners)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(
    ("text", "trusted"),
    [
        ("from evals import (\n    settings,\n)\n\nsettings.CONCURRENCY = 8\n", False),
        ("import evals.settings as s\n\ns.CONCURRENCY = 8\n", False),
        ("import other\n\nother.CONCURRENCY = 8\n", True),  # does not import settings
    ],
)
def test_only_a_file_importing_the_module_may_set_it(
    tmp_path: Path, text: str, trusted: bool
) -> None:
    runners = _project(tmp_path, "")
    (tmp_path / "setup_job.py").write_text(text)
    assert _es109(runners, Project(tmp_path)) == ([ZERO] if trusted else [])


def test_import_statements_are_the_patterns_matches() -> None:
    """The scan tried only at lines holding ``import`` finds what the pattern finds at every
    line start, on random texts of import statements, look-alikes and multi-line imports."""
    import random

    from evalsubmit.analysis.interp import module_stores

    parts = [
        "import os\n",
        "from a.b import (\n  c,\n  d)\n",
        'x = "import"\n',
        "  import json as j\n",
        "from . import x\n",
        "from x import y  # c\n",
        "important = 2\n",
        "\n",
        "import\n",
        "fromimport x\n",
        "def f():\n    from z import w\n",
        's = ("import a"\n)\n',
    ]
    rng = random.Random(26)
    for _ in range(5000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 8)))
        pattern = [m.span() for m in module_stores._IMPORT.finditer(text)]
        assert [m.span() for m in module_stores.import_statements(text)] == pattern, text


def test_the_store_pattern_is_the_backtracking_one() -> None:
    """The possessive pattern of attribute stores finds what the same pattern without
    possessive quantifiers finds, on random texts of stores, look-alikes and calls."""
    import random
    import re

    from evalsubmit.analysis.interp import module_stores

    backtracking = re.compile(module_stores._STORE.pattern.replace("*+", "*"))
    assert backtracking.pattern != module_stores._STORE.pattern
    parts = [".", "x", "_y2", " ", "\t", "=", "==", "+=", "//=", "**", ":", " int ", "(", "\n"]
    parts += ["self", "cls", "a.b", "<<=", ">>", "!=", "@=", "|", "# c", "settings.LIMIT = 3\n"]
    rng = random.Random(26)
    found = 0
    for _ in range(20000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 14)))
        expected = [(m.span(), m.group(1)) for m in backtracking.finditer(text)]
        assert [(m.span(), m.group(1)) for m in module_stores._STORE.finditer(text)] == expected
        found += bool(expected)
    assert found > 2000, found
