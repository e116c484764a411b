"""A value whose type is known but not its content, checked against a ``GymRuntimeConfig``
field: refused only when every type it may have is refused (``os.cpu_count()`` is ``int|None``:
refused in ``env_vars``, unknown for ``num_repeats``)."""

from __future__ import annotations

from evalsubmit.sdk import validation

_STRINGS = frozenset({"str", "bytes"})
_NUMBERS = frozenset({"int", "float", "bool", "str", "Decimal"})
_NEVER_SCALAR = frozenset(
    {
        "None",
        "NoneType",
        "PosixPath",
        "WindowsPath",
        "UUID",
        "datetime",
        "date",
        "list",
        "dict",
        "tuple",
    }
)
_FIELDS: dict[str, str] = {
    "agent": "str",
    "agent_config": "str",
    "resources_server": "str",
    "model_type": "str",
    "reward_key": "str",
    "bind_resources_server": "bool",
    "num_repeats": "int",
    "concurrency": "int",
    "startup_timeout_s": "float",
    "shutdown_grace_s": "float",
    "collection_timeout_s": "float|None",
    "hydra_params": "dict",
    "env_vars": "dict",
}
DICT_FIELDS = frozenset(name for name, kind in _FIELDS.items() if kind == "dict")
"""The config's ``dict`` fields (``hydra_params``, ``env_vars``)."""
_EXPECTED = {
    "str": "a string",
    "bool": "a boolean",
    "int": "an integer",
    "float": "a number",
    "float|None": "a number or None",
    "dict": "a dict",
}


def refusal(path: tuple[str | int, ...], types: frozenset[str], reason: str) -> str | None:
    """Why a value of one of ``types`` at ``path`` is surely refused, or None."""
    if len(path) == 2 and path[0] == "env_vars":
        if any(not _refused("str", t) for t in types):
            return None
        shown = validation.format_path(path)
        return (
            f"environment variable values must be strings: `{shown}` is {_article(types)} "
            f"({reason}); write it as a string, e.g. str(...)"
        )
    if len(path) != 1 or str(path[0]) not in _FIELDS:
        return None
    kind = _FIELDS[str(path[0])]
    if any(not _refused(kind, t) for t in types):
        return None
    return f"`{path[0]}` must be {_EXPECTED[kind]}, got {_article(types)} ({reason})"


def _refused(kind: str, type_name: str) -> bool:
    """Whether pydantic surely refuses a value of ``type_name`` for a field of ``kind``."""
    if type_name not in _NEVER_SCALAR | _NUMBERS | _STRINGS:
        return False  # a type we know nothing of (a user class, an enum): not sure
    if kind == "str":
        return type_name not in _STRINGS
    if kind == "dict":
        return type_name != "dict"
    if kind == "float|None" and type_name in {"None", "NoneType"}:
        return False
    return type_name in _NEVER_SCALAR


def _article(types: frozenset[str]) -> str:
    names = sorted("None" if t == "NoneType" else t for t in types)
    return " or ".join(n if n == "None" else f"{_a(n)} {n}" for n in names)


def _a(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"
