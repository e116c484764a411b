"""``match`` statements: which cases the subject's value can reach, and what each binds.

A case whose pattern surely fails for the subject (a ``None`` pattern for an object, a class
pattern for an instance of another SDK class, a literal for another literal) is never walked;
a case that surely matches (a capture, ``case _``, the subject's own class) is the last that
can run. The names a pattern captures are bound in its case (the subject, a mapping's value,
or unknown), and a class or ``None`` pattern narrows a subject that is a name.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.annotated import of_class
from evalsubmit.analysis.interp.attributes import config_field
from evalsubmit.analysis.interp.narrowing import instance_of
from evalsubmit.analysis.interp.operators import is_none, truthiness
from evalsubmit.analysis.values.domain import DictValue, Instance, Known, SeqValue, Unknown, Value
from evalsubmit.analysis.values.objects import ClassValue, FunctionValue, ModuleValue, PartialValue
from evalsubmit.core.records import Record
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


_PLAIN = (str, int, float, bool, bytes)


class CaseMatch(Record, hash=False):
    """What one pattern says of the subject: whether it matches (None: it may), the names it
    binds, and the subject's value inside the case."""

    __slots__ = ("bindings", "matches", "subject")
    matches: bool | None
    bindings: dict[str, Value]
    subject: Value | None

    def __init__(
        self,
        matches: bool | None,
        bindings: dict[str, Value] | None = None,
        subject: Value | None = None,
    ) -> None:
        self.matches = matches
        self.bindings = {} if bindings is None else bindings
        self.subject = subject


# ----- one handler per kind of pattern (the table is dispatch.PATTERNS) --------------------


def match_as(interp: Interpreter, pattern: ast.MatchAs, subject: Value) -> CaseMatch:
    """A capture (``case x``), the wildcard, or ``case <pattern> as x``."""
    if pattern.pattern is None:
        return CaseMatch(True, {pattern.name: subject} if pattern.name else {})
    found = interp.match_pattern(pattern.pattern, subject)
    if pattern.name:
        found.bindings[pattern.name] = found.subject or subject
    return found


def match_class(interp: Interpreter, pattern: ast.MatchClass, subject: Value) -> CaseMatch:
    parts = [*pattern.patterns, *pattern.kwd_patterns]
    found = _class(interp, pattern.cls, parts, subject)
    _bind_fields(found, subject, pattern.kwd_attrs, pattern.kwd_patterns)
    return found


def captures_unknown(interp: Interpreter, pattern: ast.pattern, subject: Value) -> CaseMatch:
    """Sequences and stars: whether they match is not followed; what they bind is unknown."""
    unknown: dict[str, Value] = {name: Unknown("bound by a pattern") for name in captured(pattern)}
    return CaseMatch(None, unknown)


def captured(pattern: ast.pattern) -> list[str]:
    """Every name a pattern binds."""
    names = []
    for node in ast.walk(pattern):
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.append(node.rest)
    return names


def guard_holds(interp: Interpreter, guard: ast.expr | None) -> bool | None:
    return True if guard is None else truthiness(interp.eval(guard))


def match_singleton(interp: Interpreter, pattern: ast.MatchSingleton, subject: Value) -> CaseMatch:
    constant = pattern.value
    if constant is None:
        none = is_none(subject)
        return CaseMatch(none, subject=Known(None) if none is not False else None)
    if isinstance(subject, Known):
        return CaseMatch(subject.obj is constant)
    return CaseMatch(None)


def match_value(interp: Interpreter, pattern: ast.MatchValue, subject: Value) -> CaseMatch:
    literal = interp.eval(pattern.value)
    plain = isinstance(literal, Known) and isinstance(literal.obj, _PLAIN)
    if plain and isinstance(subject, Known) and isinstance(subject.obj, (*_PLAIN, type(None))):
        return CaseMatch(bool(subject.obj == literal.obj))  # type: ignore[union-attr]
    if plain and is_none(subject) is False and not isinstance(subject, (Known, Unknown)):
        return CaseMatch(False)  # an object, a container: never equal to a literal
    return CaseMatch(None, subject=literal if plain else None)


def match_or(interp: Interpreter, pattern: ast.MatchOr, subject: Value) -> CaseMatch:
    found = [interp.match_pattern(alternative, subject) for alternative in pattern.patterns]
    for one in found:
        if one.matches is True:
            return one
    if all(one.matches is False for one in found):
        return CaseMatch(False)
    names = {name for one in found for name in one.bindings}
    unknown: dict[str, Value] = {name: Unknown("bound by a pattern") for name in names}
    return CaseMatch(None, unknown)


def _class(
    interp: Interpreter, cls: ast.expr, parts: list[ast.pattern], subject: Value
) -> CaseMatch:
    with interp.silent():
        kind = interp.eval(cls)
    matches = instance_of(subject, kind)
    if is_none(subject) is True:
        matches = False
    bindings: dict[str, Value] = {
        name: Unknown("bound by a pattern") for p in parts for name in captured(p)
    }
    self_matching = isinstance(kind, ClassValue) and kind.ref.qualname.startswith("builtins.")
    if self_matching and len(parts) == 1 and isinstance(parts[0], ast.MatchAs) and parts[0].name:
        bindings[parts[0].name] = subject  # str(x): a builtin's one positional is itself
    if matches is True and any(not _binds_only(p) for p in parts):
        matches = None  # the sub-patterns test what is inside: not followed
    narrowed = of_class(interp, kind) if isinstance(subject, Unknown) else subject
    if isinstance(narrowed, Unknown):
        narrowed = subject
    return CaseMatch(matches, bindings, narrowed)


def _bind_fields(
    found: CaseMatch, subject: Value, names: list[str], patterns: list[ast.pattern]
) -> None:
    """``GymRuntimeConfig(num_repeats=n)``: ``n`` is the config's field, when known."""
    if found.matches is False or not isinstance(subject, Instance):
        return
    if subject.ref.qualname != sdk.GYM_CONFIG:
        return
    for name, pattern in zip(names, patterns, strict=True):
        value = config_field(subject, name)
        captures = isinstance(pattern, ast.MatchAs) and pattern.pattern is None
        if value is not None and captures and isinstance(pattern, ast.MatchAs) and pattern.name:
            found.bindings[pattern.name] = value


def _binds_only(pattern: ast.pattern) -> bool:
    return isinstance(pattern, ast.MatchAs) and pattern.pattern is None


def match_mapping(interp: Interpreter, pattern: ast.MatchMapping, subject: Value) -> CaseMatch:
    values, rest = pattern.patterns, pattern.rest
    bindings: dict[str, Value] = {
        name: Unknown("bound by a pattern") for p in values for name in captured(p)
    }
    if rest:
        bindings[rest] = Unknown("the rest of a mapping")
    if isinstance(subject, (Known, SeqValue)) or is_none(subject) is True:
        not_mapping = not (isinstance(subject, Known) and isinstance(subject.obj, dict))
        if not_mapping:
            return CaseMatch(False)
    if _never_a_mapping(subject):
        return CaseMatch(False)
    if not isinstance(subject, DictValue):
        return CaseMatch(None, bindings)
    for key_node, value_pattern in zip(pattern.keys, values, strict=True):
        key = interp.eval(key_node)
        entry = subject.get(key.obj) if isinstance(key, Known) else None
        binds = isinstance(value_pattern, ast.MatchAs) and _binds_only(value_pattern)
        if entry is not None and binds and isinstance(value_pattern, ast.MatchAs):
            bindings[value_pattern.name or "_"] = entry.value
    return CaseMatch(None, bindings)


def _never_a_mapping(subject: Value) -> bool:
    """A class, a function, a module, or an object of an SDK class evalsubmit models (pydantic
    models, runners, clients: none is a ``Mapping``, and ``None`` is not one either), which a
    mapping pattern never matches."""
    if isinstance(subject, ClassValue | FunctionValue | ModuleValue | PartialValue):
        return True
    return (
        isinstance(subject, Instance)
        and subject.ref.user is None
        and sdk.is_known_sdk_class(subject.ref.qualname)
    )
