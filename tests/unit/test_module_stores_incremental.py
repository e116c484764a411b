"""The language server's incremental analysis of a reader (``runners.py`` reading
``settings.CONCURRENCY``) must agree with a fresh analysis after any change of another file
that adds or removes a store of the attribute: in an editor buffer, on disk, a file created or
deleted, a buffer closed. Such a file stored nothing before, so it was no dependency of the
reader: the answers the module stores gave are what the cached results rest on, asked again
before they are reused (``engine.caches``)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from test_incremental import outcome
from test_module_set_elsewhere import MAIN, SETTINGS, ZERO

from evalsubmit.analysis import (
    AnalysisOptions,
    DocumentAnalyzer,
    ModuleReport,
    Project,
    analyze_source,
)
from evalsubmit.analysis.engine.analyze import analyze_module
from evalsubmit.analysis.engine.crossfile import remote_findings_for

SEEDS = int(os.environ.get("EVALSUBMIT_STORE_SEEDS", "6"))
HEADER = """\
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

from . import limits, settings

"""
LIMITS = "from . import settings\n\nLIMIT = settings.CONCURRENCY\n"
"""A module whose top level reads the attribute: its scope is kept by the resolver."""


def _runner(name: str, concurrency: str) -> str:
    return (
        f"def {name}():\n"
        "    config = GymRuntimeConfig(\n"
        "        agent=settings.AGENT,\n"
        '        agent_config="a.yaml",\n'
        '        resources_server="mcqa",\n'
        f"        concurrency={concurrency},\n"
        "    )\n"
        "    return GymAgentTaskRunner(config=config)\n"
    )


READER_STATEMENTS = (
    _runner("build_a", "settings.CONCURRENCY"),
    _runner("build_b", "limits.LIMIT"),
    _runner("build_c", "settings.RETRIES"),
    "TOP = GymRuntimeConfig(agent='a', agent_config='a.yaml', resources_server='m',"
    " concurrency=settings.CONCURRENCY)\n",
    "N = settings.RETRIES\n",
    "OTHER = 1\n",
    "def tune():\n    settings.RETRIES = 3\n",  # the reader stores one itself
    "class Job:\n"  # a placeholder a subclass in another file may set
    "    REPEATS = 0\n\n"
    "    def build(self):\n"
    "        config = GymRuntimeConfig(agent='a', agent_config='a.yaml', resources_server='m',"
    " num_repeats=self.REPEATS)\n"
    "        return GymAgentTaskRunner(config=config)\n",
)
SUBCLASSES = (
    "from evals.runners import Job\n\n\nclass Nightly(Job):\n    REPEATS = 3\n",
    "from evals import runners\n\n\nclass Nightly(runners.Job):\n    REPEATS = 3\n",
    "from evals.runners import Job\n\n\nclass Nightly(Job):\n    pass\n",
    "import os\n\n\nclass Nightly:\n    REPEATS = 3\n",  # does not reach the reader
    "",
)
"""What ``jobs.py``, which may not import the reader, holds: a file that did not reach it
edited to subclass its class changes the members a generic ``self`` may have."""
STORES = (
    "settings.CONCURRENCY = 8",
    "settings.RETRIES = 2",
    "setattr(settings, 'CONCURRENCY', 8)",
    "print(settings.CONCURRENCY)",  # a read, not a store
    "",
)


def _project(root: Path) -> Path:
    (root / "evals").mkdir()
    (root / "evals" / "__init__.py").write_text("")
    (root / "evals" / "settings.py").write_text(SETTINGS + "RETRIES = 0\n")
    (root / "evals" / "limits.py").write_text(LIMITS)
    (root / "main.py").write_text(MAIN.format(store=""))
    reader = root / "evals" / "runners.py"
    reader.write_text(HEADER + READER_STATEMENTS[0])
    return reader.resolve()


def _fresh(text: str, reader: Path, root: Path, overlays: dict[Path, str]) -> ModuleReport:
    """A fresh analysis: a new project (no resolver, scope or stores cache shared)."""
    project = Project(root, overlays)
    return analyze_source(text, path=reader, project=project, reverse=False)


def _overlays(project: Project) -> dict[Path, str]:
    return {
        path: text
        for path in project.overlaid()
        if (text := project.read_unobserved(path)) is not None  # an empty buffer too
    }


def _zeros(report: ModuleReport) -> list[str]:
    assert report.skipped is None, report.skipped  # "no ES109" only of a file analysed
    return [f.message for f in report.findings if f.code == "ES109"]


def test_a_store_added_in_another_buffer_is_seen_by_the_reader(tmp_path: Path) -> None:
    reader = _project(tmp_path)
    project = Project(tmp_path)
    project.watched = True
    analyzer = DocumentAnalyzer(reader, project, AnalysisOptions())
    text = reader.read_text()
    assert _zeros(analyzer.analyze(text, reverse=False)) == [ZERO]
    main = (tmp_path / "main.py").resolve()
    project.set_overlay(main, MAIN.format(store="settings.CONCURRENCY = 8"))
    assert _zeros(analyzer.analyze(text, reverse=False)) == []
    project.set_overlay(main, MAIN.format(store=""))
    assert _zeros(analyzer.analyze(text, reverse=False)) == [ZERO]


def test_a_file_created_on_disk_with_a_store_is_seen_by_the_reader(tmp_path: Path) -> None:
    reader = _project(tmp_path)
    project = Project(tmp_path)
    project.watched = True
    analyzer = DocumentAnalyzer(reader, project, AnalysisOptions())
    text = reader.read_text()
    assert _zeros(analyzer.analyze(text, reverse=False)) == [ZERO]
    tweak = tmp_path / "tweak.py"
    tweak.write_text("from evals import settings\n\nsettings.CONCURRENCY = 8\n")
    project.forget_files()  # what the server does when told a file was created
    assert _zeros(analyzer.analyze(text, reverse=False)) == []
    tweak.write_text("from evals import settings\n\nprint(settings.CONCURRENCY)\n")
    project.files_changed()
    assert _zeros(analyzer.analyze(text, reverse=False)) == [ZERO]


def test_a_kept_scope_reading_the_attribute_is_built_again(tmp_path: Path) -> None:
    """``limits.py`` binds ``LIMIT = settings.CONCURRENCY`` at its top level: its scope,
    kept by the resolver, holds 0 until a store of ``settings.CONCURRENCY`` appears."""
    reader = _project(tmp_path)
    text = HEADER + READER_STATEMENTS[1]
    reader.write_text(text)
    project = Project(tmp_path)
    project.watched = True
    analyzer = DocumentAnalyzer(reader, project, AnalysisOptions())
    assert _zeros(analyzer.analyze(text, reverse=False)) == [ZERO]
    main = (tmp_path / "main.py").resolve()
    project.set_overlay(main, MAIN.format(store="settings.CONCURRENCY = 8"))
    assert _zeros(analyzer.analyze(text, reverse=False)) == []
    assert _zeros(analyze_source(text, path=reader, project=project, reverse=False)) == []
    project.drop_overlay(main)
    assert _zeros(analyzer.analyze(text, reverse=False)) == [ZERO]


IMPORTER = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

from evals import settings

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
config = GymRuntimeConfig(
    agent="a", agent_config="a.yaml", resources_server="m", hydra_params=settings.PARAMS
)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
"""


def test_an_importers_cached_findings_follow_a_store_elsewhere(tmp_path: Path) -> None:
    """What ``main.py`` reports into ``settings.py`` (the ``PARAMS`` written there and
    submitted by main), kept by the reverse step's cache of importers, follows a store of
    ``settings.PARAMS`` added in a third file and removed."""
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "__init__.py").write_text("")
    settings = (tmp_path / "evals" / "settings.py").resolve()
    settings.write_text("PARAMS = {'cb': lambda: 0}\n")
    (tmp_path / "main.py").write_text(IMPORTER)
    project = Project(tmp_path)
    project.watched = True
    options = AnalysisOptions()

    def remote() -> list[str]:
        return [f.code for f in remote_findings_for(project, settings, options, analyze_module)]

    assert remote() == ["ES107"]
    tweak = (tmp_path / "tweak.py").resolve()
    project.set_overlay(tweak, "from evals import settings\n\nsettings.PARAMS = {}\n")
    project.note_file(tweak)
    assert remote() == []
    project.set_overlay(tweak, "from evals import settings\n\nprint(settings.PARAMS)\n")
    assert remote() == ["ES107"]


def _other_files_step(rng: random.Random, root: Path, project: Project) -> str:
    """One change of another file than the reader: a buffer typed, closed, a file written,
    created or deleted on disk (the project told, as the server is)."""
    roll = rng.random()
    if roll < 0.25:
        return _subclass_step(rng, root, project)
    roll = rng.random()
    store = rng.choice(STORES)
    main = (root / "main.py").resolve()
    tweak = root / "tweak.py"
    if roll < 0.35:
        project.set_overlay(main, MAIN.format(store=store))
        return f"main.py buffer: {store!r}"
    if roll < 0.45:
        project.drop_overlay(main)
        return "main.py closed"
    if roll < 0.6:
        (root / "main.py").write_text(MAIN.format(store=store))
        project.files_changed()
        return f"main.py on disk: {store!r}"
    if roll < 0.8:
        existed = tweak.exists()
        tweak.write_text(f"from evals import settings\n\n{store}\n")
        project.files_changed() if existed else project.forget_files()
        return f"tweak.py on disk: {store!r}"
    if roll < 0.9:
        project.set_overlay(tweak.resolve(), f"import evals.settings\n\nevals.{store}\n")
        project.note_file(tweak)
        return f"tweak.py buffer: {store!r}"
    if tweak.exists():
        tweak.unlink()
        project.drop_overlay(tweak)
        project.forget_files()
        return "tweak.py deleted"
    return "nothing"


def _subclass_step(rng: random.Random, root: Path, project: Project) -> str:
    """``jobs.py`` typed in its buffer, or written on disk (created, or deleted)."""
    jobs = root / "jobs.py"
    text = rng.choice(SUBCLASSES)
    roll = rng.random()
    if roll < 0.45:
        project.set_overlay(jobs.resolve(), text)
        project.note_file(jobs)
        return f"jobs.py buffer: {text!r}"
    if roll < 0.9:
        existed = jobs.exists()
        jobs.write_text(text)
        project.files_changed() if existed else project.forget_files()
        return f"jobs.py on disk: {text!r}"
    if jobs.exists():
        jobs.unlink()
        project.drop_overlay(jobs.resolve())
        project.forget_files()
        return "jobs.py deleted"
    return "nothing"


@pytest.mark.parametrize("seed", range(SEEDS))
def test_edits_of_other_files_match_fresh_analysis(tmp_path: Path, seed: int) -> None:
    reader = _project(tmp_path)
    project = Project(tmp_path)
    project.watched = True
    analyzer = DocumentAnalyzer(reader, project, AnalysisOptions())
    rng = random.Random(seed)
    statements = [rng.choice(READER_STATEMENTS) for _ in range(3)]
    history: list[str] = []
    for step in range(40):
        if step and rng.random() < 0.3:
            statements[rng.randrange(len(statements))] = rng.choice(READER_STATEMENTS)
            history.append("reader edited")
        elif step:
            history.append(_other_files_step(rng, tmp_path, project))
        text = HEADER + "\n".join(statements)
        project.set_overlay(reader, text)
        incremental = analyzer.analyze(text, reverse=False)
        fresh = _fresh(text, reader, tmp_path, _overlays(project))
        assert outcome(incremental) == outcome(fresh), f"seed {seed} step {step}: {history}"
        assert incremental.dependencies == fresh.dependencies, f"seed {seed}: {history}"
