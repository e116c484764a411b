"""Platform-test fixtures: the session's real NeMo Platform (tests/platform_service.py)."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

from platform_service import PlatformService, platform_service  # noqa: E402

__all__ = ["PlatformService", "platform_service"]
