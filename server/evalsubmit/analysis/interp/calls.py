"""Call evaluation: which kind of call this is, stdlib models and the user's helpers.

A call is dispatched on what is called: a user's function or class, a container or string
method, a modelled standard-library callable, or the SDK (constructions and ``submit()`` sites,
whose facts :mod:`.sdk_calls` records). A helper of the user's is evaluated by walking its body
with the call's arguments bound (:mod:`.binding`; silently, in the context of the module that
defines it); ``MAX_CALL_DEPTH`` and a guard against recursion bound the work."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.annotated import of_class
from evalsubmit.analysis.interp.binding import bind_call, merged_arguments, splat_into
from evalsubmit.analysis.interp.bodies import (
    declared_return,
    evaluate_call,
    fixture_value,
    is_generator,
    yielded_items,
)
from evalsubmit.analysis.interp.cached import cached_result, surely_hashable
from evalsubmit.analysis.interp.calls_by_name import (
    ATTR_GETTER,
    METHOD_CALLER,
    call_method_by_name,
    get_attribute_by_name,
    getattr_value,
)
from evalsubmit.analysis.interp.context_managers import entered_as, is_context_manager
from evalsubmit.analysis.interp.coroutines import Running
from evalsubmit.analysis.interp.forwarding import forwarded_call
from evalsubmit.analysis.interp.frames import MAX_CALL_DEPTH, CallSite
from evalsubmit.analysis.interp.global_stores import surely_rebound
from evalsubmit.analysis.interp.narrowing import builtin_check
from evalsubmit.analysis.interp.pytest_marks import SKIP, SKIP_IF
from evalsubmit.analysis.interp.sdk_calls import (
    SdkCalls,
    built_without_constructor,
    evaluator_from_sdk,
    is_runner_init,
    is_submit,
    model_method,
)
from evalsubmit.analysis.models import arguments, containers, stdlib, stdlib_names
from evalsubmit.analysis.models.classes import build_instance, namedtuple_instance, str_method
from evalsubmit.analysis.values.domain import (
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
from evalsubmit.analysis.values.objects import (
    CallArgs,
    ClassRef,
    ClassValue,
    FunctionValue,
    PartialValue,
)
from evalsubmit.core.findings import Label, LabelKind, Occasion, Site, Span
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


# names called by name on every call of an SDK or stdlib class (made once, not per call)
_MODEL_VALIDATE = frozenset(
    {f"{sdk.GYM_CONFIG}.model_validate", f"{sdk.TASKSET_REF}.model_validate"}
)
_FROM_SDK = frozenset({f"{sdk.EVALUATOR}.from_sdk", f"{sdk.ASYNC_EVALUATOR}.from_sdk"})


_INSTANCE_FACTORIES = {"unittest.mock.create_autospec": "NonCallableMagicMock"}
"""Functions that, like a class, always return an instance (never None)."""


class Calls:
    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.sdk = SdkCalls(interp)
        self.eval = interp.eval
        self._rebound_by_call: dict[str, Value] | None = None
        """The globals the top-level call being made surely rebound, and their values
        (:mod:`.global_stores`): set after the globals a call may rebind are forgotten."""
        self._running = Running()

    def call(self, node: ast.Call, function: Value | None = None) -> Value:
        """The value of ``node``; ``function`` is its ``func``'s when already evaluated."""
        if function is None:
            function = self.eval(node.func)
        # asyncio.run(f(...)): f's body runs as its argument is evaluated
        args, keyword_spans = self._running.arguments(node, function, self.call_args)
        forwarded = forwarded_call(node, function, args)
        if forwarded is not None:  # to_thread(f, ...), executor.submit(f, ...): f(...)
            called, inner, inner_args = forwarded
            spans = {k: v for k, v in keyword_spans.items() if k in inner_args.keywords}
            self.apply(called, inner, inner_args, spans)
            self._forget_rebound_globals()
            self._rebound_by_call = None
            return Unknown("the result of a call run elsewhere")
        self._rebound_by_call = None
        result = self.apply(function, node, args, keyword_spans)
        self._forget_rebound_globals()
        rebound = self._take_rebound()
        if rebound and self.interp.frame.env.parent is None:
            self.interp.frame.env.names.update(rebound)  # what the call surely stored last
        return result

    def awaited(self, node: ast.Call) -> Value:
        """The value of ``await node`` (:mod:`.coroutines`)."""
        return self._running.awaited(node, self.eval)

    def _take_rebound(self) -> dict[str, Value] | None:
        """The names the call just applied surely rebound (``apply`` notes them), cleared. A
        method, not an inline read: after ``self._rebound_by_call = None`` above, mypy would
        take the attribute to be None still and skip checking what uses it (and mypyc, which
        trusts those types, would not compile it)."""
        rebound, self._rebound_by_call = self._rebound_by_call, None
        return rebound

    def _forget_rebound_globals(self) -> None:
        """After a call made by the module's own code (its top level, not a helper's body),
        the globals some function rebinds through ``global`` are unknown there: the call may
        have run that function, directly, through helpers, or through code not seen (read
        from a function, they are unknown already, :attr:`Env.rebound`). Likewise, after a
        call made in a function's body, the locals a nested function rebinds through
        ``nonlocal``."""
        frame = self.interp.frame
        env = frame.env
        scope = env
        while scope.parent is not None and not scope.rebound:  # out of a comprehension
            scope = scope.parent
        if scope.parent is not None:  # a function body: its nonlocal names
            _forget(scope)
            return
        if frame.depth or not self.interp.top_level:
            return  # the call of the helper walked from the top level forgets them
        while env.parent is not None:  # a comprehension's or a class body's scope
            env = env.parent
        _forget(env)

    def apply(
        self, function: Value, node: ast.Call, args: CallArgs, keyword_spans: dict[str, Span]
    ) -> Value:
        """The value of calling ``function`` with ``args`` at ``node``."""
        origin = self.interp.origin(node)
        match function:
            case FunctionValue(bound_self=Instance() as receiver) if is_submit(function):
                return self.sdk.submit(node, receiver, args, keyword_spans)
            case FunctionValue(bound_self=Instance() as runner) if is_runner_init(function):
                return self.sdk.init_runner(node, runner, args, keyword_spans)
            case PartialValue(function=ClassValue(ref=ClassRef(qualname=q))) if q == METHOD_CALLER:
                return call_method_by_name(self, function, node)
            case PartialValue(function=ClassValue(ref=ClassRef(qualname=q))) if q == ATTR_GETTER:
                return get_attribute_by_name(self, function, node)
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
            case FunctionValue(
                bound_self=Instance(ref=ClassRef(qualname=stdlib_names.ARGUMENT_PARSER)) as parser
            ):
                if function.name.endswith(".add_argument"):
                    return arguments.add_argument(parser, args)
                return arguments.parsed_namespace(parser, origin)
            case FunctionValue(bound_self=Instance() as model, node=None) if model_method(
                function.name
            ):
                return self.sdk.pydantic_method(model, model_method(function.name), args, origin)
            case FunctionValue(cached=True, node=ast.FunctionDef() as definition):
                if not surely_hashable(args):
                    return Unknown(f"a call of the cached {function.name}()")
                value = self.call_function(function, definition, args, node)
                return cached_result(function, value)
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
        if not node.keywords:
            return args, spans
        # the frame is the same after evaluating an argument (scopes entered are left)
        source = self.interp.frame.source
        passed = self.interp.frame.passed
        for keyword in node.keywords:
            value = self.eval(keyword.value)
            if keyword.arg is None:
                self._splat(args, value)
                continue
            args.keywords[keyword.arg] = value
            if passed and isinstance(keyword.value, ast.Name) and keyword.value.id in passed:
                # a parameter of this call-site walk: what is wrong was written at the call
                args.keyword_origins[keyword.arg] = passed[keyword.value.id]
                continue
            origin = source.origin(keyword)
            spans[keyword.arg] = origin.span
            args.keyword_origins[keyword.arg] = origin
        return args, spans

    def _splat(self, args: CallArgs, value: Value) -> None:
        if not isinstance(value, DictValue):
            args.star_unknown = True
            return
        splat_into(args, value)

    def call_named(
        self, qualname: str, node: ast.Call, args: CallArgs, spans: dict[str, Span], origin: Origin
    ) -> Value:
        if qualname in _MODEL_VALIDATE:
            base = qualname.rsplit(".", 1)[0]
            if base == sdk.GYM_CONFIG:
                return self.sdk.config_from_dict(node, args, origin)
            qualname = base
        if qualname in _FROM_SDK:
            return evaluator_from_sdk(qualname, args, origin)
        if qualname == stdlib_names.NAMEDTUPLE:
            return namedtuple_instance(args, origin)
        modelled_method = built_without_constructor(qualname, args, origin)
        if modelled_method is not None:
            return modelled_method
        if qualname == ATTR_GETTER and len(args.positional) == 1 and not args.keywords:
            # operator.attrgetter("evaluator"): applied later to the object
            return PartialValue(ClassValue(ClassRef(ATTR_GETTER)), args, origin)
        if qualname == METHOD_CALLER and args.positional:
            # operator.methodcaller("submit", tasks=...): called later with the object
            return PartialValue(ClassValue(ClassRef(METHOD_CALLER)), args, origin)
        if qualname == "dataclasses.replace":
            replaced = self._replace(args, node, spans, origin)
            if replaced is not None:
                return replaced
        if qualname == "builtins.object.__setattr__":
            # a frozen dataclass's __post_init__ writes its fields this way
            self.interp.object_setattr(args)
            return Known(None, origin)
        if qualname == "builtins.getattr":
            named = getattr_value(self, node, args)
            if named is not None:
                return named
        decided = builtin_check(qualname, args, origin)
        if decided is not None:
            return decided
        if qualname == "typing.cast" and len(args.positional) == 2:
            value = args.positional[1]
            return (
                of_class(self.interp, args.positional[0]) if isinstance(value, Unknown) else value
            )
        if qualname == "functools.partial" and args.positional:
            return PartialValue(args.positional[0], args.after_first(), origin)
        if sdk.is_known_sdk_class(qualname):
            return self.sdk.construct(qualname, node, args, spans, origin)
        if qualname in _SKIP_MARKS:  # read by testcode on a parametrize case's marks
            return Instance(ClassRef(qualname), args, origin)
        modelled = stdlib.call_stdlib(qualname, args, origin)
        if modelled is not None:
            return modelled
        name = qualname.rsplit(".", 1)[-1]
        if name[:1].isupper() or qualname in _INSTANCE_FACTORIES:
            # a class we do not model (MagicMock(), an SDK or a library class): its instance,
            # whatever it holds, is never None
            reason = sdk.known_elsewhere(qualname) or f"the result of {name}()"
            return Unknown(reason, _INSTANCE_FACTORIES.get(qualname, name))
        return Unknown(f"the result of {name}()")

    def _replace(
        self, args: CallArgs, node: ast.Call, spans: dict[str, Span], origin: Origin
    ) -> Value | None:
        """``dataclasses.replace(job, repeats=0)``: a new instance built from the fields of
        ``job`` with the changes (its ``__post_init__`` runs again, as Python does)."""
        if len(args.positional) != 1 or args.star_unknown:
            return None
        source = args.positional[0]
        if not isinstance(source, Instance) or source.ref.user is None:
            return None
        user, held = source.ref.user, source.attributes or {}
        if not user.fields or any(name not in held for name in user.fields):
            return None
        keywords = {name: held[name] for name in user.fields}
        keywords.update(args.keywords)
        changed = CallArgs([], keywords, dict(args.keyword_origins))
        return self.instantiate_user_class(source.ref, node, changed, spans, origin)

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
        self.interp.construct(instance, args, node)
        self.sdk.record_user_class(ref, node, args, spans, instance)
        return instance

    def call_function(
        self,
        function: FunctionValue,
        definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        args: CallArgs,
        node: ast.Call,
    ) -> Value:
        if not isinstance(definition, ast.Lambda) and is_context_manager(definition):
            values, _ = bind_call(self.interp, function, definition.args, args, node)
            return entered_as(fixture_value(self.interp, function, values))
        module = function.module
        text = module.parsed.lines if module is not None else None
        generator = not isinstance(definition, ast.Lambda) and is_generator(definition, text)
        if isinstance(definition, ast.AsyncFunctionDef):
            returned = self._running.returned(node)
            if returned is not None and not generator:  # its coroutine runs here
                returned.append(self._run_body(function, definition, args, node))
            return Unknown("a coroutine")
        if generator and not isinstance(definition, ast.Lambda):
            return OneShot(
                f"a generator (from calling {definition.name}())",
                self.interp.origin(definition),
                yielded_items(self.interp, function, args, node),
            )
        return self._run_body(function, definition, args, node)

    def _run_body(
        self,
        function: FunctionValue,
        definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        args: CallArgs,
        node: ast.Call,
    ) -> Value:
        frame = self.interp.frame
        if frame.depth >= MAX_CALL_DEPTH or id(definition) in frame.active:
            return declared_return(self.interp, function)
        values, passed = bind_call(self.interp, function, definition.args, args, node)
        walk = None
        receiver = function.bound_self
        generic = isinstance(receiver, Instance | ClassValue) and receiver.generic
        given = [v for v in values.values() if not (generic and v is receiver)]
        if any(not isinstance(value, Unknown) for value in given):
            # what the body does with these arguments is checked too, at this call site
            name = function.name if isinstance(definition, ast.Lambda) else definition.name
            label = Label(LabelKind.CALL, name, node.lineno)
            lines = (node.lineno, node.end_lineno or node.lineno)
            walk = Occasion(Site("call", node.lineno, node.col_offset), 0, 0, label, lines)
        stores = frozenset[str]()
        top_level = frame.depth == 0 and self.interp.top_level
        plain = function.bound_self is None and not function.cached
        if top_level and plain and isinstance(definition, ast.FunctionDef):
            stores = surely_rebound(definition)  # then kept after the call: _rebound_by_call
        ends: list[Env] | None = [] if stores else None
        value = evaluate_call(self.interp, function, values, site=CallSite(walk, passed), ends=ends)
        if ends:
            bound = ends[0].bindings
            known = {
                n: bound[n] for n in stores if not isinstance(bound.get(n, Unknown()), Unknown)
            }
            self._rebound_by_call = known or None
        return value


_SKIP_MARKS = frozenset({SKIP, SKIP_IF})


def _forget(env: Env) -> None:
    """The names ``env`` lists as rebound by its nested functions (or the module's
    functions), unknown from now on."""
    for name in env.rebound:
        if not isinstance(env.bindings.get(name, Unknown()), Unknown):
            env.names[name] = Unknown(f"{name}, which a call may have rebound")
