"""Statement identities from their texts: ``digest+line in chunk:column``, and ``#n`` for the
n-th repeat of the same text (:class:`.keys.KeyState`)."""

from __future__ import annotations


def identities(
    old: list[str], removed: list[str], added: list[str], bases: list[str], first: int
) -> tuple[list[str], bool]:
    """The identities of ``bases``, where ``added`` took the place of ``removed`` at
    ``first`` in the bases whose identities were ``old``; and whether every identity outside
    the edit is the same as there. It is when no text the edit removed or added is found
    outside it (no repeat elsewhere is renumbered): then they are taken from ``old``."""
    if len(removed) + len(added) <= _FEW and len(old) - len(removed) == len(bases) - len(added):
        edited = {*removed, *added}
        if all(bases.count(base) == added.count(base) for base in edited):
            return [*old[:first], *numbered(added), *old[first + len(removed) :]], True
    return numbered(bases), False


_FEW = 8
"""Up to this many texts removed and added, each is looked for outside the edit (a scan of
the statements at C speed); past it, every identity is made again."""


def numbered(bases: list[str]) -> list[str]:
    """Identities from texts: the n-th repeat of a text gets ``#n``."""
    seen: dict[str, int] = {}
    found = []
    for base in bases:
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.append(f"{base}#{count}" if count else base)
    return found
