"""Call evaluation: SDK constructors, submit() sites, stdlib models and the user's helpers.

A helper of the user's is evaluated by walking its body with the call's arguments bound
(silently, in the context of the module that defines it); ``MAX_CALL_DEPTH`` and a guard
against recursion bound the work."""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.facts import (
    ConstructionFact,
    ConstructionKind,
    ModuleFacts,
    SubmitFact,
)
from evalsubmit.analysis.interp.machine import MAX_CALL_DEPTH, Machine
from evalsubmit.analysis.models import stdlib
from evalsubmit.analysis.models.classes import build_instance, namedtuple_instance, str_method
from evalsubmit.analysis.target.derive import derive, sdk_base
from evalsubmit.analysis.values.domain import (
    CallArgs,
    ClassRef,
    ClassValue,
    DictValue,
    FunctionValue,
    Instance,
    Known,
    OneShot,
    Origin,
    Refused,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.core.findings import Span
from evalsubmit.sdk import names as sdk

_CONSTRUCTION_KINDS = {
    sdk.GYM_CONFIG: ConstructionKind.GYM_CONFIG,
    sdk.GYM_RUNNER: ConstructionKind.GYM_RUNNER,
    sdk.TASKSET_REF: ConstructionKind.TASKSET_REF,
}
_CLIENTS = frozenset(
    {
        sdk.PLATFORM_CLIENT,
        sdk.ASYNC_PLATFORM_CLIENT,
        sdk.EVALUATOR_CLIENT,
        sdk.ASYNC_EVALUATOR_CLIENT,
    }
)
_DICT_VIEWS = {
    "keys": "a dict.keys() view",
    "values": "a dict.values() view",
    "items": "a dict.items() view",
}


class Calls:
    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.source = machine.source

    def eval(self, node: ast.expr) -> Value:
        return self.machine.eval(node)

    def origin(self, node: ast.AST) -> Origin:
        return self.source.origin(node)

    def span(self, node: ast.AST) -> Span:
        return self.source.span(node)

    @property
    def collect(self) -> bool:
        return self.machine.frame.collect

    @property
    def facts(self) -> ModuleFacts:
        return self.machine.facts

    def call(self, node: ast.Call) -> Value:
        function = self.eval(node.func)
        args, keyword_spans = self.call_args(node)
        origin = self.origin(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "submit":
            receiver = self._receiver(node.func)
            if isinstance(receiver, Instance) and receiver.ref.qualname in {
                sdk.EVALUATOR,
                sdk.ASYNC_EVALUATOR,
            }:
                return self.submit_call(node, receiver, args, keyword_spans)
        match function:
            case ClassValue(ref=ClassRef(user=None, qualname=qualname)):
                return self.call_named(qualname, node, args, keyword_spans, origin)
            case ClassValue(ref=ref):
                return self.instantiate_user_class(ref, node, args, keyword_spans, origin)
            case FunctionValue(bound_self=DictValue() as base, name=name):
                return self.dict_method(base, name, args, origin)
            case FunctionValue(bound_self=Known()):
                return str_method(function, args, origin)
            case FunctionValue(node=ast.FunctionDef() | ast.AsyncFunctionDef() as definition):
                return self.call_function(function, definition, args)
        return Unknown("the result of a call")

    def _receiver(self, func: ast.Attribute) -> Value:
        with self.machine.silent():
            return self.eval(func.value)

    def call_args(self, node: ast.Call) -> tuple[CallArgs, dict[str, Span]]:
        args = CallArgs()
        spans: dict[str, Span] = {}
        for argument in node.args:
            value = self.eval(argument)
            if isinstance(argument, ast.Starred):
                if isinstance(value, SeqValue):
                    args.positional.extend(value.items)
                else:
                    args.star_unknown = True
                continue
            args.positional.append(value)
        for keyword in node.keywords:
            value = self.eval(keyword.value)
            if keyword.arg is None:
                self._splat(args, value)
                continue
            args.keywords[keyword.arg] = value
            span = self.span(keyword)
            spans[keyword.arg] = span
            args.keyword_origins[keyword.arg] = Origin(self.source.path, span)
        return args, spans

    def _splat(self, args: CallArgs, value: Value) -> None:
        if not isinstance(value, DictValue):
            args.star_unknown = True
            return
        for entry in value.entries:
            if isinstance(entry.key, Known) and isinstance(entry.key.obj, str):
                args.keywords[entry.key.obj] = entry.value
                if entry.origin is not None:
                    args.keyword_origins[entry.key.obj] = entry.origin
            else:
                args.star_unknown = True
        if not value.complete:
            args.star_unknown = True

    def submit_call(
        self, node: ast.Call, receiver: Instance, args: CallArgs, spans: dict[str, Span]
    ) -> Value:
        if self.collect:
            assert isinstance(node.func, ast.Attribute)
            end = self.span(node.func)
            name_span = Span(end.end_line, end.end_col - len("submit"), end.end_line, end.end_col)
            fact = SubmitFact(
                node=node,
                span=self.span(node),
                name_span=name_span,
                is_async=receiver.ref.qualname == sdk.ASYNC_EVALUATOR,
                evaluator=receiver,
                args=args,
                keyword_spans=spans,
                keyword_value_spans={k.arg: self.span(k.value) for k in node.keywords if k.arg},
            )
            target = args.keywords.get("target")
            if target is not None:
                anchor = fact.keyword_value_spans["target"]
                fact.derivation = derive(target, anchor, self.source.path)
            self.facts.submits.append(fact)
        return Unknown("a job resource")

    def call_named(
        self, qualname: str, node: ast.Call, args: CallArgs, spans: dict[str, Span], origin: Origin
    ) -> Value:
        if qualname in {f"{sdk.GYM_CONFIG}.model_validate", f"{sdk.TASKSET_REF}.model_validate"}:
            base = qualname.rsplit(".", 1)[0]
            if base == sdk.GYM_CONFIG:
                return self._config_from_dict(node, args, origin)
            qualname = base
        if qualname == f"{sdk.EVALUATOR}.from_sdk" or qualname == f"{sdk.ASYNC_EVALUATOR}.from_sdk":
            client = args.positional[0] if args.positional else args.keywords.get("client")
            evaluator = qualname.rsplit(".", 1)[0]
            return Instance(
                ClassRef(evaluator), CallArgs(keywords={"client": client or Unknown()}), origin
            )
        if qualname == stdlib.NAMEDTUPLE:
            return namedtuple_instance(args, origin)
        if sdk.is_known_sdk_class(qualname):
            instance = Instance(ClassRef(qualname), args, origin)
            workspace = args.keywords.get("workspace")
            if (
                self.collect
                and qualname in _CLIENTS
                and isinstance(workspace, Known)
                and isinstance(workspace.obj, str)
            ):
                self.facts.workspaces.append(workspace.obj)
            self._record_construction(qualname, node, args, spans, instance)
            return instance
        modelled = stdlib.call_stdlib(qualname, args, origin)
        if modelled is not None:
            return modelled
        return Unknown(f"the result of {qualname.rsplit('.', 1)[-1]}()")

    def _config_from_dict(self, node: ast.Call, args: CallArgs, origin: Origin) -> Value:
        source = args.positional[0] if args.positional else args.keywords.get("obj")
        config_args = CallArgs()
        if isinstance(source, DictValue):
            self._splat(config_args, source)
        else:
            config_args.star_unknown = True
        instance = Instance(ClassRef(sdk.GYM_CONFIG), config_args, origin)
        if self.collect:
            self.facts.constructions.append(
                ConstructionFact(
                    ConstructionKind.GYM_CONFIG,
                    node,
                    self.span(node),
                    config_args,
                    instance,
                    via_dict=True,
                )
            )
        return instance

    def _record_construction(
        self,
        qualname: str,
        node: ast.Call,
        args: CallArgs,
        spans: dict[str, Span],
        instance: Instance,
    ) -> None:
        kind = _CONSTRUCTION_KINDS.get(qualname)
        if kind is None and qualname in sdk.RUNNER_CLASSES:
            kind = ConstructionKind.RUNNER
        if kind is None or not self.collect:
            return
        via_dict = any(k.arg is None for k in node.keywords)
        self.facts.constructions.append(
            ConstructionFact(
                kind,
                node,
                self.span(node),
                args,
                instance,
                spans,
                [self.span(a) for a in node.args],
                via_dict=via_dict,
            )
        )

    def instantiate_user_class(
        self,
        ref: ClassRef,
        node: ast.Call,
        args: CallArgs,
        spans: dict[str, Span],
        origin: Origin,
    ) -> Value:
        built = build_instance(ref, args, origin)
        if not isinstance(built, Instance):
            return built
        instance = built
        base = sdk_base(ref)
        if base == sdk.GYM_RUNNER and self.collect:
            self.facts.constructions.append(
                ConstructionFact(
                    ConstructionKind.GYM_RUNNER, node, self.span(node), args, instance, spans
                )
            )
        return instance

    def dict_method(self, base: DictValue, name: str, args: CallArgs, origin: Origin) -> Value:
        method = name.rsplit(".", 1)[-1].rstrip("()")
        if method in _DICT_VIEWS:
            return Refused(_DICT_VIEWS[method], origin, materialize="list")
        if method == "copy":
            return DictValue(list(base.entries), origin, base.complete)
        if method == "update":
            for value in args.positional:
                if isinstance(value, DictValue):
                    base.entries.extend(value.entries)
                else:
                    base.complete = False
            for key, value in args.keywords.items():
                base.set(Known(key), value, args.keyword_origins.get(key))
            return Known(None)
        if method == "get" and args.positional and isinstance(args.positional[0], Known):
            entry = base.get(args.positional[0].obj)
            if entry is not None:
                return entry.value
        return Unknown()

    def call_function(
        self,
        function: FunctionValue,
        definition: ast.FunctionDef | ast.AsyncFunctionDef,
        args: CallArgs,
    ) -> Value:
        declared = self._declared_return(function, definition)
        if isinstance(definition, ast.AsyncFunctionDef):
            return Unknown("a coroutine")
        if _is_generator(definition):
            return OneShot(
                f"a generator (from calling {definition.name}())", self.origin(definition)
            )
        frame = self.machine.frame
        if frame.depth >= MAX_CALL_DEPTH or id(definition) in frame.active:
            return declared
        context = function.defined_in if function.defined_in is not None else self.machine
        values = _bind_arguments(definition.args, args)
        return context.evaluate_call(definition, values, declared)

    def _declared_return(
        self, function: FunctionValue, definition: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> Value:
        context = function.defined_in if function.defined_in is not None else self.machine
        return context.annotated_value(definition.returns)


def _is_generator(definition: ast.FunctionDef) -> bool:
    """Whether calling it returns a generator: a ``yield`` in its own body (not nested defs).
    Remembered on the node itself, which lives exactly as long as the answer is valid."""
    known: bool | None = getattr(definition, "_evalsubmit_yields", None)
    if known is None:
        known = _yields(definition)
        definition._evalsubmit_yields = known  # type: ignore[attr-defined]
    return known


def _yields(definition: ast.FunctionDef) -> bool:
    pending: list[ast.AST] = list(definition.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        pending.extend(ast.iter_child_nodes(node))
    return False


def _bind_arguments(arguments: ast.arguments, args: CallArgs) -> dict[str, Value]:
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    values: dict[str, Value] = {}
    defaults = arguments.defaults
    for name, default in zip(names[len(names) - len(defaults) :], defaults, strict=True):
        if isinstance(default, ast.Constant):
            values[name] = Known(default.value)
    for kw_arg, kw_default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        if isinstance(kw_default, ast.Constant):
            values[kw_arg.arg] = Known(kw_default.value)
    for name, value in zip(names, args.positional, strict=False):
        values[name] = value
    for name, value in args.keywords.items():
        values[name] = value
    if args.star_unknown:
        return {name: value for name, value in values.items() if name in args.keywords}
    return values
