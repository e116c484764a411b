"""What the platform holds that the editor completes (tasksets, workspaces), kept for a short
time per session so that typing never waits for the network.

:meth:`Catalog.lookup` answers at once from what is kept; :meth:`Catalog.refresh` fetches in the
background, one fetch per key at a time. A failure (offline, refused, a bad setting) keeps what
was known, waits one lifetime before trying again, and is logged once until a fetch succeeds:
completion stays quiet, never a popup. Items hold names and descriptions only, never anything
of the connection (its token): a key tells tokens apart by a digest.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from evalsubmit.core.blake import blake2b
from evalsubmit.core.records import record

from .errors import PlatformError

if TYPE_CHECKING:
    from pydantic import SecretStr

log = logging.getLogger(__name__)

TTL_S = 30.0
"""A list this old is refreshed on the next completion (and answered meanwhile)."""

ItemKind = Literal["taskset", "workspace"]


@record
class CatalogItem:
    kind: ItemKind
    name: str
    workspace: str
    description: str | None = None

    @property
    def ref(self) -> str:
        return f"{self.workspace}/{self.name}" if self.kind == "taskset" else self.name


@record
class CatalogKey:
    base_url: str
    kind: ItemKind
    workspace: str
    """The workspace listed (``""`` for the list of workspaces)."""
    credential: str = ""
    """A digest of the token the list was fetched with (:func:`credential_of`): another token
    may see other workspaces, so its lists are fetched anew, never answered from these."""


def credential_of(token: SecretStr | None) -> str:
    """A short one-way digest of ``token`` (``""`` without one): a key can then tell tokens
    apart without holding one."""
    if token is None:
        return ""
    return blake2b(token.get_secret_value().encode(), digest_size=8).hexdigest()


@dataclass(slots=True)
class _Entry:
    items: tuple[CatalogItem, ...]
    at: float
    failed: bool = False


Fetch = Callable[[], Awaitable[list[CatalogItem]]]


class Catalog:
    def __init__(self, ttl_s: float = TTL_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self._clock = clock
        self._entries: dict[CatalogKey, _Entry] = {}
        self._fetching: dict[CatalogKey, asyncio.Task[None]] = {}
        self._failing: set[CatalogKey] = set()

    def lookup(self, key: CatalogKey) -> tuple[tuple[CatalogItem, ...], bool]:
        """What is known for ``key``, and whether it is fresh (no refresh is due)."""
        entry = self._entries.get(key)
        if entry is None:
            return (), False
        return entry.items, self._clock() - entry.at < self.ttl_s

    def known(self, key: CatalogKey) -> bool:
        """Whether ``key`` was fetched (or tried) at all."""
        return key in self._entries

    def refresh(self, key: CatalogKey, fetch: Fetch) -> asyncio.Task[None]:
        """Fetch ``key`` in the background unless a fetch of it is under way; the task never
        raises."""
        running = self._fetching.get(key)
        if running is not None and not running.done():
            return running
        task = asyncio.get_running_loop().create_task(self._fetch(key, fetch))
        self._fetching[key] = task
        return task

    async def _fetch(self, key: CatalogKey, fetch: Fetch) -> None:
        try:
            items = tuple(await fetch())
        except PlatformError as err:
            self._failed(key, err.message)
        except Exception as exc:  # completion must never surface an error
            self._failed(key, f"{type(exc).__name__}: {exc}")
        else:
            self._entries[key] = _Entry(items, self._clock())
            self._failing.discard(key)
        finally:
            self._fetching.pop(key, None)

    def _failed(self, key: CatalogKey, message: str) -> None:
        previous = self._entries.get(key)
        self._entries[key] = _Entry(previous.items if previous else (), self._clock(), True)
        if key not in self._failing:
            self._failing.add(key)
            what = f"the tasksets of {key.workspace}" if key.kind == "taskset" else "workspaces"
            log.warning("completion: could not list %s: %s", what, message)
