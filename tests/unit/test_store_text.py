"""The text scan of :mod:`evalsubmit.analysis.interp.store_text`: what a file may store of a
module attribute (a store seen silences what reads the attribute; one missed may leave a wrong
value trusted), and the same answers for an editor buffer kept by piece."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from block_edits import edited_texts
from evalsubmit.analysis.interp.buffer_stores import BufferStores
from evalsubmit.analysis.interp.store_text import TextStores
from evalsubmit.analysis.source.chunks import ChunkCache
from evalsubmit.analysis.source.parse import parse_source

STORES = [
    "m.A = 1",
    "m.A += 1",
    "m.A: int = 1",
    "m . A = 1",
    "x = m.A = 1",
    "m.A, m.B = 1, 2",
    "(m.A, m.B) = 1, 2",
    "[m.A] = [1]",
    "*m.A, b = x",
    "(\n    m.A,  # c\n    m.B,\n) = 1, 2",
    "(\n    m.B,\n    m.A,\n) = 1, 2",
    "x = 1\nm.A, \\\n  m.B = 1, 2",
    "y = m.A, m.B = 1, 2",
    "for m.A in range(3):\n    pass",
    "for i, m.A in x: pass",
    "y = [1 for m.A in z]",
    "with f() as m.A:\n    pass",
    "del m.A",
    "del x, m.A",
    "vars(m)['A'] = 1",
    "vars(m).update(A=1)",
    "m.__dict__['A'] = 1",
    "m.__dict__.update(A=1)",
    "setattr(m, 'A', 1)",
    "setattr(get(m), 'A', 1)",
    "setattr(m, name, 1)",
    "monkeypatch.setattr(m, 'A', 1)",
    'monkeypatch.setattr("pkg.m.A", 1)',
    "object.__setattr__(m, 'A', 1)",
    "object.__setattr__(m, name, 1)",
    "m.__setattr__('A', 1)",
    "m.__setattr__(name, 1)",
    # what it holds changed in place: an item, an attribute of it, a method called
    "m.A['k'] = 1",
    "m.A['k'] += 1",
    "m.A.x = 1",
    "del m.A['k']",
    "m.A.update(k=1)",
    "m.A . pop('k')",
    "m.A['k'].append(1)",
    "m.A[f(x[0])].sub.clear()",
    "(\n    m.A\n    .setdefault('k', 1)\n)",
    "m.A \\\n    .clear()",
    "m.A.get('k')",  # a read, but any method may change what a config object holds
]
READS = [
    "m.A: int",
    "x = m.A",
    "x = m.A, m.B",
    "if m.A == 1: pass",
    "if m.A <= 1: pass",
    "f(m.A, b=1)",
    "Config(agent=m.A, c=m.B)",
    "Config(agent = m.A, c = m.B)",
    "c = Config(\n    agent=m.A, concurrency=m.B,\n)",
    "c = Config(\n    m.A, concurrency=m.B,\n)",
    "x[m.A] = 1",
    "print(m.A)\nx = 1",
    "f(m.A); x = 1",
    "for x in m.A: pass",
    "z = [x for x in m.A]",
    "self.A = 1",
    "cls.A += 1",
    "m.AB = 1",
    "m.A\n= 1",
    "setattr(m, 'B', 1)",
    "setattr(self, name, 1)",
    'monkeypatch.setattr("sys.stdin", io.StringIO(""))',
    "env_vars = vars(args)",
    "setattr(self, 'A', 1)",
    "object.__setattr__(self, 'A', 1)",
    "object.__setattr__(self, name, 1)",
    "super().__setattr__(name, value)",
    "def __setattr__(self, name, value):\n    pass",
    "m.__setattr__('B', 1)",
    "x = m.A['k']",
    "f(m.A['k'])",
    "m.A['k'] == 1",
    "m.A(1)",
    "self.A.update(k=1)",
    "x = m.A['k'] + f(1)",
]
CHANGES = [
    "A['k'] = 1",
    "A['k'] |= {}",
    "A += [1]",
    "A |= {'k': 1}",
    "del A['k']",
    "A.x = 1",
    "A.update(k=1)",
    "A['k'].append(1)",
    "def f():\n    A.clear()",
    "for A['k'] in x: pass",
]
NOT_CHANGES = [
    "A = {}",
    "x = A['k']",
    "del A",
    "for A in x: pass",
    "f(A)",
    "A == B",
    "A <= B",
    "m.A.update(k=1)",
    "B.update(A=1)",
    "AB['k'] = 1",
]


@pytest.mark.parametrize("text", CHANGES)
def test_a_change_in_place_of_a_bare_name_is_seen(text: str) -> None:
    assert TextStores(text).changes_bare("A")


@pytest.mark.parametrize("text", NOT_CHANGES)
def test_a_bare_name_read_or_rebound_is_not_changed(text: str) -> None:
    assert not TextStores(text).changes_bare("A")


def test_an_imported_name_changed_by_its_alias_is_seen() -> None:
    stores = TextStores("from settings import A as L, B\n\nL['k'] = 1\n")
    assert stores.aliases("A") == {"L"}
    assert stores.may_change_imported("A")
    assert not stores.may_change_imported("B")


def test_every_alias_of_a_name_is_found() -> None:
    """``NAME as ALIAS`` over lines too; ``x.NAME as`` and a longer name are not ``NAME``."""
    stores = TextStores("from b import (A  as\n  M, x.A as N, AB as O)\nfrom c import A as K\n")
    assert stores.aliases("A") == {"M", "K"}


def test_a_star_import_is_seen() -> None:
    assert TextStores("from settings import *\n").star_imports()
    assert TextStores("from settings import \\\n    *\n").star_imports()
    assert not TextStores("from settings import A\nx = 2 * 3\n").star_imports()


@pytest.mark.parametrize("text", STORES)
def test_a_store_is_seen(text: str) -> None:
    assert TextStores(text).may_store("A")


@pytest.mark.parametrize("text", READS)
def test_a_read_is_not_a_store(text: str) -> None:
    assert not TextStores(text).may_store("A")


def _pieces(cache: ChunkCache, text: str) -> list[str]:
    parsed = parse_source(text, cache)
    assert parsed is not None
    pieces = cache.piece_texts(parsed.chunks)
    assert pieces is not None
    return pieces


def test_a_buffer_by_piece_answers_as_its_whole_text(tmp_path: Path) -> None:
    """Random edits of a module (statements added, removed, changed): the buffer's answers,
    kept by piece from one version to the next, are those of a scan of its whole text."""
    blocks = [
        "import settings\n",
        "from pkg import other\n",
        "import pkg.sub\n",
        "settings.A = 1\n",
        "settings.B, settings.C = 1, 2\n",
        "x = settings.A\n",
        "def f():\n    other.C += 1\n\n    return 1\n",
        "for settings.D in range(2):\n    pass\n",
        "class K:\n    def g(self):\n        self.A = 2\n",
        "setattr(settings, 'E', 1)\n",
        "settings.F.update(k=1)\n",
        "y = settings.F['k']\n",
        "y = (\n    settings.B,\n    1,\n)\n",
        "\n",
    ]
    rng = random.Random(26)
    cache = ChunkCache()
    statements: dict[tuple[str, int], object] = {}
    previous: BufferStores | None = None
    names = ["A", "B", "C", "D", "E", "F"]
    for text in edited_texts(rng, blocks, start=12, steps=150):
        buffer = BufferStores.of(text, _pieces(cache, text), statements, previous)  # type: ignore[arg-type]
        whole = TextStores(text)
        for name in rng.sample(names, 3):
            assert buffer.may_store(name) == whole.may_store(name), (name, text)
        assert buffer.reaches("settings", frozenset()) == ("import settings" in text), text
        assert buffer.reaches("other", frozenset()) == ("from pkg import other" in text), text
        assert buffer.reaches("x", frozenset({"pkg"})) == ("import pkg.sub" in text), text
        previous = buffer


def test_an_edit_scans_only_the_pieces_it_changed() -> None:
    cache = ChunkCache()
    text = "".join(f"def f{i}():\n    return settings.A\n\n\n" for i in range(50))
    first = BufferStores.of(text, _pieces(cache, text), {})
    assert not first.may_store("A")
    edited = text.replace("def f7():\n    return settings.A", "def f7():\n    settings.A = 2")
    second = BufferStores.of(edited, _pieces(cache, edited), {}, first)
    assert second.may_store("A")
    fresh = [p for p, q in zip(second.pieces, first.pieces, strict=True) if p is not q]
    assert [piece.stores.text for piece in fresh] == ["def f7():\n    settings.A = 2\n\n\n"]


def test_a_buffer_by_piece_sees_changes_in_place_as_its_whole_text() -> None:
    """Random edits of a short module: whether an imported name (or its alias) is changed in
    place, counted by piece from one version to the next, is what a scan of the whole text
    says; both answers occur."""
    blocks = [
        "from settings import F as G\n",
        "G.update(k=1)\n",
        "F['k'] = 2\n",
        "other.append(1)\n",
        "x = 1\n",
        "y = F['k']\n",
        "def f():\n    return G\n",
        "\n",
    ]
    rng = random.Random(26)
    cache = ChunkCache()
    previous: BufferStores | None = None
    seen: set[bool] = set()
    for text in edited_texts(rng, blocks, start=3, steps=300, most=5):
        parsed = parse_source(text, cache)
        pieces = cache.piece_texts(parsed.chunks) if parsed is not None else None
        if pieces is None:  # parsed whole: the engine keeps no pieces of it
            previous = None
            continue
        buffer = BufferStores.of(text, pieces, {}, previous)
        whole = TextStores(text)
        for name in rng.sample(["F", "G", "other"], 2):
            changes = buffer.may_change_imported(name)
            assert changes == whole.may_change_imported(name), (name, text)
            seen.add(changes)
        previous = buffer
    assert seen == {True, False}
