"""``Frame.with_env`` is ``dataclasses.replace(frame, env=..., context=...)``: every field kept."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from evalsubmit.analysis.interp.machine import Frame
from evalsubmit.analysis.values.env import Env


def _frame_of_sentinels() -> Frame:
    values: dict[str, Any] = {f.name: object() for f in fields(Frame)}
    return Frame(**values)


def test_with_env_keeps_every_other_field() -> None:
    frame, env = _frame_of_sentinels(), Env()
    copied = frame.with_env(env)
    expected = replace(frame, env=env)
    for f in fields(Frame):
        assert getattr(copied, f.name) is getattr(expected, f.name), f.name


def test_with_env_and_context() -> None:
    frame, env, context = _frame_of_sentinels(), Env(), ()
    copied = frame.with_env(env, context=context)
    expected = replace(frame, env=env, context=context)
    for f in fields(Frame):
        assert getattr(copied, f.name) is getattr(expected, f.name), f.name
