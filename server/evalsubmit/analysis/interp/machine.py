"""What the interpreter's collaborators share: where they are, the frame they evaluate in, and
the interface through which they reach each other.

The interpreter is split by concern (frames and the module walk in :mod:`.interpreter`,
statements in :mod:`.statements`, expressions in :mod:`.expressions`, calls in :mod:`.calls`,
imports in :mod:`.imports`, the user's objects in :mod:`.objects`, annotations in
:mod:`.annotated`). Each collaborator holds a :class:`Machine`, the interpreter seen through
this interface, and never another collaborator's internals; a collaborator may own helpers of
its own concern (``Statements`` its ``Definitions``, ``Calls`` its ``SdkCalls``), which hold
the same machine.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from evalsubmit.analysis.interp.facts import ModuleFacts
from evalsubmit.analysis.values.domain import (
    CallArgs,
    ClassValue,
    FunctionValue,
    Instance,
    Origin,
    Value,
)
from evalsubmit.analysis.values.env import Env, ModuleSource
from evalsubmit.core.findings import Walk

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
MAX_CALL_DEPTH = 6
"""Nested evaluations of the user's helpers (a helper calling a helper ...) before giving up."""
MAX_ELEMENT_WALKS = 16
"""A loop body is walked once per element of a known iterable of at most this many."""
MAX_CONTEXTS = 3
"""Walks nested in walks (an element of a loop in a helper called at a call site ...)."""


@dataclass(frozen=True, slots=True)
class CallSite:
    """How a call of the user's function is walked: labelled ``walk`` (recording facts while
    the caller records), and where each parameter's value was written (``passed``: the
    argument at the call, a default in the definition) so findings about it land there."""

    walk: Walk | None = None
    passed: Mapping[str, Origin] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Frame:
    """The evaluation state that changes when the interpreter enters a function body or an
    evaluation whose facts must not be recorded. Replaced, never mutated, so leaving a context
    restores the previous frame exactly."""

    env: Env
    source: ModuleSource
    """The module whose code is being walked (a helper imported from a sibling module is
    walked with its own module's source: spans and origins are in that file)."""
    collect: bool
    """Record facts (submits, constructions) for the rules."""
    defer: bool
    """Queue the bodies of functions defined here, to be walked after the top level."""
    returns: list[Value] | None = None
    """Where ``return`` statements put their values while a call is evaluated."""
    yields: bool = False
    """A fixture generator is being evaluated: its first ``yield`` is its value."""
    depth: int = 0
    active: frozenset[int] = field(default_factory=frozenset)
    """Function definitions being evaluated (by id): no recursion into them."""
    context: tuple[Walk, ...] = ()
    """Why this walk is one of several of the same code (a loop element, a call site): facts
    recorded here carry it, and findings name it."""
    owner: ClassValue | None = None
    """In a method: its class, and ``receiver`` its ``self`` (for ``super()``)."""
    receiver: Value | None = None
    passed: Mapping[str, Origin] = field(default_factory=dict)
    """In a call-site walk: where each parameter's value was written."""

    def with_env(self, env: Env, context: tuple[Walk, ...] | None = None) -> Frame:
        """This frame with another ``env`` (and ``context``): ``dataclasses.replace`` without
        its per-field loop (a frame is replaced at every comprehension, loop element and
        deferred body; a test checks that every field is carried over)."""
        return Frame(
            env,
            self.source,
            self.collect,
            self.defer,
            self.returns,
            self.yields,
            self.depth,
            self.active,
            self.context if context is None else context,
            self.owner,
            self.receiver,
            self.passed,
        )


class _HasFrame(Protocol):
    frame: Frame


class FrameSwitch:
    """``with FrameSwitch(holder, frame)``: ``holder.frame`` is ``frame`` inside, and the frame
    it replaced again on leaving. A class rather than a ``@contextmanager`` generator: frames
    are entered ~4,000 times in a cold analysis of a 5,000-line job (~50,000 in a check of a
    1,000-file tree), and a generator's enter and exit cost several times more."""

    __slots__ = ("_frame", "_holder", "_saved")

    def __init__(self, holder: _HasFrame, frame: Frame) -> None:
        self._holder = holder
        self._frame = frame
        self._saved = frame

    def __enter__(self) -> Frame:
        self._saved = self._holder.frame
        self._holder.frame = self._frame
        return self._frame

    def __exit__(self, *exc_info: object) -> None:
        self._holder.frame = self._saved


class Machine(Protocol):
    """The interpreter as its collaborators see it."""

    @property
    def source(self) -> ModuleSource: ...

    @property
    def home(self) -> Path | None:
        """The module being analysed (a helper's body may be another module's code)."""
        ...

    @property
    def frame(self) -> Frame: ...

    @property
    def facts(self) -> ModuleFacts: ...

    @property
    def module_env(self) -> Env: ...

    @property
    def dependencies(self) -> set[Path]: ...

    def eval(self, node: ast.expr) -> Value: ...

    def call(self, node: ast.Call) -> Value: ...

    def apply(self, function: Value, node: ast.Call, args: CallArgs) -> Value:
        """The value of calling an already evaluated ``function`` with ``args`` at ``node``."""
        ...

    def statement(self, node: ast.stmt) -> None:
        """Walk one statement in the current frame (a class body is walked statement by
        statement)."""
        ...

    def import_names(self, node: ast.Import | ast.ImportFrom) -> None:
        """Bind the names an import statement imports."""
        ...

    def import_value(self, qualname: str) -> Value: ...

    def annotated_value(self, annotation: ast.expr | None) -> Value: ...

    def evaluate_call(
        self, function: FunctionValue, values: dict[str, Value], *, site: CallSite | None = None
    ) -> Value: ...

    def declared_return(self, function: FunctionValue) -> Value: ...

    def walk_body(
        self, function: FunctionValue, values: dict[str, Value], *, site: CallSite | None = None
    ) -> Env:
        """Walk a function body with ``values`` bound (recording facts only with a site's
        walk, as ``evaluate_call``); the environment it ends with. Unlike a call, its
        attribute writes stay in that environment (a constructor's are the object's state)."""
        ...

    def failed(self, node: ast.stmt, error: Exception) -> None:
        """A statement the interpreter could not walk (an engine bug): what it binds becomes
        unknown and the error is reported; the rest of the module is walked."""
        ...

    def checkpoint(self) -> Callable[[], None]:
        """What the walk has recorded so far (facts, deferred bodies, errors, the frame's
        returns): the function returned takes back everything recorded after it (a walk that
        is abandoned and done another way)."""
        ...

    def construct(self, instance: Instance, args: CallArgs, node: ast.Call) -> None:
        """Run the constructor of a user-class instance built at ``node`` with ``args``."""
        ...

    def generic_instance(self, cls: ClassValue) -> Instance:
        """An instance of a user class whoever built it (what construction surely stores)."""
        ...

    def fixture_value(self, fixture: FunctionValue, values: dict[str, Value]) -> Value:
        """What a pytest fixture provides: its return value, or what it first yields."""
        ...

    def user_attribute(self, base: Instance, name: str) -> Value | None:
        """``base.name`` for an instance of a user class, or None when not known."""
        ...

    def defer(self, function: FunctionNode, parent: Env, cls: ClassValue | None) -> None:
        """Queue a function body (a method's with its class) to be walked after the top level,
        in ``parent``'s scope, with the top-level statement being walked (its cache group)."""
        ...

    def enter(self, frame: Frame) -> AbstractContextManager[Frame]:
        """Evaluate in ``frame`` (a copy of the current one with some fields replaced); the
        current frame is restored on leaving."""
        ...

    def scope(self, env: Env) -> AbstractContextManager[Frame]:
        """Evaluate with ``env`` as the local names (a comprehension, a function body)."""
        ...

    def silent(self) -> AbstractContextManager[Frame]:
        """Evaluate without recording facts (a receiver, an annotation, a helper's result)."""
        ...
