"""The interpreter's dispatch tables (``interp/dispatch.py``) name every concrete node class of
the bases they dispatch on, in the running Python: a kind a new Python adds fails here instead
of falling through unnoticed. And the kinds handled generically still have their parts
evaluated (a ``submit()`` call hidden in one is found)."""

from __future__ import annotations

import ast
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from evalsubmit.analysis import analyze_source
from evalsubmit.analysis.interp import dispatch

TABLES: list[tuple[type[ast.AST], dict[type, object]]] = [
    (ast.expr, dict(dispatch.EXPRESSIONS)),
    (ast.stmt, dict(dispatch.STATEMENTS)),
    (ast.pattern, dict(dispatch.PATTERNS)),
]


def concrete_kinds(base: type[ast.AST]) -> set[type]:
    """The node classes the parser builds for ``base``: its direct subclasses (the deprecated
    aliases ``ast.Num``, ``ast.Str``... subclass ``ast.Constant`` and are never built)."""
    return {kind for kind in base.__subclasses__() if kind.__module__ == "ast"}


def missing(base: type[ast.AST], table: dict[type, object]) -> set[str]:
    return {kind.__name__ for kind in concrete_kinds(base) - set(table)}


@pytest.mark.parametrize(("base", "table"), TABLES, ids=lambda x: getattr(x, "__name__", ""))
def test_every_concrete_kind_has_a_handler(base: type[ast.AST], table: dict[type, object]) -> None:
    assert missing(base, table) == set()
    assert all(kind in concrete_kinds(base) for kind in table), "a key that is not a kind"
    assert all(callable(handler) for handler in table.values())


def test_a_kind_left_out_is_named() -> None:
    table = dict(dispatch.EXPRESSIONS)
    del table[ast.Compare]
    assert missing(ast.expr, table) == {"Compare"}


def test_the_known_kinds_are_all_there() -> None:
    """Guards ``concrete_kinds`` itself: an empty or wrong list would make the test above pass
    whatever the tables hold."""
    assert {ast.Compare, ast.Call, ast.Slice, ast.YieldFrom} <= concrete_kinds(ast.expr)
    assert {ast.Pass, ast.TryStar, ast.Match, ast.Global} <= concrete_kinds(ast.stmt)
    assert {ast.MatchStar, ast.MatchSequence} <= concrete_kinds(ast.pattern)
    assert ast.Num not in concrete_kinds(ast.expr) if sys.version_info < (3, 14) else True
    if sys.version_info >= (3, 12):
        assert ast.TypeAlias in concrete_kinds(ast.stmt)


SUBMITS_IN_GENERIC_KINDS = textwrap.dedent("""\
    from nemo_platform import NeMoPlatform
    from nemo_evaluator.api.schemas import TasksetRef

    client = NeMoPlatform(workspace="qa")


    class Jobs:
        def windows(self, items: list[int]) -> list[int]:
            return items[client.evaluator.submit(tasks=TasksetRef("qa/a"), target=1) :]

        def stream(self):
            yield from client.evaluator.submit(tasks=TasksetRef("qa/b"), target=2)


    def label(value: object) -> str:
        return f"{client.evaluator.submit(tasks=TasksetRef('qa/c'), target=3)!r}"
    """)


def test_submits_inside_generically_handled_kinds_are_found() -> None:
    report = analyze_source(SUBMITS_IN_GENERIC_KINDS, path=Path("jobs.py"))
    # a slice, a yield from, a formatted value: each submit's target is invalid (ES104)
    assert [(f.span.line, f.code) for f in report.findings] == [
        (9, "ES104"),
        (12, "ES104"),
        (16, "ES104"),
    ]
    assert report.internal_errors == ()


def test_every_part_of_the_interpreter_is_held_by_the_import_contract() -> None:
    """The ``interp-parts`` contract (pyproject.toml) lists the parts by name: a new module of
    ``interp`` must be added there, or it could import the interpreter unnoticed."""
    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["id"] == "interp-parts"]
    package = root / "server" / "evalsubmit" / "analysis" / "interp"
    owners = {"__init__", "interpreter", "dispatch", "modules"}
    parts = {f"evalsubmit.analysis.interp.{p.stem}" for p in package.glob("*.py")} - {
        f"evalsubmit.analysis.interp.{name}" for name in owners
    }
    assert parts, "no module found: the path is wrong"
    assert set(contract["source_modules"]) == parts
