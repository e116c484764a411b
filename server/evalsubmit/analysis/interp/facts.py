"""What the interpreter observes while walking a module; the rules read only these."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from enum import StrEnum

from evalsubmit.analysis.values.domain import CallArgs, Instance, Known, Unknown, Value
from evalsubmit.core.findings import Span


class ConstructionKind(StrEnum):
    TASKSET_REF = "taskset_ref"
    GYM_CONFIG = "gym_config"
    GYM_RUNNER = "gym_runner"
    RUNNER = "runner"
    """Any other runner construction (Harbor, callable, a user runner class)."""


@dataclass(eq=False, slots=True)
class ConstructionFact:
    kind: ConstructionKind
    node: ast.Call
    span: Span
    args: CallArgs
    value: Value
    keyword_spans: dict[str, Span] = field(default_factory=dict)
    """Span of each ``name=value`` keyword of the call."""
    positional_spans: list[Span] = field(default_factory=list)
    via_dict: bool = False
    """Built from a dict (``model_validate({...})`` / ``**settings``): entries carry origins."""


@dataclass(eq=False, slots=True)
class SubmitFact:
    node: ast.Call
    span: Span
    name_span: Span
    is_async: bool
    evaluator: Instance
    args: CallArgs
    keyword_spans: dict[str, Span] = field(default_factory=dict)
    keyword_value_spans: dict[str, Span] = field(default_factory=dict)
    derivation: object | None = None
    """The ``Derivation`` of the target (:mod:`evalsubmit.analysis.target.derive`), taken at this
    point in the flow (dicts can be mutated later, so it is computed when the call is reached)."""

    def supplied(self, name: str) -> bool | None:
        """True/False when known, ``None`` when it may or may not be supplied."""
        value = self.args.keywords.get(name)
        if value is None:
            return None if self.args.star_unknown else False
        if isinstance(value, Known):
            return value.obj is not None
        if isinstance(value, Unknown):
            return None if value.type_name in (None, "NoneType|str") else True
        return True

    def value(self, name: str) -> Value | None:
        return self.args.keywords.get(name)


@dataclass(slots=True)
class ModuleFacts:
    submits: list[SubmitFact] = field(default_factory=list)
    constructions: list[ConstructionFact] = field(default_factory=list)
    runner_bindings: list[tuple[Span, Value]] = field(default_factory=list)
    workspaces: list[str] = field(default_factory=list)
    """``workspace=`` literals of platform clients constructed here (submit or not)."""
    """Names bound to a runner (``runner = GymAgentTaskRunner(...)``: the name's span)."""


@dataclass(slots=True)
class FactGroup:
    """Facts of one top-level definition's function bodies (``key`` is its cache key), or of
    the module's top level (``key`` None). ``facts`` is None when the cached results stand."""

    key: str | None
    facts: ModuleFacts | None
