"""Where each kind of AST node is handled: one table per base class the interpreter walks.

Every concrete node class of ``ast.expr``, ``ast.stmt`` and ``ast.pattern`` (Python 3.11 to
3.13) is listed, mapped to the method or function that evaluates it, including the kinds
handled generically (``operands_unknown``: an expression not modelled is unknown but its parts
are evaluated, because a ``submit()`` call can hide inside any expression). A unit test checks
that each table names every class of its base in the running Python, so a kind a new Python
adds fails that test instead of falling through unnoticed. ``ast.excepthandler`` has one kind
(``ExceptHandler``), walked by ``Statements.try_statement``.

The :class:`~.interpreter.Interpreter` dispatches through these tables (``eval``,
``statement``, ``match_pattern``); the handlers reach back through it, never through here.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from evalsubmit.analysis.interp import matching
from evalsubmit.analysis.interp.expressions import Expressions
from evalsubmit.analysis.interp.matching import CaseMatch
from evalsubmit.analysis.interp.statements import Statements
from evalsubmit.analysis.values.domain import Value

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter

ExpressionHandler: TypeAlias = Callable[[Expressions, Any], Value]
StatementHandler: TypeAlias = Callable[[Statements, Any], None]
PatternHandler: TypeAlias = Callable[["Interpreter", Any, Value], CaseMatch]

EXPRESSIONS: dict[type[ast.expr], ExpressionHandler] = {
    # the most frequent kinds first (a dict lookup does not care; the reader might)
    ast.Constant: Expressions.constant,
    ast.Name: Expressions.name,
    ast.Attribute: Expressions.attribute,
    ast.Call: Expressions.call,
    ast.Dict: Expressions.dict_literal,
    ast.List: Expressions.sequence,
    ast.Tuple: Expressions.sequence,
    ast.Set: Expressions.sequence,
    ast.Subscript: Expressions.subscript,
    ast.BinOp: Expressions.binary_operation,
    ast.UnaryOp: Expressions.unary_operation,
    ast.BoolOp: Expressions.boolean_operation,
    ast.Compare: Expressions.comparison,
    ast.IfExp: Expressions.conditional,
    ast.NamedExpr: Expressions.named,
    ast.Starred: Expressions.starred,
    ast.Lambda: Expressions.lambda_,
    ast.ListComp: Expressions.comprehension,
    ast.SetComp: Expressions.comprehension,
    ast.DictComp: Expressions.comprehension,
    ast.GeneratorExp: Expressions.comprehension,
    ast.JoinedStr: Expressions.fstring,
    ast.Await: Expressions.await_,
    ast.Yield: Expressions.yield_,
    # handled generically: unknown, their parts evaluated
    ast.YieldFrom: Expressions.operands_unknown,
    ast.Slice: Expressions.operands_unknown,
    ast.FormattedValue: Expressions.operands_unknown,  # read by fstring, inside a JoinedStr
}
"""Expression kind -> the :class:`~.expressions.Expressions` method that evaluates it."""

STATEMENTS: dict[type[ast.stmt], StatementHandler] = {
    ast.Assign: Statements.assignment,
    ast.AnnAssign: Statements.annotated_assignment,
    ast.AugAssign: Statements.augmented_assignment,
    ast.Expr: Statements.expression_statement,
    ast.Return: Statements.return_statement,
    ast.Raise: Statements.raise_statement,
    ast.Break: Statements.break_statement,
    ast.Continue: Statements.continue_statement,
    ast.Assert: Statements.assert_statement,
    ast.If: Statements.if_statement,
    ast.For: Statements.loop,
    ast.AsyncFor: Statements.loop,
    ast.While: Statements.loop,
    ast.With: Statements.with_statement,
    ast.AsyncWith: Statements.with_statement,
    ast.Try: Statements.try_statement,
    ast.TryStar: Statements.try_statement,
    ast.Match: Statements.match_statement,
    ast.FunctionDef: Statements.function_definition,
    ast.AsyncFunctionDef: Statements.function_definition,
    ast.ClassDef: Statements.class_definition,
    ast.Import: Statements.import_statement,
    ast.ImportFrom: Statements.import_statement,
    ast.Delete: Statements.delete_statement,
    # handled generically: bind nothing the checks follow, their expressions evaluated
    ast.Pass: Statements.evaluate_parts,
    ast.Global: Statements.evaluate_parts,
    ast.Nonlocal: Statements.evaluate_parts,
}
"""Statement kind -> the :class:`~.statements.Statements` method that walks it."""

if sys.version_info >= (3, 12):
    STATEMENTS[ast.TypeAlias] = Statements.evaluate_parts  # ``type X = ...``: generic

PATTERNS: dict[type[ast.pattern], PatternHandler] = {
    ast.MatchAs: matching.match_as,
    ast.MatchSingleton: matching.match_singleton,
    ast.MatchValue: matching.match_value,
    ast.MatchOr: matching.match_or,
    ast.MatchClass: matching.match_class,
    ast.MatchMapping: matching.match_mapping,
    # handled generically: may match, what they capture unknown
    ast.MatchSequence: matching.captures_unknown,
    ast.MatchStar: matching.captures_unknown,
}
"""``match`` pattern kind -> the :mod:`.matching` function that tells what it says of the
subject (called with the interpreter, the pattern and the subject's value)."""
