"""Metamorphic checks of the analysis core (issue 31): making a value less known never adds a
finding.

A *site* is one expression of a program. Its mutation replaces the expression's text by the call
``unknown()`` of an undefined function: the engine knows nothing of its result, so the mutated
program determines strictly less than the original one. Every finding of the mutated program
must therefore already be a finding of the original one (findings only shrink). Two kinds:

* ``value``: a sub-expression, call argument, keyword value, assignment right-hand side,
  default, annotation, ... (``tests/unit/test_metamorphic.py::test_less_known_value``);
* ``condition``: the test of an ``if``, ``while``, ternary, ``assert`` or ``case ... if``
  guard, or a ``match`` subject: once it is unknown, both branches can run, and a finding that
  holds on only one of them must not appear.

Which expressions are sites: an expression whose replacement only removes knowledge, and no
effect or binding the engine models:

* not a target of an assignment, ``del``, ``for`` or ``with`` (nor the object a target writes
  into: ``unknown().x = 1`` no longer writes ``x``);
* not a callee or the receiver of a method call (``items.append(r)`` -> ``unknown().append(r)``
  drops the append: what the list holds would become *more* known);
* not the value of an expression statement (its call's effects would be lost);
* not a starred argument (``f(*xs)`` -> ``f(unknown())`` makes the arity known);
* nothing that holds ``yield``, ``yield from`` or ``:=`` (the function's kind, or a binding,
  would change);
* not inside an f-string's literal part or a ``match`` pattern (no expression can stand there).

Comparing findings: ``(code, line, column)`` of the finding's start. The edit keeps the line
count (a multi-line expression becomes ``(unknown()`` + its newlines + ``)``), so only columns
after the edit on its last line move; they are mapped back exactly. A finding that starts inside
the replaced expression, before or after, is keyed ``(code, line, "<edited>")``: the
replacement may move it to its own start, and that is not a new finding.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalsubmit.analysis import Finding, ModuleReport, Project, Span, analyze_source
from evalsubmit.core.findings import Occasion
from evalsubmit.core.lines import split_lines_keepends

OPAQUE = "unknown()"
EDITED = "<edited>"

Key = tuple[str, int, int | str]

_BINDING = (ast.Yield, ast.YieldFrom, ast.NamedExpr)


@dataclass(frozen=True, slots=True, order=True)
class Site:
    """One expression to make unknown: 1-based lines, 0-based code-point columns."""

    line: int
    col: int
    end_line: int
    end_col: int
    kind: str
    node: str

    def label(self) -> str:
        return f"{self.kind} {self.node} at {self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Violation:
    """A finding of the mutated program that the original program does not have."""

    site: Site
    mutated: str
    added: tuple[Finding, ...]

    def describe(self, limit: int = 3) -> str:
        lines = self.mutated.splitlines()
        shown = "\n".join(
            f"{n:4}| {lines[n - 1]}"
            for n in range(
                max(1, self.site.line - limit), min(len(lines), self.site.line + limit) + 1
            )
        )
        added = "; ".join(
            f"{f.code} at {f.span.line}:{f.span.col}: {f.message}" for f in self.added
        )
        return f"{self.site.label()} adds {added}\n{shown}"


# -- sites ---------------------------------------------------------------------------------------


def _char_col(lines: Sequence[str], line: int, byte_col: int) -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "replace"))


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _is_target_base(node: ast.expr, parents: dict[ast.AST, ast.AST]) -> bool:
    """The object an assignment or ``del`` writes into (``x`` of ``x.a = 1``, ``x[k] = 1``)."""
    child: ast.AST = node
    parent = parents.get(child)
    while isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is child:
        if isinstance(parent.ctx, (ast.Store, ast.Del)):
            return True
        child, parent = parent, parents.get(parent)
    return False


def _is_callee_or_receiver(node: ast.expr, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    if isinstance(parent, ast.Call) and parent.func is node:
        return True
    grand = parents.get(parent) if parent is not None else None
    return (
        isinstance(parent, ast.Attribute)
        and parent.value is node
        and isinstance(grand, ast.Call)
        and grand.func is parent
    )


def _condition_nodes(tree: ast.AST) -> set[ast.AST]:
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            found.add(node.test)
        elif isinstance(node, ast.Match):
            found.add(node.subject)
        elif isinstance(node, ast.match_case) and node.guard is not None:
            found.add(node.guard)
    return found


def _excluded_subtrees(tree: ast.AST) -> set[ast.AST]:
    """Expressions that cannot be replaced, with everything inside them."""
    excluded: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.JoinedStr, ast.pattern)):
            excluded.update(ast.walk(node))
        elif isinstance(node, ast.expr) and isinstance(
            getattr(node, "ctx", None), (ast.Store, ast.Del)
        ):
            excluded.update(ast.walk(node))  # every part of a target (x[i] = ...: also i)
    return excluded


def sites(text: str) -> list[Site]:
    """Every replaceable expression of ``text`` (none when it does not parse)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    lines = [line.rstrip("\r\n") for line in split_lines_keepends(text)]
    parents = _parents(tree)
    conditions = _condition_nodes(tree)
    excluded = _excluded_subtrees(tree)
    effects = {
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.expr) and any(isinstance(n, _BINDING) for n in ast.walk(node))
    }
    found: list[Site] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr) or node in excluded or node in effects:
            continue
        if isinstance(node, (ast.Starred, ast.Slice)) or node.end_lineno is None:
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Expr) or _is_target_base(node, parents):
            continue
        if _is_callee_or_receiver(node, parents):
            continue
        kind = "condition" if node in conditions else "value"
        found.append(
            Site(
                node.lineno,
                _char_col(lines, node.lineno, node.col_offset),
                node.end_lineno,
                _char_col(lines, node.end_lineno, node.end_col_offset or 0),
                kind,
                type(node).__name__,
            )
        )
    return sorted(set(found))


# -- the mutation --------------------------------------------------------------------------------


def _offset(lines: Sequence[str], line: int, col: int) -> int:
    return sum(len(text) for text in lines[: line - 1]) + col


def replacement(site: Site) -> str:
    """``unknown()`` on one line; over several, parenthesised with the same line breaks."""
    if site.line == site.end_line:
        return OPAQUE
    return "(" + OPAQUE + "\n" * (site.end_line - site.line) + ")"


def mutate(text: str, site: Site) -> str | None:
    """``text`` with the site replaced by ``unknown()``; None when that does not parse as the
    same program with one opaque call (a position the text cannot take)."""
    lines = split_lines_keepends(text)
    start = _offset(lines, site.line, site.col)
    end = _offset(lines, site.end_line, site.end_col)
    mutated = text[:start] + replacement(site) + text[end:]
    try:
        tree = ast.parse(mutated)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "unknown"
    ]
    if not any(c.lineno == site.line for c in calls):
        return None
    return mutated


def _new_end(site: Site) -> tuple[int, int]:
    if site.line == site.end_line:
        return site.line, site.col + len(OPAQUE)
    return site.end_line, 1


def original_position(line: int, col: int, site: Site) -> Key:
    """A position of the original program, in the mutated program's positions."""
    if (line, col) < (site.line, site.col):
        return ("", line, col)
    if (line, col) >= (site.end_line, site.end_col):
        if line == site.end_line:
            return ("", line, col - site.end_col + _new_end(site)[1])
        return ("", line, col)
    return ("", site.line, EDITED)


def mutated_position(line: int, col: int, site: Site) -> Key:
    if (site.line, site.col) <= (line, col) < _new_end(site):
        return ("", site.line, EDITED)
    return ("", line, col)


def original_key(finding: Finding, site: Site) -> Key:
    """The key of a finding of the original program, in the mutated program's positions."""
    return (finding.code, *original_position(finding.span.line, finding.span.col, site)[1:])


def mutated_key(finding: Finding, site: Site) -> Key:
    return (finding.code, *mutated_position(finding.span.line, finding.span.col, site)[1:])


def added_findings(before: ModuleReport, after: ModuleReport, site: Site) -> tuple[Finding, ...]:
    known = {original_key(f, site) for f in before.findings}
    return tuple(f for f in after.findings if mutated_key(f, site) not in known)


# -- what the engine reached -------------------------------------------------------------------
#
# The engine reports a finding when it holds on every path that *reaches* its call. Less
# knowledge can make code reachable that was not: ``if False: submit(target=None)`` is dead and
# silent, ``if unknown(): submit(target=None)`` is live and wrong whenever it runs. Such a finding
# is not made by less knowledge of a value but by a path that now exists; the property is about
# the points the original program reached. A *point* is a fact the rules read (a ``submit()``
# call or an SDK construction, by its position) in one walk (a loop element, a call site, a test
# parameter). An added finding is excused only when every point that produced it was never
# reached by the original program; otherwise it is a violation.

PointKey = tuple[str, str, int, int | str, tuple[tuple[str, int, int, int], ...]]


def _walk_key(walk: Occasion) -> tuple[str, int, int, int]:
    return (walk.group.kind, walk.group.line, walk.index, walk.total)


@dataclass(frozen=True, slots=True)
class Point:
    kind: str
    path: str
    span: Span
    context: tuple[tuple[str, int, int, int], ...]

    def key(self, site: Site | None = None, *, original: bool = False) -> PointKey:
        line, col = self.span.line, self.span.col
        if site is None:
            return (self.kind, self.path, line, col, self.context)
        if original:
            _, line, where = original_position(line, col, site)
        else:
            _, line, where = mutated_position(line, col, site)
        return (self.kind, self.path, line, where, self.context)


def _point(fact: object) -> Point:
    span = fact.span
    context = tuple(_walk_key(w) for w in getattr(fact, "context", ()))
    return Point(type(fact).__name__, str(getattr(fact, "path", None)), span, context)


@dataclass
class Observation:
    """What one analysis reached (``points``) and which point produced which finding."""

    points: set[Point] = field(default_factory=set)
    produced: dict[tuple[str, Span], set[Point]] = field(default_factory=dict)


_observing: list[Observation] = []


@contextmanager
def observing() -> Iterator[Observation]:
    """Record the facts the rules read and the findings each produced, for the analyses run
    inside (read-only: the engine's results are unchanged)."""
    from evalsubmit.analysis.engine import analyze
    from evalsubmit.analysis.rules import runner

    observation = Observation()
    run_rules, here = analyze.run_rules, runner._here

    def observed_run_rules(ctx: Any, enabled: Any) -> list[Finding]:
        for fact in (*ctx.facts.submits, *ctx.facts.constructions):
            observation.points.add(_point(fact))
        return run_rules(ctx, enabled)

    def observed_here(fact: Any, findings: list[Finding], ctx: Any) -> list[Finding]:
        kept = here(fact, findings, ctx)
        for finding in kept:
            observation.produced.setdefault((finding.code, finding.span), set()).add(_point(fact))
        return kept

    analyze.run_rules, runner._here = observed_run_rules, observed_here  # type: ignore[assignment]
    try:
        yield observation
    finally:
        analyze.run_rules, runner._here = run_rules, here  # type: ignore[assignment]


def newly_reached(finding: Finding, site: Site, before: Observation, after: Observation) -> bool:
    """Whether every point that produced ``finding`` (in the mutated program) was never
    reached by the original program."""
    points = after.produced.get((finding.code, finding.span))
    if not points:
        return False  # a module check, or a finding from elsewhere: always reached
    reached = {p.key(site, original=True) for p in before.points}
    return all(p.key(site) not in reached for p in points)


# -- running -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Program:
    """One module to mutate: its text, where it lives, the project it belongs to."""

    name: str
    text: str
    path: Path | None = None
    root: Path | None = None

    def analyse(self, text: str | None = None) -> tuple[ModuleReport, Observation]:
        source = self.text if text is None else text
        path = self.path or Path("program.py")
        with observing() as observation:
            # forward findings only: what importers place here is found by analysing them,
            # where the observation of reached calls does not look
            report = analyze_source(
                source, path=path, project=Project(root=self.root), reverse=False
            )
        return report, observation


def check_site(
    program: Program, site: Site, before: tuple[ModuleReport, Observation]
) -> Violation | None:
    mutated = mutate(program.text, site)
    if mutated is None:
        return None
    after = program.analyse(mutated)
    added = tuple(
        f
        for f in added_findings(before[0], after[0], site)
        if not newly_reached(f, site, before[1], after[1])
    )
    return Violation(site, mutated, added) if added else None


def check_program(
    program: Program, chosen: Sequence[Site] | None = None
) -> Iterator[tuple[Site, Violation | None]]:
    """Each site (``chosen``, or every site) with its violation or None."""
    before = program.analyse()
    for site in sites(program.text) if chosen is None else chosen:
        yield site, check_site(program, site, before)


def spread(items: Sequence[Site], cap: int) -> list[Site]:
    """At most ``cap`` of ``items``, evenly spread over the file (deterministic)."""
    if len(items) <= cap:
        return list(items)
    step = len(items) / cap
    return [items[int(i * step)] for i in range(cap)]


# -- generated programs --------------------------------------------------------------------------


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def generated_programs() -> Any:
    """Programs of the fuzz's SDK grammar (``tests/robustness/inputs.py``) that parse: its
    statements (runner and config constructions, ``submit()`` calls with random arguments in
    random control flow), each kept when it parses on its own, after the SDK imports."""
    from hypothesis import strategies as st

    from robustness.inputs import SDK_HEADER, statements

    return st.lists(statements, min_size=1, max_size=12).map(
        lambda body: Program(
            "generated", SDK_HEADER + "".join(s + "\n" for s in body if _parses(s))
        )
    )
