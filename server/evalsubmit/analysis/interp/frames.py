"""The frame the interpreter evaluates in, how a walk enters and leaves one, and the bounds of
the walk.

Kept apart from :mod:`.interpreter` because every part of the interpreter reads them, while
only the :class:`~.interpreter.Interpreter` changes frames.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import field
from typing import Final, Protocol

from evalsubmit.analysis.values.domain import Origin, Value
from evalsubmit.analysis.values.env import Env, ModuleSource
from evalsubmit.analysis.values.objects import ClassValue
from evalsubmit.core.findings import Occasion
from evalsubmit.core.records import Record, record

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
MAX_CALL_DEPTH = 6
"""Nested evaluations of the user's helpers (a helper calling a helper ...) before giving up."""
MAX_ELEMENT_WALKS = 16
"""A loop body is walked once per element of a known iterable of at most this many."""
MAX_CHECK_WALKS = 256
"""Beyond :data:`MAX_ELEMENT_WALKS`, the distinct elements a loop body is still checked with
(one walk each, whose bindings are dropped), at most this many; never in such a walk."""
MAX_CONTEXTS = 3
"""Walks nested in walks (an element of a loop in a helper called at a call site ...)."""


class CallSite(Record):
    """How a call of the user's function is walked: labelled ``walk`` (recording facts while
    the caller records), and where each parameter's value was written (``passed``: the
    argument at the call, a default in the definition) so findings about it land there."""

    __slots__ = ("passed", "walk")
    walk: Final[Occasion | None]
    passed: Final[Mapping[str, Origin]]

    def __init__(
        self, walk: Occasion | None = None, passed: Mapping[str, Origin] | None = None
    ) -> None:
        self.walk = walk
        self.passed = {} if passed is None else passed


@record
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
    context: tuple[Occasion, ...] = ()
    """Why this walk is one of several of the same code (a loop element, a call site): facts
    recorded here carry it, and findings name it."""
    owner: ClassValue | None = None
    """In a method: its class, and ``receiver`` its ``self`` (for ``super()``)."""
    receiver: Value | None = None
    passed: Mapping[str, Origin] = field(default_factory=dict)
    """In a call-site walk: where each parameter's value was written."""

    def with_env(self, env: Env, context: tuple[Occasion, ...] | None = None) -> Frame:
        """This frame with another ``env`` (and ``context``): at every comprehension, loop
        element and deferred body."""
        context = self.context if context is None else context
        return self._with(env, self.collect, context, self.owner, self.receiver)

    def silenced(self) -> Frame:
        """This frame, its facts not recorded: at every silent evaluation."""
        return self._with(self.env, False, self.context, self.owner, self.receiver)

    def for_body(
        self,
        env: Env,
        owner: ClassValue | None,
        receiver: Value | None,
        context: tuple[Occasion, ...],
    ) -> Frame:
        """This frame for a deferred body: another ``env``, class, ``self`` and ``context``."""
        return self._with(env, self.collect, context, owner, receiver)

    def _with(
        self,
        env: Env,
        collect: bool,
        context: tuple[Occasion, ...],
        owner: ClassValue | None,
        receiver: Value | None,
    ) -> Frame:
        """``dataclasses.replace`` of these five fields without its per-field loop (frames are
        made thousands of times per analysis; a test checks every other field is carried
        over)."""
        return Frame(
            env,
            self.source,
            collect,
            self.defer,
            self.returns,
            self.yields,
            self.depth,
            self.active,
            context,
            owner,
            receiver,
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
