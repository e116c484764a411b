"""Call evaluation: SDK constructors, submit() sites, stdlib models and the user's helpers.

A helper of the user's is evaluated by walking its body with the call's arguments bound
(silently, in the context of the module that defines it); ``MAX_CALL_DEPTH`` and a guard
against recursion bound the work."""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.annotated import of_class
from evalsubmit.analysis.interp.facts import (
    ConstructionFact,
    ConstructionKind,
    ModuleFacts,
    SubmitFact,
)
from evalsubmit.analysis.interp.machine import MAX_CALL_DEPTH, CallSite, Machine
from evalsubmit.analysis.models import containers, stdlib
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
    PartialValue,
    SeqValue,
    Unknown,
    Value,
    typed_instance,
)
from evalsubmit.analysis.values.env import ModuleSource
from evalsubmit.core.findings import Span, Walk
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


class Calls:
    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    @property
    def source(self) -> ModuleSource:
        """The module whose code is being walked (a helper's own, in its body)."""
        return self.machine.frame.source

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
        return self.apply(function, node, args, keyword_spans)

    def apply(
        self, function: Value, node: ast.Call, args: CallArgs, keyword_spans: dict[str, Span]
    ) -> Value:
        """The value of calling ``function`` with ``args`` at ``node``."""
        origin = self.origin(node)
        match function:
            case FunctionValue(bound_self=Instance() as receiver) if is_submit(function):
                return self.submit_call(node, receiver, args, keyword_spans)
            case PartialValue(function=inner, args=stored):
                return self.apply(inner, node, merged_arguments(stored, args), keyword_spans)
            case ClassValue(ref=ClassRef(user=None, qualname=qualname)):
                return self.call_named(qualname, node, args, keyword_spans, origin)
            case ClassValue(ref=ref):
                return self.instantiate_user_class(ref, node, args, keyword_spans, origin)
            case FunctionValue(bound_self=DictValue() as base, name=name):
                return containers.dict_method(base, containers.method_name(name), args, origin)
            case FunctionValue(bound_self=SeqValue() as base, name=name):
                return containers.seq_method(base, containers.method_name(name), args, origin)
            case FunctionValue(bound_self=Unknown(type_name="dict") as base):
                return containers.typed_view(base, containers.method_name(function.name))
            case FunctionValue(bound_self=Known()):
                return str_method(function, args, origin)
            case FunctionValue(bound_self=Instance(ref=ClassRef(qualname=stdlib.ARGUMENT_PARSER))):
                return stdlib.parsed_arguments(origin)
            case FunctionValue(bound_self=Instance() as model, node=None) if model_method(
                function.name
            ):
                return self._pydantic_method(model, model_method(function.name), args, origin)
            case FunctionValue(
                node=ast.FunctionDef() | ast.AsyncFunctionDef() | ast.Lambda() as definition
            ):
                return self.call_function(function, definition, args, node)
        return Unknown("the result of a call")

    def call_args(self, node: ast.Call) -> tuple[CallArgs, dict[str, Span]]:
        args = CallArgs()
        spans: dict[str, Span] = {}
        for argument in node.args:
            value = self.eval(argument)
            if isinstance(argument, ast.Starred):
                if isinstance(value, SeqValue) and value.complete:
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
            passed = self.machine.frame.passed
            if isinstance(keyword.value, ast.Name) and keyword.value.id in passed:
                # a parameter of this call-site walk: what is wrong was written at the call
                args.keyword_origins[keyword.arg] = passed[keyword.value.id]
                continue
            span = self.span(keyword)
            spans[keyword.arg] = span
            args.keyword_origins[keyword.arg] = Origin(self.source.path, span)
        return args, spans

    def _splat(self, args: CallArgs, value: Value) -> None:
        if not isinstance(value, DictValue):
            args.star_unknown = True
            return
        _splat_into(args, value)

    def submit_call(
        self, node: ast.Call, receiver: Instance, args: CallArgs, spans: dict[str, Span]
    ) -> Value:
        if self.collect:
            fact = SubmitFact(
                node=node,
                span=self.span(node),
                name_span=self._name_span(node),
                is_async=receiver.ref.qualname == sdk.ASYNC_EVALUATOR,
                evaluator=receiver,
                args=args,
                keyword_spans=spans,
                keyword_value_spans={k.arg: self.span(k.value) for k in node.keywords if k.arg},
                path=self.source.path,
                home=self.machine.home,
                context=self.machine.frame.context,
            )
            target = args.keywords.get("target")
            if target is not None:
                fact.derivation = derive(target, fact.target_value_span(), self.source.path)
            self.facts.submits.append(fact)
        return Unknown("a job resource")

    def _name_span(self, node: ast.Call) -> Span:
        """The called name: ``submit`` in ``client.evaluator.submit(...)``, the whole callee
        otherwise (an alias ``send(...)``, a partial ``run(...)``)."""
        func = self.span(node.func)
        if isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            return Span(func.end_line, func.end_col - len(attr), func.end_line, func.end_col)
        return func

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
        modelled_method = self._model_method(qualname, args, origin)
        if modelled_method is not None:
            return modelled_method
        if qualname == "typing.cast" and len(args.positional) == 2:
            value = args.positional[1]
            return (
                of_class(self.machine, args.positional[0]) if isinstance(value, Unknown) else value
            )
        if qualname == "functools.partial" and args.positional:
            stored = CallArgs(
                args.positional[1:],
                dict(args.keywords),
                dict(args.keyword_origins),
                args.star_unknown,
            )
            return PartialValue(args.positional[0], stored, origin)
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
        name = qualname.rsplit(".", 1)[-1]
        if sdk.is_sdk_name(qualname) and name[:1].isupper():
            # an SDK class we do not model: its instance, whatever it holds, is never None
            return Unknown(f"the result of {name}()", name)
        return Unknown(f"the result of {name}()")

    def _model_method(self, qualname: str, args: CallArgs, origin: Origin) -> Value | None:
        """``Cls.__new__(Cls)`` and ``GymRuntimeConfig.model_construct(...)``: instances built
        without their constructor (the latter unvalidated until it is submitted)."""
        owner, _, method = qualname.rpartition(".")
        if method == "__new__" and sdk.is_sdk_name(owner):
            return typed_instance(ClassRef(owner))
        if method == "model_construct" and owner == sdk.GYM_CONFIG:
            return Instance(ClassRef(owner), args, origin, validated=False)
        return None

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
                    path=self.source.path,
                    home=self.machine.home,
                    context=self.machine.frame.context,
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
                path=self.source.path,
                home=self.machine.home,
                context=self.machine.frame.context,
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
        self.machine.construct(instance, args, node)
        base = sdk_base(ref)
        if base == sdk.GYM_RUNNER and self.collect:
            self.facts.constructions.append(
                ConstructionFact(
                    ConstructionKind.GYM_RUNNER,
                    node,
                    self.span(node),
                    args,
                    instance,
                    spans,
                    path=self.source.path,
                    home=self.machine.home,
                    context=self.machine.frame.context,
                )
            )
        return instance

    def _pydantic_method(
        self, model: Instance, method: str | None, args: CallArgs, origin: Origin
    ) -> Value:
        """``cfg.model_dump()`` is the config as a dict; ``cfg.model_copy(update={...})`` a copy
        with the update applied, not validated (pydantic does not validate updates)."""
        if model.ref.qualname != sdk.GYM_CONFIG or model.args.star_unknown:
            return Unknown(f"the result of {method}()")
        if method == "model_dump" and not args.positional and not args.keywords:
            dumped = DictValue(origin=origin)
            for key, value in model.args.keywords.items():
                dumped.set(Known(key), value, model.args.keyword_origins.get(key))
            return dumped
        if method == "model_copy":
            update = args.keywords.get("update")
            copied = CallArgs(
                [], dict(model.args.keywords), dict(model.args.keyword_origins), False
            )
            if isinstance(update, DictValue):
                _splat_into(copied, update)
            elif update is not None:
                copied.star_unknown = True
            validated = model.validated and update is None
            return Instance(ClassRef(sdk.GYM_CONFIG), copied, origin, validated=validated)
        return Unknown(f"the result of {method}()")

    def call_function(
        self,
        function: FunctionValue,
        definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        args: CallArgs,
        node: ast.Call,
    ) -> Value:
        if isinstance(definition, ast.AsyncFunctionDef):
            return Unknown("a coroutine")
        if not isinstance(definition, ast.Lambda) and is_generator(definition):
            return OneShot(
                f"a generator (from calling {definition.name}())", self.origin(definition)
            )
        frame = self.machine.frame
        if frame.depth >= MAX_CALL_DEPTH or id(definition) in frame.active:
            return self.machine.declared_return(function)
        values, passed = self.bind_call(function, definition.args, args, node)
        walk = None
        receiver = function.bound_self
        generic = isinstance(receiver, Instance) and receiver.generic
        given = [v for v in values.values() if not (generic and v is receiver)]
        if any(not isinstance(value, Unknown) for value in given):
            # what the body does with these arguments is checked too, at this call site
            name = function.name if isinstance(definition, ast.Lambda) else definition.name
            label = f"when {name}() is called at line {node.lineno}"
            lines = (node.lineno, node.end_lineno or node.lineno)
            walk = Walk(f"call {node.lineno}:{node.col_offset}", 0, 0, label, lines)
        return self.machine.evaluate_call(function, values, site=CallSite(walk, passed))

    def bind_call(
        self, function: FunctionValue, arguments: ast.arguments, args: CallArgs, node: ast.Call
    ) -> tuple[dict[str, Value], dict[str, Origin]]:
        """Parameter -> value for a call at ``node``, and where each value was written: the
        argument at this call (followed back when it is itself a parameter of the caller's
        call-site walk), or the parameter's default in the definition."""
        values = bind_arguments(arguments, args, function)
        passed: dict[str, Origin] = {}
        names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
        tail = names[len(names) - len(arguments.defaults) :]
        defaults = list(zip(tail, arguments.defaults, strict=True))
        kwonly = zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
        defaults += [(a.arg, d) for a, d in kwonly if d]
        module = function.module
        for name, default in defaults:
            if module is not None:
                passed[name] = module.origin(default)
        offset = 1 if function.bound_self is not None else 0
        plain = [a for a in node.args if not isinstance(a, ast.Starred)]
        if len(plain) == len(node.args):
            for name, argument in zip(names[offset:], plain, strict=False):
                passed[name] = self._written(argument, argument)
        for keyword in node.keywords:
            if keyword.arg is not None:
                passed[keyword.arg] = self._written(keyword.value, keyword)
        for name, origin in args.keyword_origins.items():
            passed.setdefault(name, origin)
        # a parameter the helper annotates declares what it takes: a finding about its value
        # stays in the helper, where the declared type is used
        for parameter in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            if parameter.annotation is not None:
                passed.pop(parameter.arg, None)
        if arguments.kwarg is not None and not args.star_unknown:
            known = {*names, *(a.arg for a in arguments.kwonlyargs)}
            extra = DictValue(origin=self.origin(node))
            for name, value in args.keywords.items():
                if name not in known:
                    extra.set(Known(name), value, passed.get(name))
            values[arguments.kwarg.arg] = extra
        return values, passed

    def _written(self, value: ast.expr, argument: ast.AST) -> Origin:
        """Where an argument's value was written: a parameter of the walk this call is in
        takes it from that walk's call site; anything else is written here."""
        if isinstance(value, ast.Name) and value.id in self.machine.frame.passed:
            return self.machine.frame.passed[value.id]
        return self.origin(argument)


def is_generator(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether calling it returns a generator: a ``yield`` in its own body (not nested defs).
    Remembered on the node itself, which lives exactly as long as the answer is valid."""
    known: bool | None = getattr(definition, "_evalsubmit_yields", None)
    if known is None:
        known = _yields(definition)
        definition._evalsubmit_yields = known  # type: ignore[union-attr]
    return known


def _yields(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    pending: list[ast.AST] = list(definition.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        pending.extend(ast.iter_child_nodes(node))
    return False


def bind_arguments(
    arguments: ast.arguments, args: CallArgs, function: FunctionValue
) -> dict[str, Value]:
    """Parameter -> value for a call: the call's arguments, else the parameter's default (as
    evaluated when the function was defined); the receiver first for a bound method."""
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    values: dict[str, Value] = dict(function.defaults)
    positional = list(args.positional)
    if function.bound_self is not None and names:
        positional.insert(0, function.bound_self)
    for name, value in zip(names, positional, strict=False):
        values[name] = value
    for name, value in args.keywords.items():
        values[name] = value
    if args.star_unknown:
        # which parameter a *args / **kwargs of unknown content fills is not known
        explicit = set(args.keywords) | set(names[: len(positional)])
        return {name: value for name, value in values.items() if name in explicit}
    return values


_EVALUATORS = frozenset({sdk.EVALUATOR, sdk.ASYNC_EVALUATOR})


def is_submit(function: FunctionValue) -> bool:
    """``<evaluator>.submit``, however it is reached (``client.evaluator.submit``, an alias)."""
    receiver = function.bound_self
    return (
        isinstance(receiver, Instance)
        and receiver.ref.qualname in _EVALUATORS
        and function.name == f"bound method {receiver.ref.qualname}.submit"
    )


def _splat_into(args: CallArgs, value: DictValue) -> None:
    """``**value``: its string-keyed entries become keywords (where they were written)."""
    for entry in value.entries:
        if isinstance(entry.key, Known) and isinstance(entry.key.obj, str):
            args.keywords[entry.key.obj] = entry.value
            if entry.origin is not None:
                args.keyword_origins[entry.key.obj] = entry.origin
        else:
            args.star_unknown = True
    if not value.complete:
        args.star_unknown = True


def model_method(name: str) -> str | None:
    """``model_dump`` / ``model_copy`` from a bound-method name, else None."""
    method = name.rsplit(".", 1)[-1]
    return method if method in {"model_dump", "model_copy"} else None


def merged_arguments(stored: CallArgs, call: CallArgs) -> CallArgs:
    """A partial's arguments then the call's; the call's keywords win."""
    return CallArgs(
        [*stored.positional, *call.positional],
        {**stored.keywords, **call.keywords},
        {**stored.keyword_origins, **call.keyword_origins},
        stored.star_unknown or call.star_unknown,
    )
