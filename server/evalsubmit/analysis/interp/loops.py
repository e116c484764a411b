"""Loops: ``for`` and ``while``, walked the way the values they run over allow.

* Elements known and every element surely reaching the body (no ``break`` or ``return`` in
  it): the body is walked once per element, each walk's facts labelled with its element.
* Elements known and the body able to leave the loop: the elements are walked in order, each
  from where the one before left off, as Python runs them, for as long as every element's
  walk decides whether it leaves (all its paths break or return, or none does). A ``for``
  that looks for something then says what it found, or that it fell off the end. The first
  element whose walk does not decide abandons that: what it recorded is taken back, and the
  loop is walked the general way.
* A ``while`` whose test is known (not a constant): its passes are walked in order the same
  way, unlabelled, for as long as the test stays known and each pass decides whether it
  leaves, at most :data:`MAX_ELEMENT_WALKS` passes (``i = 0; while i < len(SUITES): ...``).
  Only a constant test (``while True:``) makes a loop endless: one that holds on entry may
  stop holding.
* Otherwise: the body may run any number of times; what it binds is joined with what was
  there before. When the elements are known but too many to walk the ways above (and the
  body cannot leave the loop), the body is still checked once per distinct element, up to
  :data:`MAX_CHECK_WALKS` of them: those walks record facts, labelled with their element, and
  what they bind is dropped (the general walk decides what the loop binds; when every
  distinct element was checked, it records nothing: the elements' walks are the loop).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from evalsubmit.analysis.interp.bodies import iterated_once
from evalsubmit.analysis.interp.flow import LoopExits, LoopJumps, element_label, leaves_loop
from evalsubmit.analysis.interp.frames import MAX_CHECK_WALKS, MAX_CONTEXTS, MAX_ELEMENT_WALKS
from evalsubmit.analysis.interp.operators import truthiness
from evalsubmit.analysis.interp.statement_nodes import names_bound_in
from evalsubmit.analysis.values.domain import Known, Unknown, Value
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.iterables import items_of
from evalsubmit.analysis.values.store import forked, join_forks, sealed
from evalsubmit.core.findings import Label, Occasion, Site

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


Loop = ast.For | ast.AsyncFor | ast.While
_Left = tuple[list[Env], Env]
"""How a loop walked in order was left: (the paths that left by ``break``, the path at its
end)."""


class _Walker(Protocol):
    """What a loop needs of the statement walker."""

    def walk(self, body: list[ast.stmt]) -> None: ...

    def assign(self, target: ast.expr, value: Value, statement: ast.stmt) -> None: ...


class Loops:
    """The loop walker behind ``Statements``."""

    def __init__(self, interp: Interpreter, walker: _Walker, jumps: LoopJumps) -> None:
        self.interp = interp
        self.walker = walker
        self.jumps = jumps
        self._checking = False
        """In a check walk (:meth:`_check_each`): no loop in it is checked that way too, so a
        loop statement costs at most MAX_CHECK_WALKS walks of its body (times the walks of
        the small loops it holds), however the loops nest."""

    def loop(self, node: Loop) -> None:
        endless = False
        general_silent = False
        if isinstance(node, ast.While):
            first = truthiness(self.interp.eval(node.test))
            if isinstance(node.test, ast.Constant):
                endless = first is True  # `while True:` is left by `break` (or `return`) only
            elif first is not None and self._in_order(
                node, lambda start: self._each_iteration(node, first, start)
            ):
                return
        else:
            if isinstance(node.iter, ast.Call):
                iterated_once(node.iter)
            iterable = self.interp.eval(node.iter)
            items = items_of(iterable)
            if items and len(items) <= MAX_ELEMENT_WALKS:
                if not leaves_loop(node.body, self.interp.frame.source.parsed.lines):
                    # walked silently too (a statement whose facts are cached): what the
                    # walk binds must be what a walk that records facts binds
                    if self._labelled():
                        self._loop_each(node, items)
                        return
                elif self._in_order(node, lambda start: self._each_in_order(node, items, start)):
                    return
            elif items and self._checkable(node):
                general_silent = self._check_each(node, items)
            element = iterable.element if isinstance(iterable, Unknown) else None
            self.walker.assign(node.target, element or Unknown("a loop variable"), node)
        env = self.interp.frame.env
        before = env.copy()
        with forked() as changes, self.jumps.loop() as jumps:
            if general_silent:
                with self.interp.silent():
                    self.walker.walk(node.body)
            else:
                self.walker.walk(node.body)
        join_forks([{}, changes])  # the body ran, or it did not
        # the loop's head is reached from before it, from the body's end and from `continue`
        heads = [env.copy(), *jumps.continued]
        env.share(before)
        env.ended = None
        env.join_paths(before, *heads)
        if endless:
            env.ended = "endless"
        self.walker.walk(node.orelse)
        _after_loop(env, jumps.broke)

    def _labelled(self) -> bool:
        """Whether a walk per element may be labelled with its element (facts already made
        in several nested walks are not split further)."""
        return len(self.interp.frame.context) < MAX_CONTEXTS

    def _loop_each(self, node: ast.For | ast.AsyncFor, items: Sequence[Value]) -> None:
        """The body walked for each element, its facts labelled with the element; names it
        binds differently per element become unknown afterwards."""
        start = self.interp.frame.env
        outcomes = [start.copy()]
        for walk, item in self._walks(node, list(enumerate(items)), len(items)):
            frame = self.interp.frame.with_env(
                start.copy(), context=(*self.interp.frame.context, walk)
            )
            with self.interp.enter(frame), self.jumps.loop() as jumps:
                _after_earlier_passes(frame.env, node, walk.index)
                self.walker.assign(node.target, item, node)
                self.walker.walk(node.body)
            outcomes += [frame.env, *jumps.continued]
        start.join_paths(*outcomes)
        self.walker.walk(node.orelse)

    def _checkable(self, node: ast.For | ast.AsyncFor) -> bool:
        """Whether a loop over too many known elements is checked per element: its facts are
        recorded, there is room to label them, no check walk holds it, and every element
        surely reaches the body (else an element after a ``break`` would be checked)."""
        return (
            self.interp.frame.collect
            and not self._checking
            and self._labelled()
            and not leaves_loop(node.body, self.interp.frame.source.parsed.lines)
        )

    def _check_each(self, node: ast.For | ast.AsyncFor, items: Sequence[Value]) -> bool:
        """The body walked once per distinct element (at most MAX_CHECK_WALKS), from the
        loop's start, recording labelled facts; what each walk binds or changes is dropped,
        functions it defines are not queued again. True when every distinct element was
        walked (the general walk then records nothing: a finding that holds for every
        element is found in every walk, and reported as holding for the loop)."""
        distinct = _distinct(items)
        start = self.interp.frame.env
        outer = self.interp.frame.context
        self._checking = True
        try:
            # `total` counts every distinct element: walks that are not all of them are never
            # folded into "holds for the loop"
            for walk, item in self._walks(node, distinct[:MAX_CHECK_WALKS], len(distinct)):
                frame = replace(
                    self.interp.frame.with_env(start.copy(), context=(*outer, walk)), defer=False
                )
                with sealed(), self.interp.enter(frame), self.jumps.loop():
                    _after_earlier_passes(frame.env, node, walk.index)
                    self.walker.assign(node.target, item, node)
                    self.walker.walk(node.body)
        finally:
            self._checking = False
        return len(distinct) <= MAX_CHECK_WALKS

    def _in_order(self, node: Loop, run: Callable[[Env], _Left | None]) -> bool:
        """The loop walked one pass after the other by ``run`` from a copy of the env (see
        the module's docstring); False, with nothing changed, when a pass does not decide
        whether it leaves the loop (or a ``while``'s test is not known after it)."""
        env = self.interp.frame.env
        before = env.copy()
        undo = self.interp.checkpoint()
        with forked() as changes:
            left = run(env)
        if left is None:
            undo()
            env.share(before)
            env.ended, env.opaque = before.ended, before.opaque
            return False
        join_forks([changes])  # the one path walked: what it changed stays
        broke, end = left
        if not broke:
            _assume(env, end)
            self.walker.walk(node.orelse)  # the loop ran out: its `else` runs
        else:
            _assume(env, _joined(broke))
        return True

    def _each_in_order(
        self, node: ast.For | ast.AsyncFor, items: Sequence[Value], start: Env
    ) -> _Left | None:
        """How the loop was left, or None when an element did not decide it."""
        current = start.copy()
        outer = self.interp.frame.context
        for walk, item in self._walks(node, list(enumerate(items)), len(items)):
            # each element is one path, the one Python runs: labelled when there is room
            context = (*outer, walk) if self._labelled() else outer
            frame = self.interp.frame.with_env(current, context=context)
            with self.interp.enter(frame), self.jumps.loop() as jumps:
                self.walker.assign(node.target, item, node)
                self.walker.walk(node.body)
            after = _after_pass(frame.env, jumps)
            if not isinstance(after, Env):
                return after
            current = after
        return [], current

    def _each_iteration(self, node: ast.While, test: bool, start: Env) -> _Left | None:
        """A ``while`` whose test is known, walked as Python runs it (``i = 0; while i <
        len(SUITES): ... SUITES[i] ...; i += 1``), at most MAX_ELEMENT_WALKS passes, each
        from where the one before left off, unlabelled (the one path Python runs); None when
        a pass does not decide whether it leaves, or the test becomes unknown."""
        current = start.copy()
        for _ in range(MAX_ELEMENT_WALKS):
            if not test:
                return [], current  # the test failed: the loop ran out
            frame = self.interp.frame.with_env(current)
            with self.interp.enter(frame), self.jumps.loop() as jumps:
                self.walker.walk(node.body)
            after = _after_pass(frame.env, jumps)
            if not isinstance(after, Env):
                return after
            current = after
            with self.interp.enter(self.interp.frame.with_env(current)):
                known = truthiness(self.interp.eval(node.test))
            if known is None:
                return None
            test = known
        return None  # more passes than are walked: the general way

    def _walks(
        self, node: ast.For | ast.AsyncFor, indexed: Sequence[tuple[int, Value]], total: int
    ) -> list[tuple[Occasion, Value]]:
        """Each (index, element) with the occasion of its walk, one of ``total``."""
        group = Site("loop", node.lineno, node.col_offset)
        return [
            (Occasion(group, index, total, Label.text(element_label(node, index, item))), item)
            for index, item in indexed
        ]


def _after_earlier_passes(env: Env, node: ast.For | ast.AsyncFor, index: int) -> None:
    """An element walked from the loop's start stands for its own pass: past the first, the
    names the body binds may hold what an earlier pass left (``n = n + 1``, ``first =
    False``), so they are unknown, not the values before the loop."""
    if index == 0:
        return
    names = env.names
    for name in _bound_in_body(node):
        names[name] = Unknown("bound by an earlier pass of the loop")


def _bound_in_body(node: ast.For | ast.AsyncFor) -> frozenset[str]:
    """The names the loop's body binds in its own scope (kept on the node)."""
    known: frozenset[str] | None = getattr(node, "_evalsubmit_bound", None)
    if known is None:
        known = frozenset(names_bound_in(list(node.body)))
        node._evalsubmit_bound = known  # type: ignore[union-attr]  # a mark, not an ast field
    return known


def _distinct(items: Sequence[Value]) -> list[tuple[int, Value]]:
    """(index, element) of each element's first occurrence: a known constant written at one
    place is walked once, however often it repeats (``range`` items, a list times 100)."""
    seen: set[object] = set()
    found: list[tuple[int, Value]] = []
    for index, item in enumerate(items):
        key: object = id(item)
        if isinstance(item, Known):
            constant = (type(item.obj), item.obj, item.origin)
            try:
                hash(constant)
                key = constant
            except TypeError:  # an unhashable constant: by identity
                pass
        if key not in seen:
            seen.add(key)
            found.append((index, item))
    return found


def _after_pass(end: Env, jumps: LoopExits) -> Env | _Left | None:
    """After a pass walked in order, ending at ``end``: the path the next pass starts from,
    how the loop was left, or None when the pass may leave the loop or not (undecided)."""
    goes_on = [e for e in (end, *jumps.continued) if e.ended is None]
    left = jumps.broke or end.ended not in (None, "continue")
    if left and goes_on:
        return None
    if jumps.broke:
        return jumps.broke, end
    if not goes_on:  # every path returned or raised: nothing after runs
        return [], end
    return _joined(goes_on)


def _joined(paths: list[Env]) -> Env:
    if len(paths) == 1:
        return paths[0]
    merged = paths[0].copy()
    merged.join_paths(*paths)
    return merged


def _assume(env: Env, path: Env) -> None:
    """``env`` (the object the enclosing block holds) is now at ``path``."""
    env.share(path)
    env.ended, env.opaque = path.ended, path.opaque


def _after_loop(env: Env, broke: list[Env]) -> None:
    """After a loop: reached from its normal end (through ``else``) and from ``break``."""
    if broke:
        ends = [env.copy(), *broke]
        env.ended = None
        env.join_paths(*ends)
