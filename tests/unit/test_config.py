"""The project's configuration file: which file governs a path (ruff's hierarchical search),
what it means (rule layers, exclude, per-file-ignores), and how an invalid one is reported
(file, key, line; never a silent default)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from evalsubmit.analysis import config_resolver, configured_options, project_config
from evalsubmit.workspace.config import NO_CONFIG, ConfigError, RuleSelection

ALL = frozenset(f"ES1{n:02}" for n in range(1, 12))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def pyproject(folder: Path, table: str, name: str = "team-evals") -> Path:
    return write(folder / "pyproject.toml", f'[project]\nname = "{name}"\n\n{table}')


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    """A repository whose root pyproject.toml configures evalsubmit, one sub-project with a
    pyproject.toml of its own but no table, and one with an evalsubmit.toml."""
    root = tmp_path / "repo"
    pyproject(root, '[tool.evalsubmit]\nignore = ["ES110"]\ndefault-taskset = "qa/smoke"\n')
    write(root / "src" / "evals" / "__init__.py", "")
    write(root / "src" / "evals" / "nightly.py", "import nemo_platform\n")
    pyproject(root / "services" / "api", "[tool.ruff]\nline-length = 100\n", name="api")
    write(root / "services" / "api" / "app" / "jobs.py", "")
    write(root / "libs" / "gymkit" / "evalsubmit.toml", 'select = ["ES10"]\n')
    write(root / "libs" / "gymkit" / "gymkit" / "runners.py", "")
    return root


# -- which file --------------------------------------------------------------------------------


def test_the_nearest_configured_folder_wins(monorepo: Path) -> None:
    resolver = config_resolver()
    nightly = resolver.for_path(monorepo / "src" / "evals" / "nightly.py")
    assert nightly.file == monorepo / "pyproject.toml"
    assert nightly.selection.ignore == {"ES110"} and nightly.default_taskset == "qa/smoke"
    gymkit = resolver.for_path(monorepo / "libs" / "gymkit" / "gymkit" / "runners.py")
    assert gymkit.file == monorepo / "libs" / "gymkit" / "evalsubmit.toml"
    assert gymkit.selection.select == {"ES10"} and gymkit.default_taskset is None  # not merged


def test_a_pyproject_without_the_table_is_passed_over(monorepo: Path) -> None:
    config = config_resolver().for_path(monorepo / "services" / "api" / "app" / "jobs.py")
    assert config.file == monorepo / "pyproject.toml"


def test_order_within_one_folder(tmp_path: Path) -> None:
    pyproject(tmp_path, '[tool.evalsubmit]\nselect = ["ES101"]\n')
    job = write(tmp_path / "job.py", "")
    assert config_resolver().for_path(job).file == tmp_path / "pyproject.toml"
    write(tmp_path / "evalsubmit.toml", 'select = ["ES102"]\n')
    assert config_resolver().for_path(job).file == tmp_path / "evalsubmit.toml"
    write(tmp_path / ".evalsubmit.toml", 'select = ["ES103"]\n')
    assert config_resolver().for_path(job).selection.select == {"ES103"}


def test_no_file_means_the_defaults(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "plain"\n')
    assert config_resolver().for_path(write(tmp_path / "job.py", "")) == NO_CONFIG


def test_a_relative_path_is_found_from_the_current_folder(
    monorepo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(monorepo / "src")
    assert project_config(Path("evals/nightly.py")).file == monorepo / "pyproject.toml"


def test_an_edit_is_seen_and_an_unchanged_file_is_not_read_again(tmp_path: Path) -> None:
    file = pyproject(tmp_path, '[tool.evalsubmit]\nignore = ["ES110"]\n')
    job = write(tmp_path / "job.py", "")
    resolver = config_resolver()
    first = resolver.for_path(job)
    assert resolver.for_path(job) is first  # cached by (mtime, size)
    pyproject(tmp_path, '[tool.evalsubmit]\nignore = ["ES107", "ES110"]\n')
    stat = file.stat()
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert resolver.for_path(job).selection.ignore == {"ES107", "ES110"}


def test_a_new_file_is_seen_unless_folders_are_remembered(tmp_path: Path) -> None:
    job = write(tmp_path / "pkg" / "job.py", "")
    server, cli = config_resolver(), config_resolver(remember_folders=True)
    assert server.for_path(job) == cli.for_path(job) == NO_CONFIG
    write(tmp_path / "pkg" / "evalsubmit.toml", 'ignore = ["ES110"]\n')
    assert server.for_path(job).selection.ignore == {"ES110"}
    assert cli.for_path(job) == NO_CONFIG  # one CLI run sees the tree as it started


def test_fixed_and_isolated(monorepo: Path) -> None:
    job = monorepo / "src" / "evals" / "nightly.py"
    fixed = config_resolver(fixed=monorepo / "libs" / "gymkit" / "evalsubmit.toml")
    assert fixed.for_path(job).selection.select == {"ES10"}
    assert config_resolver(isolated=True).for_path(job) == NO_CONFIG
    without_table = config_resolver(fixed=monorepo / "services" / "api" / "pyproject.toml")
    with pytest.raises(ConfigError, match=r"no \[tool.evalsubmit\] table"):
        without_table.for_path(job)
    with pytest.raises(ConfigError, match="cannot read it"):
        config_resolver(fixed=monorepo / "missing.toml").for_path(job)


def test_pydantic_is_imported_only_for_a_table_in_error(tmp_path: Path) -> None:
    """A valid table is read plainly (``workspace.config_plain``); the pydantic model judges
    (and words the errors of) a table it does not find plainly valid."""
    plain = pyproject(tmp_path / "plain", "[tool.ruff]\nline-length = 100\n").parent
    configured = write(tmp_path / "configured" / "evalsubmit.toml", 'ignore = ["ES110"]\n').parent
    wrong = write(tmp_path / "wrong" / "evalsubmit.toml", 'ignore = ["ES999"]\n').parent
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from evalsubmit.workspace.config import ConfigError, ConfigResolver\n"
        "resolver = ConfigResolver({'ES110'})\n"
        f"resolver.for_path(Path({str(plain)!r}) / 'job.py')\n"
        "print('pydantic' in sys.modules)\n"
        f"resolver.for_path(Path({str(configured)!r}) / 'job.py')\n"
        "print('pydantic' in sys.modules)\n"
        "try:\n"
        f"    resolver.for_path(Path({str(wrong)!r}) / 'job.py')\n"
        "except ConfigError:\n"
        "    print('pydantic' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.stdout.split() == ["False", "False", "True"], done.stderr


# -- what it means -----------------------------------------------------------------------------


def enabled(config_text: str, path: str, *layers: RuleSelection, root: Path) -> set[str]:
    write(root / "evalsubmit.toml", config_text)
    config = config_resolver().for_path(root / path)
    options = configured_options(config, root / path, layers)
    return {code for code in ALL if options.enabled(code)}


def test_rule_layers(tmp_path: Path) -> None:
    config = 'select = ["ES10"]\nextend-select = ["ES110"]\nignore = ["ES102"]\n'
    from_file = enabled(config, "job.py", root=tmp_path)
    assert from_file == {f"ES10{n}" for n in range(1, 10)} - {"ES102"} | {"ES110"}
    # a later select replaces the file's choice, its ignore included
    cli = RuleSelection(select=frozenset({"ES102", "ES103"}))
    assert enabled(config, "job.py", cli, root=tmp_path) == {"ES102", "ES103"}
    more = RuleSelection(extend_select=frozenset({"ES111"}), ignore=frozenset({"ES101"}))
    assert enabled(config, "job.py", more, root=tmp_path) == from_file - {"ES101"} | {"ES111"}


def test_per_file_ignores_are_relative_to_the_config_folder(tmp_path: Path) -> None:
    config = """\
        [per-file-ignores]
        "tests/**" = ["ES110"]
        "scripts/*.py" = ["ES1"]
        "conftest.py" = ["ES107"]
        "!src/**" = ["ES111"]
        """
    assert enabled(config, "src/evals/job.py", root=tmp_path) == ALL
    assert enabled(config, "tests/unit/test_job.py", root=tmp_path) == ALL - {"ES110", "ES111"}
    assert enabled(config, "scripts/run.py", root=tmp_path) == set()
    assert enabled(config, "scripts/deep/run.py", root=tmp_path) == ALL - {"ES111"}  # anchored
    assert enabled(config, "src/conftest.py", root=tmp_path) == ALL - {"ES107"}  # any depth
    # a later select cannot bring back what per-file-ignores turns off (ruff's order)
    cli = RuleSelection(select=frozenset({"ES110"}))
    assert enabled(config, "tests/test_job.py", cli, root=tmp_path) == set()


def test_exclude_is_gitignore_style_and_relative_to_the_config_folder(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write(project / "evalsubmit.toml", 'exclude = ["build/"]\nextend-exclude = ["*_pb2.py"]\n')
    config = config_resolver().for_path(project / "job.py")
    assert config.exclude == ("build/", "*_pb2.py")
    assert config.excludes(project / "build", is_dir=True)
    assert config.excludes(project / "build" / "lib" / "job.py")
    assert config.excludes(project / "src" / "api_pb2.py")
    assert not config.excludes(project / "src" / "builder.py")
    assert not config.excludes(project / "src" / "build")  # a file named build
    assert not config.excludes(tmp_path / "other" / "build" / "job.py")  # outside its folder


# -- invalid files -----------------------------------------------------------------------------

INVALID = [
    ('select = "ES101"\n', 1, "select: expected a list of strings, got 'ES101'"),
    ('ignore = ["ES101", 7]\n', 1, "ignore[1]: expected a string, got int 7"),
    ('ignore = ["ES999"]\n', 1, "ignore[0]: unknown rule code 'ES999' (did you mean 'ES109'"),
    ('extend-select = ["ES", "XY1"]\n', 1, "extend-select[1]: unknown rule code 'XY1'"),
    ('selct = ["ES1"]\n', 1, "selct: unknown key (did you mean 'select'?)"),
    (
        "per_file_ignores = {}\n",
        1,
        "per_file_ignores: unknown key (did you mean 'per-file-ignores'",
    ),
    ('defaultTaskset = "qa/smoke"\n', 1, "unknown key (did you mean 'default-taskset'?)"),
    ('exclude = ["[z-a]"]\n', 1, "exclude[0]: '[z-a]' is not a valid glob (bad character range"),
    ('extend-exclude = [""]\n', 1, "extend-exclude[0]: an empty pattern matches nothing"),
    ('strict = "yes"\n', 1, "strict: expected true or false, got 'yes'"),
    ('sdk-version = "latest"\n', 1, "sdk-version: 'latest' is not a version"),
    ("sdk-version = 0.7\n", 1, "sdk-version: expected a string, got float 0.7"),
    ('default-taskset = "qa/smoke/x"\n', 1, "'qa/smoke/x' is not a taskset reference"),
    ('\n[per-file-ignores]\n"tests/*.py" = ["ES1", "EX"]\n', 3, '"tests/*.py"[1]: unknown'),
    (
        '\n\n[per-file-ignores]\n"te[z-a]st" = []\n',
        4,
        """per-file-ignores."te[z-a]st": 'te[z-a]st' is not a valid glob""",
    ),
    ('per-file-ignores = ["tests"]\n', 1, "expected a table of glob = [codes], got a list"),
    ('select = ["ES1"\nignore = []\n', 2, "not valid TOML: Unclosed array"),
]


@pytest.mark.parametrize(("text", "line", "message"), INVALID)
def test_an_invalid_evalsubmit_toml_names_file_line_and_key(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    file = write(tmp_path / "evalsubmit.toml", text)
    with pytest.raises(ConfigError) as raised:
        config_resolver().for_path(tmp_path / "job.py")
    assert raised.value.file == file
    (shown,) = raised.value.lines()
    assert shown.startswith(f"{file}:{line}: invalid configuration: ")
    assert message in shown


def test_pyproject_errors_are_placed_inside_the_table(tmp_path: Path) -> None:
    file = pyproject(
        tmp_path,
        """\
        [tool.ruff]
        select = ["E"]

        [tool.evalsubmit]
        ignore = ["ES110"]
        select = ["ES1O1"]
        strict = 1

        [tool.evalsubmit.per-file-ignores]
        "tests/**" = "ES110"
        """,
    )
    with pytest.raises(ConfigError) as raised:
        config_resolver().for_path(tmp_path / "src" / "job.py")
    assert raised.value.lines() == [
        f"{file}:9: invalid configuration: [tool.evalsubmit] select[0]: unknown rule code "
        "'ES1O1' (did you mean 'ES101'?)",
        f"{file}:10: invalid configuration: [tool.evalsubmit] strict: expected true or false, "
        "got int 1",
        f'{file}:13: invalid configuration: [tool.evalsubmit] per-file-ignores."tests/**": '
        "expected a list of strings, got 'ES110'",
    ]


def test_the_table_must_be_a_table_and_errors_are_cached_until_fixed(tmp_path: Path) -> None:
    pyproject(tmp_path, "[tool]\nevalsubmit = 3\n")
    resolver = config_resolver()
    for _ in range(2):
        with pytest.raises(ConfigError, match=r"\[tool.evalsubmit\] must be a table"):
            resolver.for_path(tmp_path / "job.py")
    file = pyproject(tmp_path, "[tool.evalsubmit]\nstrict = true\n")
    stat = file.stat()
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert resolver.for_path(tmp_path / "job.py").strict is True


def test_a_tool_table_in_evalsubmit_toml_is_an_unknown_key(tmp_path: Path) -> None:
    write(tmp_path / "evalsubmit.toml", '[tool.evalsubmit]\nselect = ["ES1"]\n')
    with pytest.raises(ConfigError, match="tool: unknown key"):
        config_resolver().for_path(tmp_path / "job.py")


# -- in the server -----------------------------------------------------------------------------


class _Window:
    """The server's side the configuration store talks to: it only shows messages."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    def window_show_message(self, params: object) -> None:
        self.shown.append(str(getattr(params, "message", "")))


def test_the_editor_settings_win_over_the_file_in_the_server(tmp_path: Path) -> None:
    from evalsubmit.lsp.project_config import ProjectConfigs
    from evalsubmit.lsp.settings import Settings

    pyproject(tmp_path, '[tool.evalsubmit]\nignore = ["ES110"]\ndefault-taskset = "qa/smoke"\n')
    job = write(tmp_path / "src" / "job.py", "")
    window = _Window()
    configs = ProjectConfigs(window)  # type: ignore[arg-type]
    from_file = configs.effective(job, Settings())
    assert from_file.default_taskset == "qa/smoke" and not from_file.options.enabled("ES110")
    editor = configs.effective(job, Settings(select=["ES110"], default_taskset="qa/nightly"))
    assert editor.default_taskset == "qa/nightly"
    assert {c for c in ALL if editor.options.enabled(c)} == {"ES110"}
    assert window.shown == []


def test_files_that_are_not_configurations_are_errors_not_crashes(tmp_path: Path) -> None:
    nested = write(tmp_path / "deep" / "evalsubmit.toml", "select = " + "[" * 100_000 + "\n")
    with pytest.raises(ConfigError, match="not valid TOML: nested too deeply") as raised:
        config_resolver().for_path(nested.parent / "job.py")
    assert raised.value.file == nested
    huge = write(tmp_path / "huge" / "evalsubmit.toml", "# padding\n" * 200_000)
    with pytest.raises(ConfigError, match="larger than"):
        config_resolver().for_path(huge.parent / "job.py")
    (tmp_path / "folder" / "pyproject.toml").mkdir(parents=True)  # a folder by that name
    assert config_resolver().for_path(tmp_path / "folder" / "job.py") == NO_CONFIG


def test_submit_uses_the_files_default_taskset_unless_the_editor_names_one(
    tmp_path: Path,
) -> None:
    from evalsubmit.analysis import Project, analyze_source
    from evalsubmit.core.lines import split_lines
    from evalsubmit.lsp.project_config import ProjectConfigs
    from evalsubmit.lsp.settings import Settings
    from evalsubmit.lsp.snapshot import Analysis
    from evalsubmit.lsp.submit import NAME_A_TASKSET, Plan, Refusal, plan
    from evalsubmit.platform.submission import NO_TASKSET

    job_text = textwrap.dedent("""\
        from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner
        from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
        runner = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"))
        """)
    job = write(tmp_path / "src" / "evals" / "nightly.py", job_text)
    configs = ProjectConfigs(_Window())  # type: ignore[arg-type]

    def decided(settings: Settings) -> Plan | Refusal:
        effective = configs.effective(job, settings)
        report = analyze_source(job_text, path=job, project=Project(tmp_path))
        lines = split_lines(job_text)
        snap = Analysis(1, 1, job_text, lines, settings, effective, report)
        return plan(snap, 3, 9, None)  # on GymAgentTaskRunner(

    without = decided(Settings())
    assert isinstance(without, Refusal)
    assert without.reasons == (f"{NO_TASKSET}: {NAME_A_TASKSET}",)
    pyproject(tmp_path, '[tool.evalsubmit]\ndefault-taskset = "qa/smoke"\n')
    from_file = decided(Settings())
    assert isinstance(from_file, Plan) and from_file.tasks == "qa/smoke"
    from_editor = decided(Settings(default_taskset="qa/nightly"))
    assert isinstance(from_editor, Plan) and from_editor.tasks == "qa/nightly"


def test_an_entry_of_a_list_over_several_lines_is_placed_on_its_own_line(tmp_path: Path) -> None:
    file = pyproject(
        tmp_path,
        """\
        [tool.evalsubmit]
        ignore = [
            "ES110",  # secrets are test data here
            "ES99",
        ]
        select = ["ES1", "XX"]
        """,
    )
    with pytest.raises(ConfigError) as raised:
        config_resolver().for_path(tmp_path / "job.py")
    assert [(p.key, p.line) for p in raised.value.problems] == [("ignore[1]", 7), ("select[1]", 9)]
    assert raised.value.file == file


def test_the_server_shows_an_invalid_file_once_and_survives_a_failing_lookup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evalsubmit.lsp.project_config import ProjectConfigs
    from evalsubmit.lsp.settings import Settings

    file = write(tmp_path / "evalsubmit.toml", 'select = ["ES1", "ES909"]\n')
    job = write(tmp_path / "job.py", "")
    window = _Window()
    configs = ProjectConfigs(window)  # type: ignore[arg-type]
    for _ in range(3):  # each analysis looks (in the pool); the event loop shows the result
        effective = configs.effective(job, Settings())
        configs.show(effective)
        assert effective.skipped == f"the configuration file {file} is invalid (see the log)"
    (shown,) = window.shown
    assert f"{file}:1: invalid configuration: select[1]: unknown rule code 'ES909'" in shown

    def broken(path: Path) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(configs._resolver, "for_path", broken)
    failed = configs.effective(job, Settings())
    assert failed.skipped == "its configuration could not be read (see the log)"


# -- never above the project root ----------------------------------------------------------------


def test_no_configuration_is_taken_from_above_the_repository(tmp_path: Path) -> None:
    """An ``evalsubmit.toml`` in a folder above the repository (a shared /tmp, another user's
    home) would replace the project's own settings; the search stops at the folder holding
    ``.git``, the CLI's and the server's resolver alike."""
    write(tmp_path / "evalsubmit.toml", 'select = []\nexclude = ["*"]\n')
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    job = write(repo / "src" / "job.py", "")
    assert config_resolver().for_path(job) is NO_CONFIG
    assert config_resolver(remember_folders=True).for_folder(job.parent) is NO_CONFIG
    # the repository's own file is still found, and --config may name the one above
    write(repo / "evalsubmit.toml", 'ignore = ["ES110"]\n')
    assert config_resolver().for_path(job).file == repo / "evalsubmit.toml"
    named = config_resolver(fixed=tmp_path / "evalsubmit.toml").for_path(job)
    assert named.file == tmp_path / "evalsubmit.toml"
    # outside any repository the search still goes up (a folder of scripts)
    loose = write(tmp_path / "loose" / "job.py", "")
    assert config_resolver().for_path(loose).file == tmp_path / "evalsubmit.toml"
