"""ES100 invalid-syntax: a file that does not parse is never reported as passing."""

from __future__ import annotations

import ast
import json
import random
import sys
import warnings
from pathlib import Path

import pytest
from rule_support import results

from evalsubmit.analysis.rules import es100_invalid_syntax as es100
from evalsubmit.analysis.rules.context import ModuleContext
from evalsubmit.analysis.source.parse import ParsedModule, parse_source
from evalsubmit.cli import main


def test_the_broken_statement_is_named_and_the_rest_still_checked() -> None:
    assert results("""
        client.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig())
        client.evaluator.submit(tasks=T, target=gym_runner
        x = 1
        """) == [(1, "ES102"), (2, "ES100")]


def test_a_clean_file_has_none() -> None:
    assert results("client.evaluator.submit(tasks=T, target=gym_runner)\n") == []


@pytest.mark.parametrize("strict", [False, True])
def test_the_cli_fails_on_a_syntax_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strict: bool
) -> None:
    job = tmp_path / "job.py"
    job.write_text(
        "from nemo_platform import NeMoPlatform\n"
        "client = NeMoPlatform(workspace='qa')\n"
        "client.evaluator.submit(tasks='qa/a', target=(\n"
    )
    plain = tmp_path / "plain.py"
    plain.write_text("def f(:\n    pass\n")
    argv = ["check", "--no-cache", "--output-format", "json", str(tmp_path)]
    code = main([*argv, "--strict"] if strict else argv)
    found = json.loads(capsys.readouterr().out)["findings"]
    assert code == 1
    paths = sorted(Path(f["path"]).name for f in found if f["code"] == "ES100")
    # a file that cannot reach the SDK holds no submission: its syntax is Python's business
    assert paths == ["job.py"]
    assert all(f["kind"] == "invalid-syntax" for f in found)


def test_a_run_that_checks_nothing_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--no-cache", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "No Python files found: nothing was checked." in captured.out
    assert "All checks passed" not in captured.out
    assert "warning: No Python files found" in captured.err
    assert main(["check", "--no-cache", "--strict", str(tmp_path)]) == 1


EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _python_error(text: str) -> tuple[int | None, int | None, str] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as error:
        return error.lineno, error.offset, error.msg
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def _mutants(count: int, seed: int) -> list[str]:
    """Half-typed versions of the examples: a character deleted or inserted, a line deleted,
    indented or cut short, as a user leaves code between two keystrokes."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob("*.py"))]
    r = random.Random(seed)
    out = []
    for _ in range(count):
        lines = r.choice(texts).split("\n")
        n = r.randrange(len(lines))
        line = lines[n]
        cut = r.randrange(len(line) + 1)
        match r.randrange(5):
            case 0:
                lines[n] = line[:cut] + line[cut + 1 :]
            case 1:
                lines[n] = (
                    line[:cut]
                    + r.choice(["(", "[", "{", ":", ")", "'", '"', '"""', ",", "="])
                    + line[cut:]
                )
            case 2:
                del lines[n]
            case 3:
                lines[n] = "  " + line
            case _:
                lines[n] = line[:cut]
        out.append("\n".join(lines))
    return out


def test_the_error_reported_is_pythons_own_first_error() -> None:
    """ES100 parses only the broken top-level piece when that says what a parse of the whole
    file says: held to the whole parse over 3,000 half-typed versions of the examples."""
    broken = 0
    for text in _mutants(3000, seed=26):
        parsed = parse_source(text)
        if parsed is None or not parsed.blanked:
            continue
        broken += 1
        error = es100._first_error(parsed)
        whole = _python_error("".join(parsed.lines))
        assert (None if error is None else (error.lineno, error.offset, error.msg)) == whole, text
    assert broken > 500  # the mutations do break code: a vacuous run cannot pass


def test_an_error_inside_a_piece_is_found_by_parsing_that_piece_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The piece holding the first broken line is found among many (and the whole file is not
    parsed): the broken piece first, in the middle and last."""
    parsed_texts: list[str] = []
    parse_error = es100._parse_error

    def noted(text: str) -> SyntaxError | None:
        parsed_texts.append(text)
        return parse_error(text)

    monkeypatch.setattr(es100, "_parse_error", noted)
    functions = [f"def f{n}():\n    return {n}\n\n\n" for n in range(60)]
    for broken in (0, 31, 59):
        lines = "".join(functions).splitlines(keepends=True)
        lines[broken * 4 + 1] = "    return max(1, len(\n"
        parsed = parse_source("".join(lines))
        assert parsed is not None and parsed.blanked and len(parsed.chunks) >= 60
        parsed_texts.clear()
        error = es100._first_error(parsed)
        assert error is not None and error.lineno == broken * 4 + 2
        piece = f"def f{broken}():\n    return max(1, len("
        assert [text.strip() for text in parsed_texts] == [piece]


NEWER = {
    "nested quotes in an f-string": 'ref = TasksetRef(f"{job["workspace"]}/smoke")\n',
    "a type statement": "type Options = dict[str, int]\n",
    "type parameters of a function": "def first[T](items: list[T]) -> T:\n    return items[0]\n",
    "type parameters of a class": "class Box[T]:\n    item: T\n",
}


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12 reads this syntax")
@pytest.mark.parametrize("name", list(NEWER))
def test_syntax_python_3_12_added_is_named_as_such(name: str) -> None:
    """The SDK needs Python 3.12: on an older host Python, code of its syntax does not parse.
    The error stays (the statement is not checked) and says why, with what to do."""
    parsed = parse_source("x = 1\n" + NEWER[name])
    assert parsed is not None
    found = es100.check(_context(parsed))
    assert len(found) == 1 and "Python 3.12 syntax" in found[0].message, found


def test_an_ordinary_syntax_error_gets_no_such_hint() -> None:
    parsed = parse_source("x = [1,\ndef first(items):\n    return items[0]\n")
    assert parsed is not None
    found = es100.check(_context(parsed))
    assert len(found) == 1 and "3.12" not in found[0].message


def _context(parsed: ParsedModule) -> ModuleContext:
    return ModuleContext(parsed, None)
