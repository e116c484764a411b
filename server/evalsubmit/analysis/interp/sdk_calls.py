"""Calls into the SDK: the constructions and ``submit()`` sites the rules check.

A construction of ``GymRuntimeConfig``, a runner or a ``TaskSetRef`` (also through
``model_validate`` and a user class deriving from ``GymAgentTaskRunner``) is recorded as a
:class:`.facts.ConstructionFact`; a call of ``<evaluator>.submit`` as a :class:`.facts.SubmitFact`
with its target derived. Facts are recorded only while the frame collects them (never in a
helper evaluated for its value). The pydantic methods a config is used through
(``model_dump``, ``model_copy``) are modelled here too. :mod:`.calls` decides which call is which;
this module knows what each means to the SDK.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.attributes import config_field
from evalsubmit.analysis.interp.binding import splat_into
from evalsubmit.analysis.interp.class_lookup import user_mro
from evalsubmit.analysis.interp.facts import (
    ConstructionFact,
    ConstructionKind,
    ModuleFacts,
    SubmitFact,
)
from evalsubmit.analysis.target.derive import PASSED_CONFIG, defines_constructor, derive, sdk_base
from evalsubmit.analysis.values.dict_entries import named_entries
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    Origin,
    Unknown,
    Value,
    typed_instance,
)
from evalsubmit.analysis.values.objects import CallArgs, ClassRef, ClassValue, FunctionValue
from evalsubmit.analysis.values.store import kept, kept_value
from evalsubmit.core.findings import Span
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


_CONSTRUCTION_KINDS = {
    sdk.GYM_CONFIG: ConstructionKind.GYM_CONFIG,
    sdk.GYM_RUNNER: ConstructionKind.GYM_RUNNER,
    sdk.TASKSET_REF: ConstructionKind.TASKSET_REF,
}
_DICT_FIELDS = ("hydra_params", "env_vars")
_RUNNER_KINDS = frozenset({ConstructionKind.GYM_RUNNER, ConstructionKind.RUNNER})
_CLIENTS = frozenset(
    {
        sdk.PLATFORM_CLIENT,
        sdk.ASYNC_PLATFORM_CLIENT,
        sdk.EVALUATOR_CLIENT,
        sdk.ASYNC_EVALUATOR_CLIENT,
    }
)


class SdkCalls:
    """The SDK side of call evaluation, reached from :class:`.calls.Calls`."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp

    @property
    def collect(self) -> bool:
        return self.interp.frame.collect

    @property
    def facts(self) -> ModuleFacts:
        return self.interp.facts

    def submit(
        self, node: ast.Call, receiver: Instance, args: CallArgs, spans: dict[str, Span]
    ) -> Value:
        """A ``submit()`` call: recorded with its target derived; its value is the job."""
        if self.collect:
            fact = SubmitFact(
                node=node,
                span=self.interp.span(node),
                name_span=self._name_span(node),
                is_async=receiver.ref.qualname == sdk.ASYNC_EVALUATOR,
                evaluator=receiver,
                args=args,
                keyword_spans=spans,
                keyword_value_spans={
                    k.arg: self.interp.span(k.value) for k in node.keywords if k.arg
                },
                path=self.interp.frame.source.path,
                home=self.interp.home,
                context=self.interp.frame.context,
            )
            target = args.keywords.get("target")
            if target is not None:
                fact.derivation = derive(target, fact.target_value_span())
            self.facts.submits.append(fact)
        return Unknown("a job resource")

    def _name_span(self, node: ast.Call) -> Span:
        """The called name: ``submit`` in ``client.evaluator.submit(...)``, the whole callee
        otherwise (an alias ``send(...)``, a partial ``run(...)``)."""
        func = self.interp.span(node.func)
        if isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            return Span(func.end_line, func.end_col - len(attr), func.end_line, func.end_col)
        return func

    def construct(
        self, qualname: str, node: ast.Call, args: CallArgs, spans: dict[str, Span], origin: Origin
    ) -> Instance:
        """An SDK class called by name: its instance, recorded when the rules check it (and a
        platform client's literal ``workspace``)."""
        instance = (
            validated_config(args, origin)
            if qualname == sdk.GYM_CONFIG
            else Instance(ClassRef(qualname), args, origin)
        )
        workspace = args.keywords.get("workspace")
        if (
            self.collect
            and qualname in _CLIENTS
            and isinstance(workspace, Known)
            and isinstance(workspace.obj, str)
        ):
            self.facts.workspaces.append(workspace.obj)
        self.record_construction(qualname, node, args, spans, instance)
        return instance

    def config_from_dict(self, node: ast.Call, args: CallArgs, origin: Origin) -> Value:
        """``GymRuntimeConfig.model_validate(obj)``: a config with the dict's entries as its
        arguments, recorded as built from a dict."""
        source = args.positional[0] if args.positional else args.keywords.get("obj")
        config_args = CallArgs()
        if isinstance(source, DictValue):
            splat_into(config_args, source)
        else:
            config_args.star_unknown = True
        instance = validated_config(config_args, origin)
        if self.collect:
            self._record(ConstructionKind.GYM_CONFIG, node, config_args, instance, via_dict=True)
        return instance

    def record_construction(
        self,
        qualname: str,
        node: ast.Call,
        args: CallArgs,
        spans: dict[str, Span],
        instance: Instance,
    ) -> None:
        """A construction of an SDK class the rules check (a config, a runner, a taskset
        reference), recorded while facts are."""
        kind = _CONSTRUCTION_KINDS.get(qualname)
        if kind is None and qualname in sdk.RUNNER_CLASSES:
            kind = ConstructionKind.RUNNER
        if kind is None or not self.collect:
            return
        via_dict = any(k.arg is None for k in node.keywords)
        positional = [self.interp.span(a) for a in node.args]
        self._record(kind, node, args, instance, spans, positional, via_dict=via_dict)

    def record_user_class(
        self,
        ref: ClassRef,
        node: ast.Call,
        args: CallArgs,
        spans: dict[str, Span],
        instance: Instance,
    ) -> None:
        """An instance of a user class built at ``node``: recorded as a runner construction when
        the class derives from ``GymAgentTaskRunner`` and the call's arguments are what its
        constructor gets. A class of the user's that defines ``__init__`` (or ``__new__``)
        takes the arguments itself: what it passes on is not the call's."""
        base = sdk_base(ref)
        if base != sdk.GYM_RUNNER or not self.collect or ref.user is None:
            return
        if defines_constructor(ref):
            return
        self._record(ConstructionKind.GYM_RUNNER, node, args, instance, spans)

    def init_runner(
        self, node: ast.Call, runner: Instance, args: CallArgs, spans: dict[str, Span]
    ) -> Value:
        """``super().__init__(config=...)`` in a runner subclass's own ``__init__``: the SDK's
        constructor, checked as ``GymAgentTaskRunner(config=...)`` written here; the config is
        kept on the runner for its target (:data:`.derive.PASSED_CONFIG`)."""
        built = Instance(ClassRef(sdk.GYM_RUNNER), args, self.interp.origin(node))
        self.record_construction(sdk.GYM_RUNNER, node, args, spans, built)
        config = args.keywords.get("config")
        if config is None or args.positional or args.star_unknown:
            config = Unknown("the config of a runner subclass")
        self.interp.write_attribute(runner, PASSED_CONFIG, config)
        return Known(None)

    def _record(
        self,
        kind: ConstructionKind,
        node: ast.Call,
        args: CallArgs,
        instance: Instance,
        spans: dict[str, Span] | None = None,
        positional: list[Span] | None = None,
        *,
        via_dict: bool = False,
    ) -> None:
        """The construction at ``node``, recorded where this walk is (a config with the
        arguments its constructor validated, whatever is stored into it later)."""
        if instance.constructed is not None:
            args = instance.constructed
        frame = self.interp.frame
        self.facts.constructions.append(
            ConstructionFact(
                kind,
                node,
                self.interp.span(node),
                args,
                instance,
                {} if spans is None else spans,
                [] if positional is None else positional,
                via_dict=via_dict,
                path=frame.source.path,
                home=self.interp.home,
                context=frame.context,
                built=kept_value(instance) if kind in _RUNNER_KINDS else None,
            )
        )

    def pydantic_method(
        self, model: Instance, method: str | None, args: CallArgs, origin: Origin
    ) -> Value:
        """``cfg.model_dump()`` is the config as a dict; ``cfg.model_copy(update={...})`` a copy
        with the update applied, not validated (pydantic does not validate updates)."""
        if model.ref.qualname != sdk.GYM_CONFIG or model.args.star_unknown:
            return Unknown(f"the result of {method}()")
        if method == "model_dump" and not args.positional and not args.keywords:
            return DictValue(named_entries(model.args.keywords, model.args.keyword_origins), origin)
        if method == "model_copy":
            for name in _DICT_FIELDS:  # a shallow copy: both hold the same dicts, defaults too
                config_field(model, name)
            update = args.keywords.get("update")
            copied = CallArgs(
                [], dict(model.args.keywords), dict(model.args.keyword_origins), False
            )
            if isinstance(update, DictValue):
                splat_into(copied, update)
            elif update is not None:
                copied.star_unknown = True
            validated = model.validated and update is None
            return Instance(
                ClassRef(sdk.GYM_CONFIG),
                copied,
                origin,
                validated=validated,
                constructed=model.constructed if validated else None,
            )
        return Unknown(f"the result of {method}()")


_RUNNER_INIT = f"bound method {sdk.GYM_RUNNER}.__init__"


def runner_init(owner: ClassValue, receiver: Value) -> FunctionValue | None:
    """``super().__init__`` in a method of ``owner`` when it is ``GymAgentTaskRunner``'s (no
    class of the user's after ``owner`` defines one, and every other base is ``object``),
    bound to the runner being built; else None."""
    user = owner.ref.user
    if user is None or not isinstance(receiver, Instance):
        return None
    found = False
    for cls in user_mro(user):
        for base in cls.bases:
            if not isinstance(base, ClassValue):
                return None
            if base.ref.user is None:
                if base.ref.qualname not in {sdk.GYM_RUNNER, "builtins.object"}:
                    return None
                found = found or base.ref.qualname == sdk.GYM_RUNNER
    if not found:
        return None
    return FunctionValue(_RUNNER_INIT, None, None, bound_self=receiver)


def is_runner_init(function: FunctionValue) -> bool:
    return function.name == _RUNNER_INIT and isinstance(function.bound_self, Instance)


def validated_config(args: CallArgs, origin: Origin) -> Instance:
    """A ``GymRuntimeConfig`` its constructor validated. Validation copies a dict passed as
    ``hydra_params`` or ``env_vars`` into a plain dict (what it holds is shared): a store into
    the caller's dict afterwards does not reach the config."""
    for name in _DICT_FIELDS:
        value = args.keywords.get(name)
        if isinstance(value, DictValue):
            args.keywords[name] = DictValue(value.entries, value.origin, value.complete)
    return Instance(ClassRef(sdk.GYM_CONFIG), args, origin, constructed=kept(args))


def evaluator_from_sdk(qualname: str, args: CallArgs, origin: Origin) -> Instance:
    """``Evaluator.from_sdk(client)``: the evaluator of that client."""
    client = args.positional[0] if args.positional else args.keywords.get("client")
    evaluator = qualname.rsplit(".", 1)[0]
    return Instance(ClassRef(evaluator), CallArgs(keywords={"client": client or Unknown()}), origin)


def built_without_constructor(qualname: str, args: CallArgs, origin: Origin) -> Value | None:
    """``Cls.__new__(Cls)`` and ``GymRuntimeConfig.model_construct(...)``: instances built
    without their constructor (the latter unvalidated until it is submitted)."""
    owner, _, method = qualname.rpartition(".")
    if method == "__new__" and sdk.is_sdk_name(owner):
        return typed_instance(ClassRef(owner))
    if method == "model_construct" and owner == sdk.GYM_CONFIG:
        return Instance(ClassRef(owner), args, origin, validated=False)
    return None


_EVALUATORS = frozenset({sdk.EVALUATOR, sdk.ASYNC_EVALUATOR})


def is_submit(function: FunctionValue) -> bool:
    """``<evaluator>.submit``, however it is reached (``client.evaluator.submit``, an alias)."""
    receiver = function.bound_self
    return (
        isinstance(receiver, Instance)
        and receiver.ref.qualname in _EVALUATORS
        and function.name == f"bound method {receiver.ref.qualname}.submit"
    )


def model_method(name: str) -> str | None:
    """``model_dump`` / ``model_copy`` from a bound-method name, else None."""
    method = name.rsplit(".", 1)[-1]
    return method if method in {"model_dump", "model_copy"} else None
