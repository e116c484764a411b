"""What an editor buffer may reach is kept from one version of it to the next while its
imports are the same (:class:`~evalsubmit.analysis.interp.buffer_stores.BufferStores`): after
any edit, the files that may store a module's attribute are those a fresh index finds."""

from __future__ import annotations

import random
from pathlib import Path

from block_edits import edited_texts
from evalsubmit.analysis.interp.buffer_stores import MAX_KEPT_REACHES, BufferStores
from evalsubmit.analysis.interp.module_stores import ModuleStores
from evalsubmit.analysis.source.chunks import ChunkCache
from evalsubmit.analysis.source.parse import parse_source
from evalsubmit.workspace.project import Project

BLOCKS = (
    "import settings\n",
    "from settings import A\n",
    "import os\n",
    "def f():\n    settings.A = 2\n",
    "A['k'] = 1\n",
    "x = 1\n",
    "def g():\n    return 1\n",
)


def test_a_kept_reach_follows_the_buffers_imports(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    settings = root / "settings.py"
    settings.write_text("A = 1\n")
    main = root / "main.py"
    project = Project(root=root)
    kept = ModuleStores(project)
    cache = ChunkCache()
    rng = random.Random(26)
    seen: set[bool] = set()
    for text in edited_texts(rng, BLOCKS, start=4, steps=200, most=8):
        parsed = parse_source(text, cache)
        pieces = cache.piece_texts(parsed.chunks) if parsed is not None else None
        if pieces is None:  # parsed whole: the engine keeps no pieces of it
            continue
        project.set_overlay(main, text)
        fresh = ModuleStores(project)
        for stores in (kept, fresh):
            stores.note_pieces(main, text, lambda pieces=pieces: pieces)
        found = kept.set_elsewhere(settings, "settings", "A", set())
        assert found == fresh.set_elsewhere(settings, "settings", "A", set()), text
        seen.add(bool(found))
    assert seen == {True, False}


def test_a_buffer_passes_on_a_bounded_number_of_answers() -> None:
    """Each save makes the questions anew: a long session's answers are not all kept."""
    first = BufferStores.of("x = 1\n", ["x = 1\n"], {})
    first.reached[object()] = True
    second = BufferStores.of("x = 2\n", ["x = 2\n"], {}, first)
    assert second.reached is first.reached  # the same imports (none): passed on
    second.reached.update((object(), False) for _ in range(MAX_KEPT_REACHES))
    third = BufferStores.of("x = 3\n", ["x = 3\n"], {}, second)
    assert third.reached == {}
