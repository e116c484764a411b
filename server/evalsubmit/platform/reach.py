"""Whether a platform answers at a configured base URL, for the editor's status item and the
check before a first submission.

One cheap request (the workspace's tasksets, first page) with a short time limit: any HTTP
answer, even a refusal of the token or an unknown workspace, means something answers there.
Answers are kept a few seconds, so a status bar that asks on every editor switch does not send
a request each time, while a platform that was just started is seen soon.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from evalsubmit.core.records import record

from .client import PlatformClient
from .config import ResolvedPlatformConfig
from .errors import PlatformError, PlatformErrorKind

PROBE_TIMEOUT_S = 4.0
REACH_TTL_S = 10.0

# Only these mean "nothing usable answers there"; any other failure came from the platform.
_UNREACHABLE = frozenset(
    {
        PlatformErrorKind.CONNECTION_REFUSED,
        PlatformErrorKind.CONNECTION,
        PlatformErrorKind.TIMEOUT,
        PlatformErrorKind.TLS,
        PlatformErrorKind.CONFIG,
        PlatformErrorKind.REDIRECT,
    }
)


@record
class Reach:
    reachable: bool
    #: Why not, in words fit for the user (never the token).
    error: str | None = None


async def probe(config: ResolvedPlatformConfig) -> Reach:
    """Ask the platform of ``config`` once, within ``PROBE_TIMEOUT_S``."""
    quick = config.model_copy(update={"timeout_s": min(config.timeout_s, PROBE_TIMEOUT_S)})
    try:
        async with PlatformClient.from_config(quick) as client:
            await client.list_tasksets(quick.workspace, max_pages=1)
    except PlatformError as err:
        if err.kind in _UNREACHABLE:
            return Reach(False, err.message)
    return Reach(True)


class ReachCache:
    """`probe` answers per base URL, CA bundle and token presence, kept ``ttl_s`` seconds."""

    def __init__(
        self, ttl_s: float = REACH_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl_s = ttl_s
        self._clock = clock
        self._answers: dict[tuple[str, str | None, bool], tuple[float, Reach]] = {}

    async def check(self, config: ResolvedPlatformConfig) -> Reach:
        key = (config.base_url, config.ca_bundle, config.token is not None)
        now = self._clock()
        kept = self._answers.get(key)
        if kept is not None and now - kept[0] < self._ttl_s:
            return kept[1]
        reach = await probe(config)
        self._answers[key] = (self._clock(), reach)
        return reach
