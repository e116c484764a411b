"""The plain-TOML check that spares a check ``tomllib`` for a ``pyproject.toml`` without the
``[tool.evalsubmit]`` table: it may say "not sure" (False) of a valid file, never "valid" (True)
of one ``tomllib`` refuses; and a file it cannot vouch for is still parsed, so an invalid
``pyproject.toml`` stays an error."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from evalsubmit.analysis import config_resolver
from evalsubmit.workspace.config import NO_CONFIG, ConfigError
from evalsubmit.workspace.plain_toml import certainly_valid

FRAGMENTS = [
    *("[", "]", "[[", "]]", ".", "=", " = ", ",", "{", "}", "\\", '"', "'", '"""', "'''"),
    *("a", "b", "tool", "project", "1", "-0", "00", "01", "-", "+1", "true", "false", "truex"),
    *('"x"', "'y'", '"é"', '"a\\"', '"\\u0065"', "'\\'", "1.5", "1e3", "1_000", "inf", "nan"),
    *("1979-05-27", "07:32:00", "\n", "\r\n", "\r", "#c", "# é", " ", "\t", "\x00", "\x01"),
    *("\x7f", "\ufeff", "\u2028", "\x0b", "\x0c", "9" * 19, "-" + "9" * 18),
]
LINES = [
    *("[a]", "[b]", "[a.b]", "[a.b.c]", "[ a . b ]", "[tool.ruff]", "[project]", "[[a]]", "[a]]"),
    *("a = 1", "b = 2", "c = true", "a = []", "b = [1, 'x',]", "b = [[1], []]", "a.b = 1"),
    *('c = "x" # note', "a = [", "1,", "]", "2", "# comment", "", "a = [,]", "[]", "x=1 y=2"),
    *("b = [\n1,\n# c\n2\n]", "a = 1 # x", "a = '''x'''", 'a = "', "a =", "= 1", "[a.]", "[.a]"),
]


PLAIN_LINES = [
    *("[a]", "[b]", "[a.b]", "[b.a]", "[a.b.c]", "[ a . c ]", "", "# c", "a = 1", "b = 'x'"),
    *('c = "y"', "a = [1, [2]]", "b = true # t", "c = [", "'z', # c", "-1,", "]", "[c]"),
]
"""Lines of the plain subset: the texts made of them are valid or define something twice."""


def parses(text: str) -> bool:
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return True


def test_what_it_calls_valid_tomllib_parses() -> None:
    """Random texts, of fragments and of lines (so that keys and tables meet again): every
    text called valid parses, and enough are called valid for that to mean something."""
    rng = random.Random(13)
    vouched = refused = 0
    for attempt in range(20_000):
        if attempt % 3 == 0:
            text = "".join(rng.choices(FRAGMENTS, k=rng.randint(1, 16)))
        else:
            text = "\n".join(
                rng.choices(LINES if attempt % 3 == 1 else PLAIN_LINES, k=rng.randint(1, 8))
            )
        if certainly_valid(text):
            vouched += 1
            assert parses(text), repr(text)
        elif not parses(text):
            refused += 1
    assert vouched > 2_000 and refused > 2_000, (vouched, refused)


@pytest.mark.parametrize(
    "text",
    [
        "",
        '[project]\nname = "bench-small"\nversion = "0"\n',
        '[project]\r\nname = "x"\r\ndependencies = [\r\n  "a>=1",  # why\r\n  "b",\r\n]\r\n',
        '[build-system]\nrequires = ["setuptools"]\n\n[tool.ruff]\nline-length = 100\n',
        "[a.b]\n[a]\nc = [[1, 'x'], []]\n[a.d]\n",
    ],
)
def test_plain_documents_are_vouched_for(text: str) -> None:
    assert certainly_valid(text) and parses(text)


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\na = 2",  # a key twice
        "[a]\n[a]",  # a table twice
        "a = 1\n[a]",  # a table where a value is
        "a = [1]\n[a.b]",
        "[a.b]\n[a]\nb = 1",  # a value where a table is
        "a = [,]",
        "a =\n1",
        "a = 1 b = 2",
        "a = 00",
        "a = " + "[" * 100_000,  # tomllib: nested too deeply
    ],
)
def test_invalid_documents_are_not(text: str) -> None:
    assert not certainly_valid(text) and not parses(text)


def test_an_invalid_pyproject_without_the_table_is_still_an_error(tmp_path: Path) -> None:
    """The error the configuration reports for a ``pyproject.toml`` that is not TOML, table or
    not (as ruff does): the plain check passes such a file on to ``tomllib``."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nname = "y"\n')
    with pytest.raises(ConfigError, match="not valid TOML") as raised:
        config_resolver().for_path(tmp_path / "job.py")
    assert raised.value.file == tmp_path / "pyproject.toml"


@pytest.mark.parametrize(
    "text",
    [
        '[project]\nname = "x"\n',
        '[project]\nname = "x"\n[tool.ruff]\nselect = ["E"]\n',
        '[project]\nname = "x"\nversion = 1.5\n',  # not plain: tomllib's turn
        '[project]\nname = "x"\n[[tool.mypy.overrides]]\nmodule = "a"\n',
    ],
)
def test_a_valid_pyproject_without_the_table_is_passed_over(tmp_path: Path, text: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    assert config_resolver().for_path(tmp_path / "job.py") == NO_CONFIG


@pytest.mark.parametrize(
    "table",
    [
        '[tool.evalsubmit]\nselect = ["ES1"]\n',
        '[tool]\nevalsubmit = {select = ["ES1"]}\n',
        'tool.evalsubmit.select = ["ES1"]\n',
        '[tool."evalsubmit"]\nselect = ["ES1"]\n',
    ],
)
def test_every_spelling_of_the_table_is_read(tmp_path: Path, table: str) -> None:
    file = tmp_path / "pyproject.toml"
    file.write_text(f'{table}[project]\nname = "x"\n')
    config = config_resolver().for_path(tmp_path / "job.py")
    assert config.file == file and config.selection.select == frozenset({"ES1"})
