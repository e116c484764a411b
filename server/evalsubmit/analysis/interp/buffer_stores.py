"""What an editor buffer may import and store, kept per top-level piece of its text (the pieces
the engine parses it in, :mod:`evalsubmit.analysis.source.chunks`): the next version of the
buffer rescans only the pieces an edit changed, not the whole text at each keystroke.

Every piece holds whole top-level statements, so what one may store is found from its text
alone, as :mod:`.store_text` finds it in a whole file (the same answers but where a string
holding unbalanced brackets spans two pieces; the alias an imported name is changed by is
looked for in the pieces that may import only).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from evalsubmit.analysis.interp.import_reach import (
    Item,
    Place,
    items_of,
    may_change_path,
    places_by_key,
    unresolved_imports,
)
from evalsubmit.analysis.interp.store_text import TextStores, import_words
from evalsubmit.workspace.import_text import Statement, statements_in

_NONE: frozenset[str] = frozenset()
MAX_KEPT_REACHES = 256
"""Questions whose answer a buffer's versions pass on (the files on disk looked at again, at a
save, make each question anew: the old ones are let go)."""


class _Piece:
    __slots__ = ("changes_path", "imported", "last_names", "package_names", "stores")

    def __init__(self, text: str, statements: dict[tuple[str, int], Statement]) -> None:
        self.stores = TextStores(text)
        self.imported: tuple[Item, ...] = (
            items_of(statements_in(text, statements)) if "import" in text else ()
        )
        self.last_names, self.package_names = (
            import_words(unresolved_imports(self.imported)) if self.imported else (_NONE, _NONE)
        )
        # a piece holds whole statements: what may change sys.path is in one piece
        self.changes_path = may_change_path(text)


class BufferStores:
    """One version of a buffer: its pieces, and how many of them import each name (a module's
    last name, a package bound), may store each name asked about so far, may change in place
    what each bare word asked about holds, and give each imported name asked about each of
    its aliases (counts kept from one version to the next: an engine's cached results are
    checked at every edit by asking again, which must not go through every piece)."""

    __slots__ = (
        "_aliases",
        "_bare",
        "_last",
        "_packages",
        "_path_changers",
        "_places",
        "_stars",
        "_stored",
        "digest",
        "pieces",
        "reached",
        "text",
        "texts",
    )

    def __init__(self, text: str, texts: list[str], pieces: list[_Piece]) -> None:
        self.text = text
        self.texts = texts
        self.pieces = pieces
        self.digest: str | None = None
        self._last: dict[str, int] = {}
        self._packages: dict[str, int] = {}
        self._stored: dict[str, int] = {}
        self._bare: dict[str, int] = {}
        self._aliases: dict[str, dict[str, int]] = {}
        self._stars: int | None = None
        """Pieces that import ``*`` (None: not asked yet)."""
        self._path_changers = 0
        """Pieces that may change ``sys.path``."""
        self._places: dict[tuple[str, ...], dict[str, list[Place]]] = {}
        """What the imports name, for the buffer's folder (:func:`.import_reach.places_by_key`),
        made when first asked of this version or one with the same imports."""
        self.reached: dict[object, bool] = {}
        """Whether the buffer may reach each module asked about (by the question of
        :mod:`.importer_index`), kept while its imports are the same."""

    @classmethod
    def of(
        cls,
        text: str,
        texts: list[str],
        statements: dict[tuple[str, int], Statement],
        previous: BufferStores | None = None,
    ) -> BufferStores:
        """The buffer's ``text``, cut in the pieces ``texts``; what ``previous`` (an earlier
        version) kept of the pieces it shares with it at its start and end (the same objects
        as the engine keeps them: compared a block at a time) is reused."""
        if previous is None:
            pieces = [_Piece(piece, statements) for piece in texts]
            made = cls(text, texts, pieces)
            made._count(pieces, 1)
            return made
        # (the per-statement parse's module: loaded only where a buffer has versions)
        from evalsubmit.analysis.source.text_diff import same_ends

        old = previous.texts
        front, back = same_ends(old, texts)
        gone = previous.pieces[front : len(old) - back]
        kept = {piece.stores.text: piece for piece in gone}
        came = [
            kept.get(piece) or _Piece(piece, statements)
            for piece in texts[front : len(texts) - back]
        ]
        pieces = [*previous.pieces[:front], *came, *previous.pieces[len(old) - back :]]
        made = cls(text, texts, pieces)
        made._last = dict(previous._last)
        made._packages = dict(previous._packages)
        made._stored = dict(previous._stored)
        made._bare = dict(previous._bare)
        aliases = dict(previous._aliases)  # (one copy, at once: another thread may ask)
        made._aliases = {name: dict(counts) for name, counts in aliases.items()}
        made._stars = previous._stars
        made._path_changers = previous._path_changers
        made._count(gone, -1)
        made._count(came, 1)
        if not any(piece.imported for piece in (*gone, *came)):
            # the same imports (an edit at each keystroke mostly is): what they name and reach
            made._places = previous._places
            if len(previous.reached) < MAX_KEPT_REACHES:
                made.reached = previous.reached
        return made

    def _count(self, pieces: Iterable[_Piece], step: int) -> None:
        for piece in pieces:
            self._path_changers += step * piece.changes_path
            for name in piece.last_names:
                self._last[name] = self._last.get(name, 0) + step
            for name in piece.package_names:
                self._packages[name] = self._packages.get(name, 0) + step
            for name in self._stored:
                if piece.stores.may_store(name):
                    self._stored[name] += step
            for word in self._bare:
                if piece.stores.changes_bare(word):
                    self._bare[word] += step
            if piece.last_names:
                if self._stars is not None and piece.stores.star_imports():
                    self._stars += step
                for name, counts in self._aliases.items():
                    for alias in piece.stores.aliases(name):
                        counts[alias] = counts.get(alias, 0) + step

    def imported(self) -> Iterator[Item]:
        """The modules the buffer's imports may reach (:mod:`.import_reach`)."""
        for piece in self.pieces:
            yield from piece.imported

    def places(self, folder: tuple[str, ...]) -> dict[str, list[Place]]:
        """What the buffer's imports name, for its ``folder`` (kept for this version)."""
        found = self._places.get(folder)
        if found is None:
            found = self._places[folder] = places_by_key(folder, self.imported())
        return found

    def changes_path(self) -> bool:
        """Whether the buffer may change ``sys.path`` (:func:`.import_reach.may_change_path`
        of its text, counted per piece)."""
        return self._path_changers > 0

    def reaches(self, stem: str, packages: frozenset[str]) -> bool:
        """Whether an import of the buffer names ``stem`` or binds one of ``packages``."""
        return self._last.get(stem, 0) > 0 or any(self._packages.get(p, 0) > 0 for p in packages)

    def imports_name(self, name: str) -> bool:
        """Whether an import of the buffer may bind the bare name ``name`` (named, or ``*``)."""
        if self._last.get(name, 0) > 0:
            return True
        if self._stars is None:
            self._stars = sum(
                piece.stores.star_imports() for piece in self.pieces if piece.last_names
            )
        return self._stars > 0

    def may_change_imported(self, name: str) -> bool:
        """As :meth:`~.store_text.TextStores.may_change_imported`, an alias given in any piece
        that imports."""
        counts = self._aliases.get(name)
        if counts is None:
            counts = {}
            for piece in self.pieces:
                if piece.last_names:
                    for alias in piece.stores.aliases(name):
                        counts[alias] = counts.get(alias, 0) + 1
            self._aliases[name] = counts  # whole: another thread may ask at the same time
        words = [name, *(alias for alias, count in counts.items() if count > 0)]
        return any(self._changes_bare(word) for word in words)

    def _changes_bare(self, word: str) -> bool:
        count = self._bare.get(word)
        if count is None:
            count = self._bare[word] = sum(piece.stores.changes_bare(word) for piece in self.pieces)
        return count > 0

    def may_store(self, name: str) -> bool:
        count = self._stored.get(name)
        if count is None:
            count = self._stored[name] = sum(piece.stores.may_store(name) for piece in self.pieces)
        return count > 0
