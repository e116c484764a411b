"""Stand-ins for the values validation cannot be given as they are, in the Python objects a
config's arguments become (:mod:`.gym_config`): an unknown value (:class:`Placeholder`, whose
errors are dropped), a refused one (:class:`Opaque`) and a one-shot iterator (:class:`Drained`,
sent as ``[]``)."""

from __future__ import annotations

from typing import Any


class Placeholder:
    """Stands for an unknown value during validation; errors at it are dropped."""

    def __repr__(self) -> str:  # how a message shows a container holding an unknown part
        return "…"


class Opaque:
    """Stands for a refused or one-shot value: not a str, so ``env_vars`` validation refuses it.

    A refusal's message quotes the value it got (``got {input!r}``): ``what`` is how the user's
    code names it (``a lambda``, ``the class str``), never this placeholder's own repr."""

    __slots__ = ("what",)

    def __init__(self, what: str = "a value with no JSON form") -> None:
        self.what = what

    def __repr__(self) -> str:
        return self.what


class Drained(Opaque):
    """A one-shot iterator: the SDK's JSON probe drains it, and the request carries ``[]``."""

    __slots__ = ()


def drained(value: Any) -> Any:
    """The arguments as the SDK sends them: every one-shot iterator as an empty list."""
    if isinstance(value, Drained):
        return []
    if isinstance(value, dict):
        return {k: drained(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(drained(v) for v in value)
    return value


def stripped(value: Any) -> Any:
    """Drop placeholders inside containers (their keys are unknown-valued, never diagnosed)."""
    if isinstance(value, dict):
        return {k: stripped(v) for k, v in value.items()}
    return value


def at_placeholder(kwargs: dict[str, Any], path: tuple[str | int, ...]) -> bool:
    current: Any = kwargs
    for part in path:
        if isinstance(current, Placeholder):
            return True
        found, current = _child(current, part)
        if not found:
            return False
    return isinstance(current, Placeholder)


def _child(container: Any, part: str | int) -> tuple[bool, Any]:
    if isinstance(container, dict) and part in container:
        return True, container[part]
    if isinstance(container, (list, tuple)) and isinstance(part, int) and part < len(container):
        return True, container[part]
    return False, None


def is_stand_in(value: Any) -> bool:
    """Whether ``value`` holds a stand-in anywhere (a preview then shows the markers)."""
    if isinstance(value, dict):
        return any(is_stand_in(v) for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(is_stand_in(v) for v in value)
    return isinstance(value, (Placeholder, Opaque))
