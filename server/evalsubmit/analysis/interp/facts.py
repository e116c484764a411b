"""What the interpreter observes while walking a module; the rules read only these."""

from __future__ import annotations

import ast
from enum import StrEnum
from pathlib import Path

from evalsubmit.analysis.report import Question
from evalsubmit.analysis.values.domain import Instance, Known, Unknown, Value
from evalsubmit.analysis.values.objects import CallArgs
from evalsubmit.core.findings import Occasion, Span
from evalsubmit.core.records import Record


class ConstructionKind(StrEnum):
    TASKSET_REF = "taskset_ref"
    GYM_CONFIG = "gym_config"
    GYM_RUNNER = "gym_runner"
    RUNNER = "runner"
    """Any other runner construction (Harbor, callable, a user runner class)."""


def _argument_span(
    name: str,
    explicit: dict[str, Span],
    args: CallArgs,
    path: Path | None,
    home: Path | None,
    fallback: Span,
) -> Span:
    """Where an argument was written: the place in the analysed module it came from (a call
    site passing it to a helper, a ``**{"name": v}`` entry, a ``partial``'s keyword), else its
    ``name=`` keyword in the call, else ``fallback``."""
    origin = args.keyword_origins.get(name)
    if origin is not None and origin.path == home:
        return origin.span
    if name in explicit:
        return explicit[name]
    if origin is not None and origin.path == path:
        return origin.span
    return fallback


class ConstructionFact(Record, eq=False):
    """A construction of an SDK object (a runner, a config, a metric...)."""

    __slots__ = (
        "args",
        "built",
        "context",
        "home",
        "keyword_spans",
        "kind",
        "node",
        "path",
        "positional_spans",
        "span",
        "value",
        "via_dict",
    )
    kind: ConstructionKind
    node: ast.Call
    span: Span
    args: CallArgs
    value: Value
    keyword_spans: dict[str, Span]
    """Span of each ``name=value`` keyword written in the call itself."""
    positional_spans: list[Span]
    via_dict: bool
    """Built from a dict (``model_validate({...})`` / ``**settings``): entries carry origins."""
    path: Path | None
    """The module of the call."""
    home: Path | None
    """The module being analysed (not ``path`` when a helper of a sibling module is walked
    for a call made here: only what this module wrote can be reported then)."""
    context: tuple[Occasion, ...]
    """Where this walk came from when it is one of several (a loop element, a call site)."""
    built: Value | None
    """A runner as it was built, out of reach of later changes to its config (its preview)."""

    def __init__(
        self,
        kind: ConstructionKind,
        node: ast.Call,
        span: Span,
        args: CallArgs,
        value: Value,
        keyword_spans: dict[str, Span] | None = None,
        positional_spans: list[Span] | None = None,
        via_dict: bool = False,
        path: Path | None = None,
        home: Path | None = None,
        context: tuple[Occasion, ...] = (),
        built: Value | None = None,
    ) -> None:
        self.kind = kind
        self.node = node
        self.span = span
        self.args = args
        self.value = value
        self.keyword_spans = {} if keyword_spans is None else keyword_spans
        self.positional_spans = [] if positional_spans is None else positional_spans
        self.via_dict = via_dict
        self.path = path
        self.home = home
        self.context = context
        self.built = built

    def argument_span(self, name: str) -> Span:
        return _argument_span(name, self.keyword_spans, self.args, self.path, self.home, self.span)


class SubmitFact(Record, eq=False):
    """A ``submit()`` call of the evaluator."""

    __slots__ = (
        "args",
        "context",
        "derivation",
        "evaluator",
        "home",
        "is_async",
        "keyword_spans",
        "keyword_value_spans",
        "name_span",
        "node",
        "path",
        "span",
    )
    node: ast.Call
    span: Span
    name_span: Span
    is_async: bool
    evaluator: Instance
    args: CallArgs
    keyword_spans: dict[str, Span]
    """Span of each ``name=value`` keyword written in the call itself (not ``**`` entries)."""
    keyword_value_spans: dict[str, Span]
    derivation: object | None
    """The ``Derivation`` of the target (:mod:`evalsubmit.analysis.target.derive`), taken at this
    point in the flow (dicts can be mutated later, so it is computed when the call is reached)."""
    path: Path | None
    """The module of the call."""
    home: Path | None
    """The module being analysed (see ``ConstructionFact.home``)."""
    context: tuple[Occasion, ...]
    """Where this walk came from when it is one of several (a loop element, a call site)."""

    def __init__(
        self,
        node: ast.Call,
        span: Span,
        name_span: Span,
        is_async: bool,
        evaluator: Instance,
        args: CallArgs,
        keyword_spans: dict[str, Span] | None = None,
        keyword_value_spans: dict[str, Span] | None = None,
        derivation: object | None = None,
        path: Path | None = None,
        home: Path | None = None,
        context: tuple[Occasion, ...] = (),
    ) -> None:
        self.node = node
        self.span = span
        self.name_span = name_span
        self.is_async = is_async
        self.evaluator = evaluator
        self.args = args
        self.keyword_spans = {} if keyword_spans is None else keyword_spans
        self.keyword_value_spans = {} if keyword_value_spans is None else keyword_value_spans
        self.derivation = derivation
        self.path = path
        self.home = home
        self.context = context

    def argument_span(self, name: str) -> Span:
        """Where argument ``name`` was written (the submit name when not in this module)."""
        return _argument_span(
            name, self.keyword_spans, self.args, self.path, self.home, self.name_span
        )

    def target_value_span(self) -> Span:
        """The span of the ``target=`` value, for previews and derivations."""
        if "target" in self.keyword_value_spans:
            return self.keyword_value_spans["target"]
        return self.argument_span("target")

    def supplied(self, name: str) -> bool | None:
        """True/False when known, ``None`` when it may or may not be supplied."""
        value = self.args.keywords.get(name)
        if value is None:
            return None if self.args.star_unknown else False
        if isinstance(value, Known):
            return value.obj is not None
        if isinstance(value, Unknown):
            types = value.types()
            return None if types is None or "None" in types or "NoneType" in types else True
        if isinstance(value, Instance) and value.maybe_none:
            return None
        return True

    def value(self, name: str) -> Value | None:
        return self.args.keywords.get(name)


class ModuleFacts(Record, hash=False):
    """What the interpreter recorded for the rules."""

    __slots__ = ("constructions", "runner_bindings", "submits", "workspaces")
    submits: list[SubmitFact]
    constructions: list[ConstructionFact]
    runner_bindings: list[tuple[Span, Value, Value]]
    """Names bound to a runner (``runner = GymAgentTaskRunner(...)``): the name's span, the
    runner, and the runner as it was then (its preview)."""
    workspaces: list[str]
    """``workspace=`` literals of platform clients constructed here (submit or not)."""

    def __init__(
        self,
        submits: list[SubmitFact] | None = None,
        constructions: list[ConstructionFact] | None = None,
        runner_bindings: list[tuple[Span, Value, Value]] | None = None,
        workspaces: list[str] | None = None,
    ) -> None:
        self.submits = [] if submits is None else submits
        self.constructions = [] if constructions is None else constructions
        self.runner_bindings = [] if runner_bindings is None else runner_bindings
        self.workspaces = [] if workspaces is None else workspaces


class FactGroup(Record, hash=False):
    """Facts of one top-level definition's function bodies (``key`` is its cache key), or of
    the module's top level (``key`` None). ``facts`` is None when the cached results stand."""

    __slots__ = ("dependencies", "errors", "facts", "key", "owner", "part", "questions")
    key: str | None
    facts: ModuleFacts | None
    owner: int
    """The top-level statement it belongs to (by index)."""
    part: str
    """``top``: that statement's own facts; ``bodies``: those of the function bodies it
    defines."""
    dependencies: frozenset[Path]
    """Sibling modules read while walking it (when walked)."""
    errors: tuple[str, ...]
    """Statements the interpreter failed on while walking it (when walked)."""
    questions: frozenset[Question]
    """What its walk asked of files it need not read (module stores, subclasses elsewhere)."""

    def __init__(
        self,
        key: str | None,
        facts: ModuleFacts | None,
        owner: int = -1,
        part: str = "top",
        dependencies: frozenset[Path] = frozenset(),
        errors: tuple[str, ...] = (),
        questions: frozenset[Question] = frozenset(),
    ) -> None:
        self.key = key
        self.facts = facts
        self.owner = owner
        self.part = part
        self.dependencies = dependencies
        self.errors = errors
        self.questions = questions

    def recorded(
        self,
        dependencies: frozenset[Path],
        errors: tuple[str, ...],
        questions: frozenset[Question] = frozenset(),
    ) -> FactGroup:
        """This group, just made, with what its walk read, asked and met (set in place:
        cheaper than a copy, once per top-level statement and per definition's bodies)."""
        self.dependencies = dependencies
        self.errors = errors
        self.questions = questions
        return self
