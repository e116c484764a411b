"""``Frame.with_env``, ``silenced`` and ``for_body`` are ``dataclasses.replace`` of the fields
they change (every other field kept); a ``FrameSwitch`` restores the frame it replaced."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from evalsubmit.analysis.interp.frames import Frame, FrameSwitch
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


class _Holder:
    def __init__(self, frame: Frame) -> None:
        self.frame = frame


def test_a_frame_switch_restores_the_frame_it_replaced() -> None:
    outer, inner, innermost = _frame_of_sentinels(), _frame_of_sentinels(), _frame_of_sentinels()
    holder = _Holder(outer)
    with FrameSwitch(holder, inner) as entered:
        assert entered is inner and holder.frame is inner
        with FrameSwitch(holder, innermost):
            assert holder.frame is innermost
        assert holder.frame is inner
    assert holder.frame is outer


def test_a_frame_switch_restores_on_an_error() -> None:
    outer, inner = _frame_of_sentinels(), _frame_of_sentinels()
    holder = _Holder(outer)
    try:
        with FrameSwitch(holder, inner):
            raise RecursionError
    except RecursionError:
        pass
    assert holder.frame is outer


def test_silenced_keeps_every_other_field() -> None:
    frame = _frame_of_sentinels()
    copied = frame.silenced()
    expected = replace(frame, collect=False)
    for f in fields(Frame):
        assert getattr(copied, f.name) is getattr(expected, f.name), f.name


def test_for_body_keeps_every_other_field() -> None:
    frame, env, owner, receiver, context = _frame_of_sentinels(), Env(), object(), object(), ()
    copied = frame.for_body(env, owner, receiver, context)  # type: ignore[arg-type]
    expected = replace(frame, env=env, owner=owner, receiver=receiver, context=context)
    for f in fields(Frame):
        assert getattr(copied, f.name) is getattr(expected, f.name), f.name
