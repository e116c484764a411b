"""Classify a ``target=`` value and derive the ``GymRunnerTarget`` JSON the SDK would send."""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import StrEnum

from evalsubmit.analysis.report import TargetPreview
from evalsubmit.analysis.target.gym_config import ConfigEvaluation, ContentProblem, evaluate_config
from evalsubmit.analysis.target.preview_text import dumps, preview_from, render_markers
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    OneShot,
    Origin,
    Refused,
    SeqValue,
    Unknown,
    Value,
    type_name,
)
from evalsubmit.analysis.values.objects import (
    CallArgs,
    ClassRef,
    ClassValue,
    FunctionValue,
    ModuleValue,
    PartialValue,
)
from evalsubmit.analysis.values.store import unchanged_since
from evalsubmit.core.findings import Span
from evalsubmit.core.records import Record
from evalsubmit.sdk import names as sdk
from evalsubmit.sdk.constraints import CONFIG_FIELDS

RUNNER_METHODS = frozenset({"run_tasks", "runner_info"})
PASSED_CONFIG = "<config passed to GymAgentTaskRunner.__init__>"
"""The attribute under which a runner subclass's own ``__init__`` keeps the ``config=`` it
passed to ``super().__init__`` (:mod:`..interp.sdk_calls`): no Python name, so no read or
write of the user's code can reach it."""


class TargetKind(StrEnum):
    GYM = "gym"
    UNSUBMITTABLE = "unsubmittable"
    RUNNER_CLASS = "runner-class"
    NOT_RUNNER = "not-runner"
    NONE = "none"
    UNKNOWN = "unknown"


class Derivation(Record, hash=False):
    """What a submitted target is, and its preview."""

    __slots__ = (
        "config",
        "config_origin",
        "constructed",
        "content",
        "kind",
        "made_preview",
        "type_name",
        "unvalidated",
    )
    kind: TargetKind
    type_name: str
    made_preview: TargetPreview | Callable[[], TargetPreview] | None
    """The preview, or how to make it on first use (the rules never read it; ``check`` never
    asks for it)."""
    content: list[ContentProblem]
    config: ConfigEvaluation | None
    unvalidated: bool
    """The config was built without validation (``model_construct``, ``model_copy(update=)``):
    its problems surface only when the runner is submitted."""
    constructed: CallArgs | None
    """The config's arguments as its constructor validated them, when they have changed since
    (None: unchanged, or never validated): what differs at submit was set or stored
    afterwards, and the SDK validates it only now."""
    config_origin: Origin | None

    def __init__(
        self,
        kind: TargetKind,
        type_name: str,
        made_preview: TargetPreview | Callable[[], TargetPreview] | None = None,
        content: list[ContentProblem] | None = None,
        config: ConfigEvaluation | None = None,
        unvalidated: bool = False,
        constructed: CallArgs | None = None,
        config_origin: Origin | None = None,
    ) -> None:
        self.kind = kind
        self.type_name = type_name
        self.made_preview = made_preview
        self.content = [] if content is None else content
        self.config = config
        self.unvalidated = unvalidated
        self.constructed = constructed
        self.config_origin = config_origin

    @property
    def preview(self) -> TargetPreview | None:
        made = self.made_preview
        if made is None or isinstance(made, TargetPreview):
            return made
        self.made_preview = made = made()
        return made

    @property
    def is_runner(self) -> bool | None:
        if self.kind is TargetKind.UNKNOWN:
            return None
        return self.kind in {TargetKind.GYM, TargetKind.UNSUBMITTABLE, TargetKind.RUNNER_CLASS}


def sdk_base(ref: ClassRef, depth: int = 0) -> str | None:
    """The SDK runner class a user class derives from, if any."""
    if ref.user is None:
        return ref.qualname if ref.qualname in sdk.RUNNER_CLASSES else None
    if depth > 10:
        return None
    for base in ref.user.bases:
        if isinstance(base, ClassValue):
            found = sdk_base(base.ref, depth + 1)
            if found:
                return found
    return None


def class_attributes(ref: ClassRef, depth: int = 0) -> set[str] | None:
    """Attribute names a class has statically (None when a base is not known)."""
    if ref.user is None:
        if ref.qualname in sdk.RUNNER_CLASSES:
            return set(RUNNER_METHODS)
        if ref.qualname == sdk.AGENT_TASK_RUNNER and depth > 0:
            # the protocol defines both methods: a user class deriving from it inherits them
            # (a value typed by the protocol itself may be any runner, a Gym one too)
            return set(RUNNER_METHODS)
        if ref.qualname in {"builtins.object"}:
            return set()
        return None
    names = set(ref.user.attributes)
    if depth > 10:
        return None
    for base in ref.user.bases:
        if not isinstance(base, ClassValue):
            return None
        inherited = class_attributes(base.ref, depth + 1)
        if inherited is None:
            return None
        names |= inherited
    return names


def defines_constructor(ref: ClassRef, depth: int = 0) -> bool:
    """Whether a user class (or a user base of it) defines ``__init__`` or ``__new__``: then
    it takes the call's arguments itself, and what its base gets is what it passes on."""
    user = ref.user
    if user is None or depth > 10:
        return False
    if "__init__" in user.attributes or "__new__" in user.attributes:
        return True
    return any(
        isinstance(b, ClassValue) and defines_constructor(b.ref, depth + 1) for b in user.bases
    )


def classify(value: Value) -> tuple[TargetKind, str]:
    match value:
        case Known(obj=None):
            return TargetKind.NONE, "NoneType"
        case Instance(ref=ref):
            name = ref.qualname.rsplit(".", 1)[-1]
            if value.maybe_none:
                return TargetKind.UNKNOWN, name
            if sdk_base(ref) == sdk.GYM_RUNNER:
                return TargetKind.GYM, name
            attributes = class_attributes(ref)
            if attributes is not None and attributes >= RUNNER_METHODS:
                return TargetKind.UNSUBMITTABLE, name
            if attributes is not None or ref.qualname in sdk.NON_RUNNER_CLASSES:
                return TargetKind.NOT_RUNNER, name
            if sdk.is_known_sdk_class(ref.qualname):
                return TargetKind.NOT_RUNNER, name
            return TargetKind.UNKNOWN, name
        case ClassValue(ref=ref):
            attributes = class_attributes(ref)
            name = ref.qualname.rsplit(".", 1)[-1]
            if attributes is not None and attributes >= RUNNER_METHODS:
                return TargetKind.RUNNER_CLASS, name
            if attributes is not None or sdk.is_known_sdk_class(ref.qualname):
                return TargetKind.NOT_RUNNER, "type"
            return TargetKind.UNKNOWN, "type"
        case (
            Known()
            | DictValue()
            | SeqValue()
            | FunctionValue()
            | PartialValue()
            | ModuleValue()
            | Refused()
        ):
            return TargetKind.NOT_RUNNER, type_name(value)
        case OneShot():
            return TargetKind.NOT_RUNNER, "generator"
        case Unknown(alternatives=alternatives) if alternatives:
            return _shared_kind(alternatives)
        case Unknown() if (types := value.types()) and types <= _PLAIN_TYPES:
            # `os.environ.get("AGENT", "simple_agent")`: a str, whatever it holds
            return TargetKind.NOT_RUNNER, " | ".join(sorted(types))
    return TargetKind.UNKNOWN, type_name(value)


_PLAIN_TYPES = frozenset(
    {"str", "int", "float", "bool", "bytes", "dict", "list", "tuple", "PosixPath", "UUID"}
)
"""Types whose values are data, never an agent runner."""


def _shared_kind(alternatives: tuple[Value, ...]) -> tuple[TargetKind, str]:
    """What every member of a union is, when that is a failure; otherwise unknown."""
    kinds = [classify(alternative) for alternative in alternatives]
    shared = {kind for kind, _ in kinds}
    names = " | ".join(dict.fromkeys(name for _, name in kinds))
    if len(shared) == 1 and shared <= {TargetKind.UNSUBMITTABLE, TargetKind.NOT_RUNNER}:
        return shared.pop(), names
    return TargetKind.UNKNOWN, names


def derive(value: Value, anchor: Span) -> Derivation:
    kind, name = classify(value)
    if kind is TargetKind.GYM:
        assert isinstance(value, Instance)
        return derive_gym(value, anchor)
    if kind in {TargetKind.UNSUBMITTABLE, TargetKind.RUNNER_CLASS}:
        reason = (
            f"{name} has no target spec: the SDK only submits GymAgentTaskRunner; run it "
            "in-process with AgentEvaluator() instead"
        )
        preview = TargetPreview(
            anchor, name, None, dumps({"error": reason}, indent=None), (reason,)
        )
        return Derivation(kind, name, preview)
    return Derivation(kind, name)


def derive_gym(runner: Instance, anchor: Span) -> Derivation:
    name = runner.ref.qualname.rsplit(".", 1)[-1]
    span = runner.origin.span if runner.origin and runner.origin.path is None else anchor
    config = runner.args.keywords.get("config")
    if defines_constructor(runner.ref):
        # its own __init__ took the call's arguments: the config is what it passed on
        config = (runner.attributes or {}).get(PASSED_CONFIG)

    def marked(kind: str, text: str) -> Derivation:
        """The config shown as ``<error: text>`` (a problem) or ``<unknown: text>``."""
        said = ((text,), ()) if kind == "error" else ((), (text,))
        rendered = render_markers({"config": f"<{kind}: {text}>"})
        return Derivation(TargetKind.GYM, name, TargetPreview(span, name, None, rendered, *said))

    if config is None or not isinstance(config, Instance):
        if isinstance(config, (DictValue, Known, SeqValue)):
            return marked(
                "error",
                f"config must be a GymRuntimeConfig, not a {type_name(config)}: the SDK fails "
                "with AttributeError at submit",
            )
        return marked("unknown", "the runner's config is not statically known")
    if config.ref.qualname != sdk.GYM_CONFIG:
        kind = "unknown" if config.ref.user is not None else "error"
        short = config.ref.qualname.rsplit(".", 1)[-1]
        return marked(kind, f"config is a {short}, not a GymRuntimeConfig")
    # evaluated now, as sent: made of plain objects and of the values found now
    arguments = config.args if config.validated else _as_dumped(config.args)
    evaluation = evaluate_config(arguments, config.origin)
    return Derivation(
        TargetKind.GYM,
        name,
        # from the evaluation's plain objects only: safe to make after the walks' layers are gone
        functools.partial(preview_from, evaluation, span, name),
        list(evaluation.content),
        evaluation,
        unvalidated=not config.validated,
        constructed=_changed_since_construction(config),
        config_origin=config.origin,
    )


def _as_dumped(args: CallArgs) -> CallArgs:
    """The arguments of a config built without validation as the SDK validates them at submit:
    ``GymRunnerTarget(**config.model_dump())``. ``model_construct`` ignores a key that is no field
    of the model and ``model_copy(update=...)`` keeps it outside the dump, so such a key never
    reaches the job, and nothing refuses it."""
    fields = {name: value for name, value in args.keywords.items() if name in CONFIG_FIELDS}
    origins = {name: args.keyword_origins[name] for name in fields if name in args.keyword_origins}
    return CallArgs(list(args.positional), fields, origins, args.star_unknown)


def _changed_since_construction(config: Instance) -> CallArgs | None:
    """The arguments a validated config was constructed with, when it has changed since."""
    constructed = config.constructed
    if not config.validated or constructed is None:
        return None
    return None if unchanged_since(config.args, constructed) else constructed
