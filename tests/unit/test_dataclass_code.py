"""The CLI's cache of the code :mod:`dataclasses` compiles: the classes it makes are the classes
``dataclasses`` makes without it, and a cache file that is damaged or missing changes nothing."""

from __future__ import annotations

import dataclasses
import marshal
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evalsubmit.cli import dataclass_code

MAKE = """
from __future__ import annotations
import dataclasses

@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: list[str] = dataclasses.field(default_factory=list)
    z: str = "z"

@dataclasses.dataclass(eq=False, slots=True)
class Mutable:
    name: str
    count: int = 0
"""


def make_classes(
    exec_: Callable[..., None] | None, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    if exec_ is not None:
        monkeypatch.setattr(dataclasses, "exec", exec_, raising=False)
    module = types.ModuleType("made_by_test_dataclass_code")
    monkeypatch.setitem(sys.modules, module.__name__, module)  # dataclasses reads its globals
    exec(compile(MAKE, "made.py", "exec"), module.__dict__)
    namespace: dict[str, Any] = module.__dict__
    monkeypatch.delattr(dataclasses, "exec", raising=False)
    return namespace


def methods(cls: type) -> dict[str, Any]:
    return {
        name: (fn.__code__.co_code, fn.__code__.co_varnames, fn.__annotations__, fn.__defaults__)
        for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
        if callable(fn := getattr(cls.__dict__.get(name), "__wrapped__", cls.__dict__.get(name)))
        and hasattr(fn, "__code__")
    }


@pytest.mark.parametrize("warm", [False, True])
def test_classes_made_through_the_cache_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm: bool
) -> None:
    plain = make_classes(None, monkeypatch)
    file = tmp_path / "cache.marshal"
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    if warm:
        first = dataclass_code._Cache(file)
        make_classes(first.exec, monkeypatch)
        first.save()
    cache = dataclass_code._Cache(file)
    cached = make_classes(cache.exec, monkeypatch)
    assert cache.compiled == (0 if warm else len(cache.used)) and cache.used
    for name in ("Point", "Mutable"):
        assert methods(cached[name]) == methods(plain[name]), name
    # the generated __init__ reads its annotations from values: compiled with this test's
    # `from __future__ import annotations` they would read "_type_x", not the field's type
    assert methods(cached["Point"])["__init__"][2]["x"] == "int"
    point = cached["Point"](1)
    assert point == cached["Point"](1, [], "z")
    assert hash(cached["Point"](1, ("a",))) == hash(cached["Point"](1, ("a",), "z"))
    assert repr(point) == "Point(x=1, y=[], z='z')"
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2
    assert cached["Mutable"]("a") != cached["Mutable"]("a")  # eq=False: identity


@pytest.mark.parametrize(
    "content", [b"", b"\x00garbage", marshal.dumps([1, 2]), marshal.dumps({"text": 3})]
)
def test_a_damaged_cache_is_ignored_and_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    file = tmp_path / "cache.marshal"
    file.write_bytes(content)
    cache = dataclass_code._Cache(file)
    assert cache.codes == {}
    make_classes(cache.exec, monkeypatch)
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    cache.save()
    assert dataclass_code._Cache(file).codes.keys() == cache.used


def test_no_file_is_written_without_bytecode_or_a_writable_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    cache = dataclass_code._Cache(tmp_path / "cache.marshal")
    make_classes(cache.exec, monkeypatch)
    cache.save()
    assert not (tmp_path / "cache.marshal").exists()
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    blocked = tmp_path / "file"
    blocked.write_text("")
    cache = dataclass_code._Cache(blocked / "cache.marshal")  # under a file: cannot be created
    make_classes(cache.exec, monkeypatch)
    cache.save()  # no error
    assert list(tmp_path.iterdir()) == [blocked]


def test_old_texts_are_dropped_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "cache.marshal"
    stale = {f"x = {n}": compile(f"x = {n}", "<string>", "exec") for n in range(5)}
    file.write_bytes(marshal.dumps(stale))
    monkeypatch.setattr(dataclass_code, "MAX_ENTRIES", 3)
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    cache = dataclass_code._Cache(file)
    make_classes(cache.exec, monkeypatch)
    cache.save()
    assert dataclass_code._Cache(file).codes.keys() == cache.used


def test_a_late_import_is_the_real_module_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``dataclasses`` imports for what a check never asks (``inspect``, ``copy``) is a
    stand-in while it is imported: its attributes are the real module's, imported on the first
    read, and ``sys.modules`` keeps no stand-in."""
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    with dataclass_code._imported_on_first_use(("colorsys",)):
        import colorsys as stand_in
    assert "colorsys" not in sys.modules
    assert stand_in.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    import colorsys

    assert colorsys is sys.modules["colorsys"] and colorsys is not stand_in
    assert stand_in.rgb_to_hsv is colorsys.rgb_to_hsv


ASDICT_RUNNER = """
import sys
from evalsubmit.cli import dataclass_code
dataclass_code.install()
import dataclasses
assert "copy" not in sys.modules and "inspect" not in sys.modules

@dataclasses.dataclass
class Row:
    values: list[int]

row = Row([1, 2])
copied = dataclasses.asdict(row)
assert copied == {"values": [1, 2]} and copied["values"] is not row.values
assert "copy" in sys.modules
assert Row.__doc__ == "Row(values: list[int])"
print("ok")
"""


def test_dataclasses_work_whole_with_late_imports() -> None:
    """In a fresh interpreter (nothing imported yet): ``asdict`` copies (``copy`` imported then),
    a class without a docstring gets dataclasses' own (``inspect`` imported then)."""
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-c", ASDICT_RUNNER], capture_output=True, text=True, check=False
    )
    assert proc.stdout.strip() == "ok", proc.stderr
