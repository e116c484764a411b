"""An engine bug in one statement costs that statement, never the rest of the module.

The bug is injected: the interpreter raises on the statements marked ``# BOOM``. What those
statements bind becomes unknown (so nothing stale is reported from it), the error is in the
report, the CLI names it and exits 2, and every other finding of the file is still there.
"""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import pytest

from evalsubmit.analysis import analyze_source
from evalsubmit.analysis.interp.interpreter import Interpreter
from evalsubmit.analysis.interp.statement_nodes import names_bound_in
from evalsubmit.cli import main

pytestmark = pytest.mark.engine_bugs_expected

SOURCE = textwrap.dedent("""\
    from nemo_platform import NeMoPlatform
    from nemo_evaluator.api.schemas import TasksetRef
    client = NeMoPlatform(workspace="qa")
    client.evaluator.submit(tasks=TasksetRef("qa/a"), target=1)
    target = 2  # BOOM
    client.evaluator.submit(tasks=TasksetRef("qa/b"), target=target)
    for item in [3]:  # BOOM
        pass
    client.evaluator.submit(tasks=TasksetRef("qa/c"), target=item)
    client.evaluator.submit(tasks=TasksetRef("qa/d"), target=4)
    """)


@pytest.fixture
def engine_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = SOURCE.splitlines()
    real = Interpreter.statement

    def statement(self: Interpreter, node: ast.stmt) -> None:
        if "# BOOM" in lines[node.lineno - 1] and node.col_offset == 0:
            raise KeyError("target")
        real(self, node)

    monkeypatch.setattr(Interpreter, "statement", statement)


def test_the_rest_of_the_module_is_analysed(engine_bug: None) -> None:
    report = analyze_source(SOURCE, path=Path("job.py"))
    # lines 4 and 10 keep their ES104; `target` and `item` are unknown, never stale or guessed
    assert [(f.span.line, f.code) for f in report.findings] == [(4, "ES104"), (10, "ES104")]
    assert report.internal_errors == (
        "line 5: KeyError: 'target'",
        "line 7: KeyError: 'target'",
    )
    assert report.skipped is None


def test_the_cli_reports_the_rest_and_exits_two(
    engine_bug: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "job.py"
    path.write_text(SOURCE, encoding="utf-8")
    code = main(["check", "--output-format", "json", str(path)])
    captured = capsys.readouterr()
    assert code == 2
    assert [f["line"] for f in json.loads(captured.out)["findings"]] == [4, 10]
    assert f"{path}: internal error at line 5: KeyError: 'target'" in captured.err


def test_the_names_a_statement_binds() -> None:
    module = ast.parse(
        textwrap.dedent("""\
            for a, (b, c) in x:
                d = e = 1
                with f() as g:
                    import h.i, j as k
            def l(m): n = 1
            try:
                pass
            except E as o:
                (p := 2)
            """)
    )
    found = names_bound_in(list(module.body))
    assert found == set("abcdeghklop")


def test_a_hostile_file_name_in_an_error_line_is_inert(
    engine_bug: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """stderr is read by people and CI log parsers too: a file name holding a newline or an
    escape sequence is written as Python escapes there, as in the report."""
    path = tmp_path / "job\n\x1b[2J.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "job\\n\\x1b[2J.py: internal error at line 5: KeyError: 'target'" in err
