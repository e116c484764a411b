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
        # stores the text scan once missed
        "settings.CONCURRENCY, settings.AGENT = 8, 'x'",
        "(\n    settings.CONCURRENCY,  # first\n    settings.AGENT,\n) = 8, 'x'",
        "for settings.CONCURRENCY in (8,):\n    pass",
        # spelled apart: a store of any name in this file's own text would make every module
        # of the repository's project it may reach (its `runners` examples) untrusted
        "va" + "rs(settings)['CONCURRENCY'] = 8",
        "settings.__di" + "ct__.update(CONCURRENCY=8)",
        "for key, value in {'CONCURRENCY': 8}.items():\n    set" + "attr(settings, key, value)",
        "with open('n') as settings.CONCURRENCY:\n    pass",
    ],
)
def test_an_attribute_another_module_sets_is_not_trusted(tmp_path: Path, store: str) -> None:
    runners = _project(tmp_path, store)
    assert _es109(runners, Project(tmp_path)) == []


@pytest.mark.parametrize(
    "store",
    [
        "settings.AGENT = 'x'",
        "self.CONCURRENCY = 8",
        "if settings.CONCURRENCY == 8: pass",
        # reads in a tuple, a call's arguments: not targets
        "pair = settings.CONCURRENCY, settings.AGENT",
        "print(settings.CONCURRENCY, sep='')",
        "print(\n    settings.AGENT, n=settings.CONCURRENCY, sep='',\n)",
        'monkeypatch = None\nmonkeypatch.setattr("sys.stdin", None)',
        "for n in settings.CONCURRENCY, 1:\n    pass",
    ],
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


def test_the_result_cache_asks_again_every_kind_of_question(tmp_path: Path) -> None:
    from evalsubmit.analysis.interp import questions
    from evalsubmit.workspace import observed

    # one set of kinds, the cache's (observed) and the analysis's, and each is answered
    assert observed.QUESTION_KINDS is questions.KINDS
    keys = {observed.STORES: "m.py\nm\nX", observed.SUBCLASSES: "m.py\nC\n"}
    assert keys.keys() == questions.KINDS
    asking = questions.of(Project(tmp_path))
    for kind, key in keys.items():
        asking.observed_answer(kind, key.replace("m.py", str(tmp_path / "m.py")))


@pytest.mark.parametrize("saved_first", ["print('tools')\n", "import os\n\nprint(os.sep)\n"])
def test_a_file_that_did_not_import_the_module_gaining_a_store_is_a_result_cache_miss(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str], saved_first: str
) -> None:
    """A file that could not reach settings (its text no observation of the analysis) edited
    to import it and store the attribute: the question which files may store it is asked
    again when the cached result is consulted (and once more the store removed)."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'jobs'\n")
    runners = _project(root, "")
    tools = root / "tools.py"
    tools.write_text(saved_first)
    assert main(["check", str(runners)]) == 1 and ZERO in capsys.readouterr().out
    tools.write_text("from evals import settings\n\nsettings.CONCURRENCY = 8\n")
    assert main(["check", str(runners)]) == 0
    capsys.readouterr()
    tools.write_text(saved_first)
    assert main(["check", str(runners)]) == 1 and ZERO in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "trusted"),
    [
        ("from evals import (\n    settings,\n)\n\nsettings.CONCURRENCY = 8\n", False),
        ("import evals.settings as s\n\ns.CONCURRENCY = 8\n", False),
        ("import other\n\nother.CONCURRENCY = 8\n", True),  # does not import settings
        # imports the scan once missed: after `try:`, continued by a backslash, the package
        (
            "try: from evals import settings\nexcept ImportError: pass\nsettings.CONCURRENCY = 8\n",
            False,
        ),
        ("import os, \\\n    evals.settings as s\n\ns.CONCURRENCY = 8\n", False),
        ("import evals.runners\n\nevals.settings.CONCURRENCY = 8\n", False),
        (
            "from evals import runners\n\nrunners.settings.CONCURRENCY = 8\n",
            True,
        ),  # no import binds settings or evals
    ],
)
def test_only_a_file_importing_the_module_may_set_it(
    tmp_path: Path, text: str, trusted: bool
) -> None:
    runners = _project(tmp_path, "")
    (tmp_path / "setup_job.py").write_text(text)
    assert _es109(runners, Project(tmp_path)) == ([ZERO] if trusted else [])


def test_a_file_created_with_a_store_is_a_result_cache_miss(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file created since the result was kept may store the attribute: the project's
    listing of files is an observation of an analysis that asked."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'jobs'\n")
    runners = _project(root, "")
    assert main(["check", str(runners)]) == 1 and ZERO in capsys.readouterr().out
    (root / "setup_job.py").write_text("from evals import settings\n\nsettings.CONCURRENCY = 8\n")
    assert main(["check", str(runners)]) == 0
    capsys.readouterr()


def test_a_file_written_is_seen_once_the_project_is_told(tmp_path: Path) -> None:
    """In a project told of changes (the language server's watched files), the files on
    disk are looked at again when it is told, not at each analysis."""
    runners = _project(tmp_path, "")
    project = Project(tmp_path)
    project.watched = True
    assert _es109(runners, project) == [ZERO]
    (tmp_path / "main.py").write_text(MAIN.format(store="settings.CONCURRENCY = 8") + "\n")
    assert _es109(runners, project) == [ZERO]  # not told yet
    project.files_changed()
    assert _es109(runners, project) == []


def test_a_file_written_is_seen_after_a_while_when_nothing_tells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evalsubmit.analysis.interp import importer_index

    runners = _project(tmp_path, "")
    project = Project(tmp_path)
    assert _es109(runners, project) == [ZERO]
    (tmp_path / "main.py").write_text(MAIN.format(store="settings.CONCURRENCY = 8") + "\n")
    monkeypatch.setattr(importer_index, "FRESH_SECONDS", 0.0)
    assert _es109(runners, project) == []


def test_a_closed_buffer_is_read_from_the_disk_again(tmp_path: Path) -> None:
    runners = _project(tmp_path, "settings.CONCURRENCY = 8")
    project = Project(tmp_path)
    project.set_overlay(tmp_path / "main.py", MAIN.format(store=""))
    assert _es109(runners, project) == [ZERO]
    project.drop_overlay(tmp_path / "main.py")
    assert _es109(runners, project) == []


def test_the_servers_projects_are_watched_once_the_client_watches_files(tmp_path: Path) -> None:
    from evalsubmit.lsp.state import ProjectStore

    store = ProjectStore()
    store.set_folders([tmp_path / "a"])
    assert not any(project.watched for project in store.all())
    store.watch()
    store.set_folders([tmp_path / "a", tmp_path / "b"])
    assert all(project.watched for project in store.all())


def test_an_edited_buffer_is_read_by_its_parse_pieces(tmp_path: Path) -> None:
    """The buffer of main.py, analysed as the server does (its pieces kept from one version to
    the next), gains and loses the store: what runners.py may trust follows each version."""
    from evalsubmit.analysis import AnalysisOptions, DocumentAnalyzer

    runners = _project(tmp_path, "")
    main_py = (tmp_path / "main.py").resolve()
    project = Project(tmp_path)
    editor = DocumentAnalyzer(main_py, project, AnalysisOptions())
    for store, expected in [
        ("", [ZERO]),
        ("settings.CONCURRENCY, settings.AGENT = 8, 'x'", []),
        ("print(settings.CONCURRENCY, settings.AGENT)", [ZERO]),
    ]:
        text = MAIN.format(store=store)
        project.set_overlay(main_py, text)
        editor.analyze(text, reverse=False)
        assert _es109(runners, project) == expected, store


LIMITS_SETTINGS = 'AGENT = "simple_agent"\nLIMITS = {"concurrency": 0}  # filled in by main\n'
READ_THROUGH_MODULE = ("from . import settings", 'settings.LIMITS["concurrency"]')
READ_FROM_IMPORTED = (
    "from . import settings\nfrom .settings import LIMITS",
    'LIMITS["concurrency"]',
)


def _limits_project(root: Path, reader: tuple[str, str], store: str) -> Path:
    runners = _project(root, store, LIMITS_SETTINGS)
    imports, read = reader
    runners.write_text(
        RUNNERS.replace("from . import settings", imports).replace("settings.CONCURRENCY", read)
    )
    return runners


@pytest.mark.parametrize("reader", [READ_THROUGH_MODULE, READ_FROM_IMPORTED])
@pytest.mark.parametrize(
    "store",
    [
        # in place, through the module
        'settings.LIMITS["concurrency"] = 8',
        'del settings.LIMITS["concurrency"]',
        'settings.LIMITS |= {"concurrency": 8}',
        "settings.LIMITS.update(concurrency=8)",
        'settings.LIMITS.pop("concurrency")',
        "settings.LIMITS.clear()",
        '(\n    settings.LIMITS\n    .setdefault("x", 1)\n)',
        # in place, through a name imported from the module: the very object settings holds
        'from evals.settings import LIMITS\nLIMITS["concurrency"] = 8',
        'from evals.settings import LIMITS\ndel LIMITS["concurrency"]',
        'from evals.settings import LIMITS\nLIMITS |= {"concurrency": 8}',
        "from evals.settings import (\n    AGENT,\n    LIMITS,\n)\nLIMITS.update(concurrency=8)",
        'from evals.settings import LIMITS as L\n\ndef f():\n    L["concurrency"] = 8\nf()',
        'from evals.settings import *\nLIMITS.pop("concurrency")',
    ],
)
def test_a_value_another_module_changes_in_place_is_not_trusted(
    tmp_path: Path, reader: tuple[str, str], store: str
) -> None:
    runners = _limits_project(tmp_path, reader, store)
    assert _es109(runners, Project(tmp_path)) == []


@pytest.mark.parametrize("reader", [READ_THROUGH_MODULE, READ_FROM_IMPORTED])
@pytest.mark.parametrize(
    "store",
    [
        "",
        'n = settings.LIMITS["concurrency"]',
        'print(settings.LIMITS["concurrency"])',
        'from evals.settings import LIMITS\nn = LIMITS["concurrency"]',
        # a name of its own, not imported: rebinding or changing it leaves settings' alone
        'from evals.settings import LIMITS\nLIMITS = {"concurrency": 8}',
        'LIMITS = {}\nLIMITS["concurrency"] = 8',
        'limits = dict(settings.LIMITS)\nlimits["concurrency"] = 8',
    ],
)
def test_a_value_no_other_module_changes_stays_known(
    tmp_path: Path, reader: tuple[str, str], store: str
) -> None:
    runners = _limits_project(tmp_path, reader, store)
    assert _es109(runners, Project(tmp_path)) == [ZERO]


def test_an_edited_buffer_changing_an_imported_name_by_an_alias_counts(tmp_path: Path) -> None:
    """The alias is given in the buffer's import piece, the change made in a function's piece."""
    from evalsubmit.analysis import AnalysisOptions, DocumentAnalyzer

    runners = _limits_project(tmp_path, READ_FROM_IMPORTED, "")
    main_py = (tmp_path / "main.py").resolve()
    project = Project(tmp_path)
    editor = DocumentAnalyzer(main_py, project, AnalysisOptions())
    changing = "def configure():\n    L['concurrency'] = 8\n\n\nconfigure()"
    for store, expected in [
        ("", [ZERO]),
        ("from evals.settings import LIMITS as L\n\n\n" + changing, []),
        ("from evals.settings import AGENT as L\n\n\n" + changing, [ZERO]),
        ("from evals.settings import LIMITS as L\n\n\n", [ZERO]),
    ]:
        text = MAIN.format(store=store)
        project.set_overlay(main_py, text)
        editor.analyze(text, reverse=False)
        assert _es109(runners, project) == expected, store
