"""The SDK's and the platform's grammars of names evalsubmit checks or makes: taskset
references (``TasksetRef``, reference §5) and job names (the platform's entity-name rule)."""

from __future__ import annotations

import enum
import re
from typing import Final

from evalsubmit.core.records import Record

TASKSET_REF_SYNTAX = r"^[\w\-.]+(/[\w\-.]+)?(#[\w\-.]+)?$"
"""``TasksetRef``'s pattern as the SDK spells it (``\\w`` is Unicode-aware there too)."""
_TASKSET_REF = re.compile(r"([\w\-.]+)(?:/([\w\-.]+))?(?:#([\w\-.]+))?")

JOB_NAME_PATTERN = re.compile(r"^[a-z](?!.*--)[a-z0-9\-@.+_]{1,62}(?<!-)$")
"""``nemo_platform_plugin.entity_naming.NAME_PATTERN``."""
JOB_NAME_RULE = (
    "a job name starts with a lowercase letter and has 2-63 lowercase letters, digits, '-', "
    "'.', '_', '@' or '+', with no '--' and no '-' at the end."
)


class TasksetRefParts(Record):
    """A parsed taskset reference; ``workspace`` is None when the reference had no prefix."""

    __slots__ = ("name", "revision", "workspace")
    name: Final[str]
    workspace: Final[str | None]
    revision: Final[str | None]

    def __init__(
        self, name: str, workspace: str | None = None, revision: str | None = None
    ) -> None:
        self.name = name
        self.workspace = workspace
        self.revision = revision

    def in_workspace(self, default_workspace: str) -> tuple[str, str]:
        """(workspace, name) with the job's workspace filled in for a bare name."""
        return (self.workspace or default_workspace, self.name)


def parse_taskset_ref(ref: str) -> TasksetRefParts:
    """Split ``ws/name#revision``; ValueError when ``ref`` is not a taskset reference."""
    match = _TASKSET_REF.fullmatch(ref)
    if match is None:
        raise ValueError(
            f"{ref!r} is not a taskset reference (expected `name`, `workspace/name` or "
            "`workspace/name#revision`)"
        )
    first, second, revision = match.groups()
    if second is None:
        return TasksetRefParts(name=first, revision=revision)
    return TasksetRefParts(name=second, workspace=first, revision=revision)


def taskset_ref_problem(text: str) -> str | None:
    """Why a reference string is malformed, in words, or ``None`` when it is valid."""
    if _TASKSET_REF.fullmatch(text):
        return None
    if not text:
        return "it is empty"
    if text != text.strip():
        return "it has leading or trailing whitespace"
    if text.count("/") > 1:
        return "it has more than one `/` (the form is workspace/name)"
    if text.endswith("#"):
        return "its `#revision` is empty"
    if text.count("#") > 1:
        return "it has more than one `#`"
    if text.startswith("/") or text.endswith("/") or "//" in text:
        return "a workspace or name part is empty"
    bad = sorted({c for c in text if not (c.isalnum() or c in "_-./#")})
    shown = ", ".join(repr(c) for c in bad) if bad else "a character outside [\\w-.]"
    return f"it contains {shown}"


def reference_text(obj: object) -> tuple[str | None, str | None]:
    """What ``TasksetRef`` (a pydantic ``RootModel[str]``, lax) makes of a Python object:
    ``(text, None)``, or ``(None, what it got)`` when it refuses the object whatever its content.

    A ``str`` (or a subclass: a ``StrEnum`` member) is its text; ``bytes`` and ``bytearray`` are
    decoded as UTF-8; any other enum member becomes ``str`` of its value (an ``IntEnum`` member
    ``1`` is ``"1"``); everything else is refused: numbers, paths (even ``PurePosixPath``),
    ``UserString``, containers, iterators... (checked against the SDK by the refusal table,
    ``tests/contract/test_refusal_table.py``).
    """
    if isinstance(obj, str):
        return str.__str__(obj), None
    if isinstance(obj, bytes | bytearray):
        try:
            return bytes(obj).decode("utf-8"), None
        except UnicodeDecodeError:
            return None, "bytes that are not valid UTF-8"
    if isinstance(obj, enum.Enum):
        return str(obj.value), None
    return None, type(obj).__name__


def is_valid_job_name(name: str) -> bool:
    return bool(JOB_NAME_PATTERN.match(name))
