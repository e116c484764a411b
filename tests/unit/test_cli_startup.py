"""The CLI builds only the parser of the command it runs: the other commands are listed from
``evalsubmit.cli.main.COMMANDS``, which must say what their modules say."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

cli_main = importlib.import_module("evalsubmit.cli.main")  # the package's `main` is the function


def _commands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:  # type: ignore[type-arg]
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def test_the_command_table_says_what_the_commands_say() -> None:
    helps = {a.dest: a.help for a in _commands(cli_main._parser())._choices_actions}
    assert helps.pop("serve") == "run the language server (stdio)"
    assert helps == {name: help_text for name, _, help_text in cli_main.COMMANDS}


@pytest.mark.parametrize("command", [name for name, _, _ in cli_main.COMMANDS])
def test_a_parser_built_for_one_command_is_the_same_for_it(command: str) -> None:
    full = cli_main._parser()
    part = cli_main._parser([command, "x"])
    assert part.format_help() == full.format_help()
    assert part.format_usage() == full.format_usage()
    mine = _commands(part).choices[command]
    assert mine.format_help() == _commands(full).choices[command].format_help()


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["check", "a.py"], "check"),
        (["--version"], None),
        (["-h"], None),
        ([], None),
        (["--", "rule"], "rule"),
        (["chek", "a.py"], None),
        (["serve"], None),
        (["-h", "submit"], "submit"),
    ],
)
def test_the_command_of_a_command_line(argv: list[str], command: str | None) -> None:
    assert cli_main._command_of(argv) == command


def test_unknown_commands_and_help_are_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main.main(["chek", "a.py"]) == 2
    err = capsys.readouterr().err
    assert (
        "invalid choice: 'chek' (choose from 'check', 'preview', 'rule', "
        "'generate-shell-completion', 'submit', 'serve')" in err
    )
    assert cli_main.main(["rule", "--help"]) == 0
    assert "--markdown" in capsys.readouterr().out


@pytest.mark.parametrize("columns", [None, "", "abc", "0", "-3", "7", "120"])
@pytest.mark.parametrize("lines", [None, "0", "40"])
def test_the_help_width_is_shutils(
    columns: str | None, lines: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from evalsubmit.cli.parsing import terminal_columns

    for name, value in (("COLUMNS", columns), ("LINES", lines)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert terminal_columns() == shutil.get_terminal_size().columns


def test_a_check_imports_no_shutil_fixing_or_stdin(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text("import os\n")
    code = (
        "import sys\nfrom evalsubmit.cli import main\n"
        f"main(['check', {str(tmp_path / 'tool.py')!r}])\n"
        "print(sorted(m for m in ('shutil', 'difflib', 'tempfile', 'subprocess', 'hashlib',"
        " 'evalsubmit.cli.fixing', 'evalsubmit.cli.stdin', 'evalsubmit.cli.submit',"
        " 'evalsubmit.cli.preview', 'evalsubmit.cli.rule') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_library_log_lines_stay_quiet_and_load_logging_late() -> None:
    """The CLI's NullHandler is added by the first skip logged, not with every start."""
    code = (
        "import sys, importlib\n"
        "from pathlib import Path\n"
        "main = importlib.import_module('evalsubmit.cli.main')\n"
        "main._quiet_library_logs(serving=False)\n"
        "assert 'logging' not in sys.modules\n"
        "from evalsubmit.workspace import walk\n"
        "walk.log_skip(Path('x.py'), 'unreadable')\n"
        "walk.log_skip(Path('y.py'), 'unreadable')\n"
        "import logging\n"
        "handlers = logging.getLogger('evalsubmit').handlers\n"
        "print(len(handlers), type(handlers[0]).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr == ""
    assert done.stdout.split() == ["1", "NullHandler"]
    unquiet = code.replace("main._quiet_library_logs(serving=False)\n", "").replace(
        "print(len(handlers), type(handlers[0]).__name__)\n", ""
    )
    done = subprocess.run(
        [sys.executable, "-c", unquiet], capture_output=True, text=True, check=True
    )
    assert "skipped x.py: unreadable" in done.stderr  # without it, logging's last resort prints


@pytest.mark.parametrize(
    "source", ["import os\n", "import nemo_platform\n", "import nemo_platform\nx = (\n"]
)
@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_paused_for_start_up_is_as_the_host_left_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, enabled: bool
) -> None:
    """Paused while ``check`` starts and through the first analysis (what it builds, the
    project's index, lives to the end: frozen, not traversed), the collector is on again for
    the other analyses and after the command, whether a file was analysed or not; a host that
    turned it off keeps it off."""
    import gc

    seen: list[bool] = []
    check = importlib.import_module("evalsubmit.cli.check_analysis")
    analyse_one = check._analyse_one

    def watched(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return analyse_one(*args, **kwargs)

    monkeypatch.setattr(check, "_analyse_one", watched)
    (tmp_path / "job.py").write_text(source)
    (tmp_path / "other_job.py").write_text(source)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        cli_main.main(["check", "--jobs", "1", str(tmp_path)])
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == ([] if source == "import os\n" else [False, enabled])
