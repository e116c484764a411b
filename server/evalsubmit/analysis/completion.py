"""What can be completed at a position of a document: pure functions of its text, no pygls.

Completion runs on every keystroke, on text that is usually broken mid-typing and newer than
any analysis, so this reads the text itself (strings and comments masked, brackets matched)
instead of waiting for a report. It answers two questions:

- :func:`completion_at`: is the position inside a ``TasksetRef("...")``, ``tasks="..."`` or a
  client's ``workspace="..."`` string (a :class:`StringSlot`, completed from the platform), or
  where a keyword of ``submit()``, ``GymRuntimeConfig(`` or ``GymAgentTaskRunner(`` goes (a
  :class:`CallSlot`)?
- :func:`keyword_params` and :func:`signatures`: what a call slot offers, following the two
  shapes of ``submit()``.

Being a function of (text, position) only, it serves a notebook cell as it serves a file.
"""

from __future__ import annotations

import re
from typing import Literal

from evalsubmit.core.lines import line_starts, offset_at
from evalsubmit.core.records import record
from evalsubmit.sdk.signatures import (
    GYM_CONFIG_PARAMS,
    GYM_RUNNER_PARAMS,
    ROW_TARGET,
    SUBMIT_ROW,
    SUBMIT_TASKSET,
    Param,
)

StringKind = Literal["taskset", "workspace"]
Callee = Literal["submit", "async_submit", "config", "runner"]

_TOKENS = re.compile(
    r"""(?P<s>(?:[rRbBuUfF]{0,2})(?:\"\"\"(?:\\.|[^\\])*?(?:\"\"\"|\Z)|'''(?:\\.|[^\\])*?(?:'''|\Z)"""
    r"""|"(?:\\.|[^"\\\n])*(?:"|(?=\n)|\Z)|'(?:\\.|[^'\\\n])*(?:'|(?=\n)|\Z)))|(?P<c>\#[^\n]*)"""
)
_CALLEE = re.compile(r"((?:[A-Za-z_]\w*\s*\.\s*)*[A-Za-z_]\w*)\s*$")
_KEYWORD = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*=(?!=)")
_PARTIAL = re.compile(r"(?:^|[(,])\s*(\*{0,2})([A-Za-z_]\w*)?$")
_LOOK_BACK = 20_000
"""How far back an open bracket is looked for: a call longer than this is not being typed."""
_CLIENTS = ("NeMoPlatform", "AsyncNeMoPlatform", "EvaluatorClient", "AsyncEvaluatorClient")
_CLASSES: dict[str, Callee] = {"GymRuntimeConfig": "config", "GymAgentTaskRunner": "runner"}


@record
class StringSlot:
    """The content of a string literal the platform can complete (1-based line, code-point
    columns on that line): ``typed`` is the content before the position."""

    kind: StringKind
    line: int
    start: int
    end: int
    typed: str

    @property
    def workspace_prefix(self) -> str | None:
        """``qa`` when ``qa/sm`` is typed: the tasksets of that workspace are meant."""
        head, slash, _ = self.typed.partition("/")
        return head if slash and self.kind == "taskset" else None


@record
class CallSlot:
    """A position inside the argument list of a call we know the keywords of."""

    callee: Callee
    used: frozenset[str]
    """Keywords already given anywhere in the call."""
    current: str | None
    """The keyword whose value the position is in (``tasks`` in ``tasks=Tas|``), if any."""
    partial: str | None
    """The identifier typed so far where a keyword may go (``""`` right after ``(`` or ``,``);
    None where no keyword can go (a value is being typed)."""


@record
class Signature:
    label: str
    doc: str
    params: tuple[Param, ...]


@record
class Signatures:
    items: tuple[Signature, ...]
    active: int
    active_param: int | None


def mask(text: str) -> tuple[str, list[tuple[int, int, int]]]:
    """The text with strings and comments blanked (same length, newlines kept), and each
    string's (start, content start, content end) offsets."""
    out = list(text)
    strings: list[tuple[int, int, int]] = []
    for match in _TOKENS.finditer(text):
        start, end = match.span()
        if match.group("s") is not None:
            body = match.group("s")
            prefix = len(body) - len(body.lstrip("rRbBuUfF"))
            quote = (
                body[prefix : prefix + 3]
                if body[prefix : prefix + 3] in ('"""', "'''")
                else body[prefix]
            )
            content_end = (
                end - len(quote)
                if body.endswith(quote) and len(body) > prefix + len(quote)
                else end
            )
            strings.append((start, start + prefix + len(quote), content_end))
        for index in range(start, end):
            if out[index] != "\n":
                out[index] = " "
    return "".join(out), strings


def completion_at(text: str, line: int, col: int) -> StringSlot | CallSlot | None:
    """What can be completed at 1-based ``line``, code-point ``col`` of ``text``."""
    starts = line_starts(text)
    offset = offset_at(text, starts, line - 1, col)
    masked, strings = mask(text)
    for start, content, content_end in strings:
        if content <= offset <= content_end and start < offset:
            return _string_slot(text, masked, starts, start, content, content_end, offset, line)
        if start > offset:
            break
    if offset < len(masked) and masked[offset - 1 : offset] == " " and text[offset - 1] == "#":
        return None
    return _call_slot(text, masked, offset)


def _string_slot(
    text: str,
    masked: str,
    starts: list[int],
    start: int,
    content: int,
    content_end: int,
    offset: int,
    line: int,
) -> StringSlot | None:
    if "\n" in text[content:offset] or text[start:content].lstrip("rRuU")[:1] in (
        "f",
        "F",
        "b",
        "B",
    ):
        return None
    before = masked[max(0, start - 200) : start]
    kind: StringKind | None = None
    opened = _open_paren(masked, start)
    callee = _callee(masked, opened) if opened is not None else None
    last = callee.rsplit(".", 1)[-1] if callee else None
    in_ref = bool(re.search(r"\(\s*(?:name\s*=\s*)?$", before)) and last == "TasksetRef"
    in_tasks = bool(re.search(r"(?<![\w.])tasks\s*=\s*$", before))
    if in_ref or (in_tasks and _submit_kind(masked, opened, callee)):
        kind = "taskset"
    elif re.search(r"(?<![\w.])workspace\s*=\s*$", before) and last in _CLIENTS:
        kind = "workspace"
    if kind is None:
        return None
    line_start = starts[line - 1]
    end = min(
        content_end, text.find("\n", content) if "\n" in text[content:content_end] else content_end
    )
    return StringSlot(kind, line, content - line_start, end - line_start, text[content:offset])


def _call_slot(text: str, masked: str, offset: int) -> CallSlot | None:
    opened = _open_paren(masked, offset)
    if opened is None:
        return None
    callee = _callee(masked, opened)
    if callee is None:
        return None
    kind = _submit_kind(masked, opened, callee) or _class_kind(text, callee)
    if kind is None:
        return None
    closing = _close_paren(masked, opened)
    args = _depth_one(masked[opened + 1 : closing])
    used = frozenset(m.group(1) for m in _KEYWORD.finditer(args))
    here = _depth_one(masked[opened + 1 : offset])
    segment = here[here.rfind(",") + 1 :] if "," in here else "(" + here
    match = _PARTIAL.search(segment if segment.startswith("(") else "," + segment)
    partial = (match.group(2) or "") if match and not match.group(1) else None
    keyword = _KEYWORD.search(segment)
    current = keyword.group(1) if keyword else None
    own = {partial} if partial and partial in used and not keyword else set()
    return CallSlot(kind, used - own, current, partial)


def _open_paren(masked: str, offset: int) -> int | None:
    """The offset of the innermost ``(`` still open at ``offset``, if any."""
    depth = 0
    stop = max(0, offset - _LOOK_BACK)
    for index in range(offset - 1, stop - 1, -1):
        char = masked[index]
        if char in ")]}":
            depth += 1
        elif char in "([{":
            if depth == 0:
                return index if char == "(" else None
            depth -= 1
    return None


def _close_paren(masked: str, opened: int) -> int:
    """Where the call opened at ``opened`` ends (its ``)``, else where a new statement starts:
    the rest of an unfinished call is still being typed)."""
    depth = 0
    for index in range(opened + 1, min(len(masked), opened + _LOOK_BACK)):
        char = masked[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return index
            depth -= 1
        elif char == "\n" and re.match(r"\n[^\s)\]}]", masked[index : index + 2]):
            return index  # a line starting in column 0: the next statement
    return len(masked)


def _depth_one(args: str) -> str:
    """The argument text with nested brackets blanked, so only the call's own keywords and
    commas remain."""
    out = []
    depth = 0
    for char in args:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
            out.append(" ")
            continue
        out.append(char if depth == 0 else " ")
    return "".join(out)


def _callee(masked: str, opened: int) -> str | None:
    match = _CALLEE.search(masked[max(0, opened - 300) : opened])
    return re.sub(r"\s+", "", match.group(1)) if match else None


def _submit_kind(masked: str, opened: int | None, callee: str | None) -> Callee | None:
    """``submit`` or ``async_submit`` for an evaluator's ``submit(`` (its receiver names an
    evaluator, or a name bound to one), else None: an executor's ``submit`` is not ours."""
    if opened is None or callee is None or not callee.endswith(".submit"):
        return None
    receiver = callee[: -len(".submit")]
    head = receiver.split(".", 1)[0]
    bound = re.search(
        rf"(?m)^\s*{re.escape(head)}\s*(?::[^=\n]*)?=\s*(await\s+)?([^\n]*)$", masked[:opened]
    )
    source = receiver + (" " + bound.group(2) if bound else "")
    if "evaluator" not in source.lower():
        return None
    awaited = re.search(
        r"await\s*$", masked[max(0, opened - len(callee) - 20) : opened - len(callee)]
    )
    is_async = bool(awaited) or "async" in source.lower()
    return "async_submit" if is_async else "submit"


def _class_kind(text: str, callee: str) -> Callee | None:
    last = callee.rsplit(".", 1)[-1]
    if last in _CLASSES:
        return _CLASSES[last]
    for name, kind in _CLASSES.items():
        if re.search(rf"\b{name}\s+as\s+{re.escape(last)}\b", text):
            return kind
    return None


# -- what a call slot offers ------------------------------------------------------------------


def shape_of(slot: CallSlot) -> Literal["taskset", "row", "none"]:
    """The ``submit()`` shape the call's keywords already chose."""
    if slot.callee == "async_submit":
        return "row"  # the async evaluator has no taskset shape (reference §3.2)
    if "tasks" in slot.used:
        return "taskset"
    if slot.used & {"metric", "dataset", "config", "field_mapping", "prompt_template"}:
        return "row"
    return "none"


def call_params(slot: CallSlot) -> tuple[Param, ...]:
    """Every keyword the call may take in the shape it has so far."""
    if slot.callee == "config":
        return GYM_CONFIG_PARAMS
    if slot.callee == "runner":
        return GYM_RUNNER_PARAMS
    shape = shape_of(slot)
    # target= of a row evaluation is a model or agent, and only with an online config=
    row = (*SUBMIT_ROW, ROW_TARGET) if "config" in slot.used else SUBMIT_ROW
    if shape == "taskset":
        return SUBMIT_TASKSET
    if shape == "row":
        return row
    return (*SUBMIT_TASKSET, *SUBMIT_ROW)


def keyword_params(slot: CallSlot) -> tuple[Param, ...]:
    """The keywords to offer at the slot: those of its shape not given yet, required first."""
    if slot.partial is None:
        return ()
    left = [p for p in call_params(slot) if p.name not in slot.used]
    return tuple(sorted(left, key=lambda p: not p.required))


def signatures(slot: CallSlot) -> Signatures:
    """The signatures of the call, the one its keywords chose active, and the parameter under
    the position (the keyword being given, or the one whose name is being typed)."""
    items: tuple[Signature, ...]
    if slot.callee == "config":
        items = (_signature("GymRuntimeConfig", GYM_CONFIG_PARAMS, "Gym runtime config"),)
    elif slot.callee == "runner":
        items = (_signature("GymAgentTaskRunner", GYM_RUNNER_PARAMS, "Gym agent task runner"),)
    else:
        taskset = _signature(
            "submit", SUBMIT_TASKSET, "Taskset shape: an agent-evaluate job. Nothing else."
        )
        row_doc = "Row shape: an evaluate job (`target=` with an online `config=` only)."
        row = _signature("submit", (*SUBMIT_ROW, ROW_TARGET), row_doc)
        items = (row,) if slot.callee == "async_submit" else (taskset, row)
    active = 1 if len(items) == 2 and shape_of(slot) == "row" else 0
    name = slot.current or slot.partial
    params = items[active].params
    index = next((i for i, p in enumerate(params) if p.name == name), None)
    if index is None and name:
        index = next((i for i, p in enumerate(params) if p.name.startswith(name)), None)
    return Signatures(items, active, index)


def _signature(name: str, params: tuple[Param, ...], doc: str) -> Signature:
    return Signature(f"{name}(*, {', '.join(p.label() for p in params)})", doc, params)


def param_markdown(param: Param) -> str:
    """A parameter's documentation: type, required or default, bounds, prose."""
    facts = [f"`{param.type}`", "required" if param.required else f"default `{param.default}`"]
    if param.constraint:
        facts.append(f"`{param.constraint}`")
    return f"{', '.join(facts)}\n\n{param.doc}".strip()
