"""Values from type annotations: a parameter or return typed with an SDK class is an instance
of it whose contents are unknown (its identity is what the rules need)."""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.machine import Machine
from evalsubmit.analysis.values.domain import CallArgs, ClassValue, Instance, Unknown, Value
from evalsubmit.sdk import names as sdk


def annotated_value(machine: Machine, annotation: ast.expr | None) -> Value:
    if annotation is None:
        return Unknown("a parameter")
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return Unknown("a parameter")
    with machine.silent():
        kind = machine.eval(annotation)
    if (
        isinstance(kind, ClassValue)
        and kind.ref.user is None
        and sdk.is_sdk_name(kind.ref.qualname)
    ):
        return Instance(kind.ref, CallArgs(), None)
    return Unknown("a parameter")
