"""Classes, functions, modules and call arguments, as the interpreter holds them: values
whose identity matters to the rules (which class, which function), and that never change once
made."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from evalsubmit.core.records import record

if TYPE_CHECKING:
    from evalsubmit.analysis.values.domain import Origin, Value
    from evalsubmit.analysis.values.env import Env, ModuleSource


@record
class ClassRef:
    """A class by identity: an SDK/stdlib class by qualified name, or a user class."""

    qualname: str
    user: UserClass | None = None


PydanticKind = Literal["model", "settings"]


@dataclass(eq=False, slots=True)
class UserClass:
    """A class defined in the analysed code."""

    name: str
    path: Path | None
    node: ast.ClassDef
    bases: list[Value]
    attributes: set[str]
    """Names the class body defines (methods, class attributes, fields)."""
    decorators: list[Value]
    enum_members: dict[str, Any] = field(default_factory=dict)
    class_values: dict[str, Value] = field(default_factory=dict)
    """Class attributes, as the class body binds them (not fields a constructor sets)."""
    methods: dict[str, FunctionValue] = field(default_factory=dict)
    properties: frozenset[str] = frozenset()
    """Methods read as attributes (``@property``, ``@cached_property``)."""
    fields: frozenset[str] = frozenset()
    """Dataclass or pydantic-model fields: set by the constructor, unknown without it."""
    pydantic: PydanticKind | None = None
    """A pydantic model (or pydantic-settings ``BaseSettings``), through any depth of the
    user's bases: known where the class is defined."""
    model_neutral: bool | None = None
    """For a pydantic model: whether nothing in it or its bases may change what its fields
    are given (:mod:`.pydantic_fields`), read at its first construction."""


@dataclass(eq=False, slots=True)
class ClassValue:
    """A class (SDK, standard library or user-defined) as a value."""

    ref: ClassRef
    generic: bool = False
    """A class method's ``cls`` walked whoever called it: the class or any subclass."""


@dataclass(eq=False, slots=True)
class CallArgs:
    """The arguments of a call, as values."""

    positional: list[Value] = field(default_factory=list)
    keywords: dict[str, Value] = field(default_factory=dict)
    keyword_origins: dict[str, Origin] = field(default_factory=dict)
    star_unknown: bool = False
    """``*args`` / ``**kwargs`` of unknown content were passed."""

    def after_first(self) -> CallArgs:
        """These arguments but the first positional one (``partial(f, *rest)``), copied."""
        return CallArgs(
            self.positional[1:], dict(self.keywords), dict(self.keyword_origins), self.star_unknown
        )


@dataclass(eq=False, slots=True)
class FunctionValue:
    """A function (or lambda) defined in the analysed code."""

    name: str
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None
    origin: Origin | None
    module: ModuleSource | None = None
    """The module that defines it: its body is walked with that module's source."""
    bound_self: Value | None = None
    defaults: dict[str, Value] = field(default_factory=dict)
    """Parameter defaults, evaluated where the function is defined."""
    owner: ClassValue | None = None
    """For a method: the class that defines it (``super()`` starts after it)."""
    closure: Env | None = None
    """The scope it was defined in (a module's, or an enclosing function's)."""
    cached: bool = False
    """Wrapped by ``functools.cache``/``lru_cache``: a call runs the body only when its
    arguments hash (:mod:`..interp.cached`)."""


@dataclass(eq=False, slots=True)
class PartialValue:
    """``functools.partial(function, *args, **keywords)``: calling it calls ``function`` with
    these arguments first (its keywords overridden by the call's). Refused as a JSON value."""

    function: Value
    args: CallArgs
    origin: Origin | None = None


@dataclass(eq=False, slots=True)
class ModuleValue:
    """An imported module, by its qualified name."""

    qualname: str
