"""Statement walking: statements in flow order, names bound to abstract values.

Branches are walked from the same start and joined (a name bound differently becomes unknown);
a loop over a few known elements is walked once per element, its facts labelled with the
element, while facts are recorded; ``try`` joins the body with every handler. ``def`` and
``class`` statements are the :class:`~.definitions.Definitions`' to bind, imports the
interpreter's. Kept apart from :mod:`.interpreter` (frames, calls of the user's functions, the
module walk) so the rules of flow can be read in one place.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.context_managers import ENTERED
from evalsubmit.analysis.interp.definitions import Definitions
from evalsubmit.analysis.interp.expressions import MISSING_KEY
from evalsubmit.analysis.interp.flow import (
    LoopJumps,
    may_suppress,
    never_returns,
    opaque_call,
)
from evalsubmit.analysis.interp.loops import Loops
from evalsubmit.analysis.interp.matching import guard_holds
from evalsubmit.analysis.interp.narrowing import Refinements, refine, restore
from evalsubmit.analysis.interp.operators import augmented, truthiness
from evalsubmit.analysis.models.containers import delete_item, in_place, keeps_identity
from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import (
    NEVER_RETURNS,
    DictValue,
    Instance,
    Known,
    OneShot,
    Origin,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.objects import ClassValue
from evalsubmit.analysis.values.store import (
    Ends,
    forked,
    join_forks,
    kept_value,
    store_entry,
    store_keyword,
)
from evalsubmit.core.findings import Span
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


class Statements:
    """The statement walker behind ``Interpreter.statement``; which method walks which kind of
    statement is :data:`.dispatch.STATEMENTS`."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.definitions = Definitions(interp)
        self._jumps = LoopJumps()
        self._loops = Loops(interp, self, self._jumps)

    def walk(self, body: list[ast.stmt]) -> None:
        """Each statement in flow order, up to the one that ends the path (a ``return``, a
        ``raise``, ``sys.exit()``...): what follows it in the block cannot run."""
        for statement in body:
            if self.interp.frame.env.ended is not None:
                return
            try:
                self.interp.statement(statement)
            except RecursionError:
                continue
            except Exception as error:  # an engine bug costs this statement, not the module
                self.interp.failed(statement, error)

    # ----- one handler per kind of statement (the table is dispatch.STATEMENTS) -----------

    def assignment(self, node: ast.Assign) -> None:
        result = self.interp.eval(node.value)
        if isinstance(node.value, (ast.Subscript, ast.Call)) and ends_path(result):
            self.interp.frame.env.ended = "raise"  # what follows cannot run
            return
        for target in node.targets:
            self.assign(target, result, node)

    def annotated_assignment(self, node: ast.AnnAssign) -> None:
        if node.value is None:
            self.evaluate_parts(node)  # a declaration: binds nothing
            return
        self.assign(node.target, self.interp.eval(node.value), node)

    def augmented_assignment(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Name):
            operand = self.interp.eval(node.value)
            current = self.interp.frame.env.lookup(target.id)
            if current is not None and keeps_identity(current):
                in_place(current, node.op, operand, self._origin_of_span(self.interp.span(node)))
            elif isinstance(current, Known):
                # an immutable constant: `i += 1` is `i = i + 1` (a while loop's counter)
                source = self.interp.frame.source
                self.interp.frame.env.names[target.id] = augmented(node, current, operand, source)
            else:
                self.interp.frame.env.names[target.id] = Unknown("changed in place")
        elif isinstance(target, (ast.Attribute, ast.Subscript)):
            operand = self.interp.eval(node.value)
            current = self.interp.eval(target)
            if keeps_identity(current):
                in_place(current, node.op, operand, self._origin_of_span(self.interp.span(node)))
            else:
                self.assign(target, Unknown("changed in place"), node)
        else:
            self.evaluate_parts(node)

    def expression_statement(self, node: ast.Expr) -> None:
        value = node.value
        result = self.interp.eval(value)
        if isinstance(value, ast.Call):
            if never_returns(self.interp, value) or ends_path(result):
                self.interp.frame.env.ended = "raise"
            elif opaque_call(self.interp, value):
                self.interp.frame.env.opaque = True

    def return_statement(self, node: ast.Return) -> None:
        result = self.interp.eval(node.value) if node.value is not None else Known(None)
        if self.interp.frame.returns is not None:
            self.interp.frame.returns.append(result)
        self.interp.frame.env.ended = "return"

    def raise_statement(self, node: ast.Raise) -> None:
        for part in (node.exc, node.cause):
            if part is not None:
                self.interp.eval(part)
        self.interp.frame.env.ended = "raise"

    def break_statement(self, node: ast.Break) -> None:
        self._jumps.leave(self.interp.frame.env, "break")

    def continue_statement(self, node: ast.Continue) -> None:
        self._jumps.leave(self.interp.frame.env, "continue")

    def with_statement(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            context = self.interp.eval(item.context_expr)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, _entered_value(context), node)
        self.walk(node.body)
        env = self.interp.frame.env
        if env.ended == "raise" and any(may_suppress(i.context_expr) for i in node.items):
            env.ended = None  # suppress(...), pytest.raises(...): what follows runs

    def function_definition(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.definitions.define_function(node)

    def class_definition(self, node: ast.ClassDef) -> None:
        self.definitions.define_class(node)

    def import_statement(self, node: ast.Import | ast.ImportFrom) -> None:
        self.interp.import_names(node)

    def delete_statement(self, node: ast.Delete) -> None:
        for target in node.targets:
            self.delete(target)

    def evaluate_parts(self, node: ast.stmt) -> None:
        """A statement that binds nothing the checks follow (``pass``, ``global``, ``type``
        ...): its expressions are still evaluated, because a ``submit()`` call can hide in
        any of them."""
        for child in tree_walk.child_nodes(node):
            if isinstance(child, ast.expr):
                self.interp.eval(child)

    def assign(self, target: ast.expr, value: Value, statement: ast.stmt) -> None:
        match target:
            case ast.Name(id=name):
                self.interp.frame.env.names[name] = value
                if name in self.interp.frame.passed:  # no longer the argument passed in
                    del self.interp.frame.passed[name]  # type: ignore[attr-defined]
                if (
                    self.interp.frame.collect
                    and not self.interp.frame.context
                    and _is_runner_like(value)
                ):
                    binding = (self.interp.span(target), value, kept_value(value))
                    self.interp.facts.runner_bindings.append(binding)
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                items = value.items if isinstance(value, SeqValue) and value.complete else None
                for index, element in enumerate(elements):
                    if items is not None and len(items) == len(elements):
                        self.assign(element, items[index], statement)
                    else:
                        self.assign(element, Unknown("unpacked at run time"), statement)
            case ast.Subscript(value=base_node, slice=key_node):
                base, key = self.interp.eval(base_node), self.interp.eval(key_node)
                origin = self._origin_of_span(self.interp.span(statement))
                if isinstance(base, DictValue):
                    store_entry(base, key, value, origin)
                elif isinstance(base_node, ast.Name) and _may_be_mapping(base, key):
                    # a mapping read at run time (YAML, JSON) keeps the keys stored after
                    entries = Entries(complete=False)
                    entries.put(key, value, origin)
                    partial = entries.dict(base.origin if isinstance(base, Known) else None)
                    self.interp.frame.env.names[base_node.id] = partial
            case ast.Attribute(value=base_node, attr=attr):
                base = self.interp.eval(base_node)
                if isinstance(base, Instance) and base.ref.qualname == sdk.GYM_CONFIG:
                    where = self._origin_of_span(self.interp.span(statement))
                    store_keyword(base, attr, value, where)
                elif isinstance(base, Instance) and base.ref.user is not None:
                    self.interp.write_attribute(base, attr, value)
                elif isinstance(base, ClassValue) and base.ref.user is not None:
                    self.interp.write_attribute(base.ref.user, attr, value)
            case ast.Starred(value=inner):
                self.assign(inner, Unknown("unpacked at run time"), statement)

    def delete(self, target: ast.expr) -> None:
        match target:
            case ast.Name(id=name):
                self.interp.frame.env.names.pop(name, None)
            case ast.Subscript(value=base_node, slice=key_node):
                delete_item(self.interp.eval(base_node), self.interp.eval(key_node))
            case ast.Attribute(value=base_node, attr=attr):
                base = self.interp.eval(base_node)
                if isinstance(base, Instance) and base.ref.user is not None:
                    self.interp.write_attribute(base, attr, Unknown("deleted"))
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                for element in elements:
                    self.delete(element)

    def if_statement(self, node: ast.If) -> None:
        test = self.interp.eval(node.test)
        if _is_type_checking(node.test):
            # TYPE_CHECKING: its imports exist for annotations, which is all they are used for
            self.walk(node.body)
            return
        truth = truthiness(test)
        if truth is not None:  # the code's own values decide: the other side cannot run
            self.walk(node.body if truth else node.orelse)
            return
        start = self.interp.frame.env
        # `if __name__ == "__main__":` of the analysed file: run as a script or imported
        run_name_test = start.parent is None and _tests_run_name(node.test)
        bound_before = frozenset(start.bindings) if run_name_test else frozenset()
        outcomes: list[tuple[Env, Refinements, Ends]] = []
        for body, positive in ((node.body, True), (node.orelse, False)):
            with forked() as ends, self.interp.scope(start.copy()) as frame:
                refined = refine(self.interp, node.test, positive)
                self.walk(body)
            outcomes.append((frame.env, refined, ends))
        if run_name_test:
            _join_runs(start, bound_before, outcomes)
            return
        live = [(env, refined) for env, refined, _ in outcomes if env.ended is None]
        if len(live) > 1:  # both sides rejoin: what one condition proved holds on neither
            for env, refined in live:
                restore(env, refined)
        join_forks([ends for env, _, ends in outcomes if env.ended is None])
        start.join_paths(*(env for env, _, _ in outcomes))

    def match_statement(self, node: ast.Match) -> None:
        """The cases the subject can reach, each with what its pattern binds; after a case
        that surely matches, none (and no fall-through past the statement)."""
        subject = self.interp.eval(node.subject)
        name = node.subject.id if isinstance(node.subject, ast.Name) else None
        start = self.interp.frame.env
        outcomes: list[tuple[Env, Ends]] = []
        sure = False
        for case in node.cases:
            found = self.interp.match_pattern(case.pattern, subject)
            if found.matches is False:
                continue
            with forked() as ends, self.interp.scope(start.copy()) as frame:
                frame.env.names.update(found.bindings)
                if name is not None and found.subject is not None:
                    frame.env.names[name] = found.subject
                holds = guard_holds(self.interp, case.guard)
                if holds is not False:
                    self.walk(case.body)
                else:
                    frame.env.ended = "no match"
            outcomes.append((frame.env, ends))
            if found.matches is True and holds is True:
                sure = True
                break
        if not sure:
            outcomes.append((start.copy(), {}))
        join_forks([ends for env, ends in outcomes if env.ended is None])
        start.join_paths(*(env for env, _ in outcomes))

    def assert_statement(self, node: ast.Assert) -> None:
        """``assert False`` (and any test known to be false) ends the path; any other
        assertion narrows what follows (``assert runner is not None``)."""
        test = node.test
        if truthiness(self.interp.eval(test)) is False:
            self.interp.frame.env.ended = "raise"
        else:
            refine(self.interp, test, True)

    def loop(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        self._loops.loop(node)

    def try_statement(self, node: ast.Try | ast.TryStar) -> None:
        """The body (and ``else``) or any handler may have run: their bindings are joined into
        the environment the statement started with (the same object, so a module's scope
        keeps what follows a top-level ``try``)."""
        env = self.interp.frame.env
        before = env.copy()
        with forked() as body_ends:
            self.walk(node.body)
            self.walk(node.orelse)
        outcomes = [(env.copy(), body_ends)]
        for handler in node.handlers:
            # the body ran up to anywhere: a handler starts from the values before it
            with forked() as ends, self.interp.scope(before.copy()) as frame:
                if handler.name:
                    frame.env.names[handler.name] = Unknown("an exception")
                self.walk(handler.body)
            outcomes.append((frame.env, ends))
        join_forks([ends for outcome, ends in outcomes if outcome.ended is None])
        merged = before.copy()
        merged.join_paths(*(outcome for outcome, _ in outcomes))
        env.share(merged)
        env.ended = None
        # `finally` runs on every path, also those that returned or raised
        self.walk(node.finalbody)
        if env.ended is None:
            env.ended = merged.ended

    def _origin_of_span(self, span: Span) -> Origin:
        return Origin(self.interp.frame.source.path, span)


_SELF_ENTERING = frozenset({sdk.PLATFORM_CLIENT, sdk.ASYNC_PLATFORM_CLIENT})


def _entered_value(context: Value) -> Value:
    """What ``with context as name`` binds: files and the platform clients return themselves."""
    if isinstance(context, OneShot):
        return context
    if isinstance(context, Instance) and context.ref.qualname in _SELF_ENTERING:
        return context
    if isinstance(context, Instance) and context.ref.qualname == ENTERED:
        return context.args.keywords["__enter__"]  # a @contextmanager function's yield
    return Unknown("a context value")


def ends_path(value: Value) -> bool:
    """``d[k]`` of a dict that surely lacks ``k``, or a call of a function every path of
    which raises: the statement making it raises there."""
    return isinstance(value, Unknown) and value.reason in {MISSING_KEY, NEVER_RETURNS}


def _may_be_mapping(base: Value, key: Value) -> bool:
    """An unknown value given a string key: a mapping, once the store succeeded."""
    string_key = isinstance(key, Known) and isinstance(key.obj, str)
    return string_key and isinstance(base, Unknown) and base.type_name in {None, "dict", "object"}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _join_runs(
    start: Env, bound_before: frozenset[str], outcomes: list[tuple[Env, Refinements, Ends]]
) -> None:
    """After ``if __name__ == "__main__":`` in the analysed file (run as a script or imported):
    the functions either run calls read what it left, also when it ended (``sys.exit(main())``),
    so values are joined over both runs; a name only one run binds keeps that run's value."""
    sides = [env for env, _, _ in outcomes]
    for env, refined, _ in outcomes:
        restore(env, refined)
    join_forks([ends for _, _, ends in outcomes])
    start.join_paths(*sides, ended_too=True)
    start.keep_bound_on_one_side(bound_before, sides)


def _tests_run_name(test: ast.expr) -> bool:
    """``__name__ == "__main__"``, ``"__main__" != __name__`` and the like."""
    return isinstance(test, ast.Compare) and any(
        isinstance(operand, ast.Name) and operand.id == "__name__"
        for operand in (test.left, *test.comparators)
    )


def _is_runner_like(value: Value) -> bool:
    if not isinstance(value, Instance):
        return False
    return value.ref.qualname in sdk.RUNNER_CLASSES or value.ref.user is not None
