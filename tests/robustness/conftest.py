"""The session's real NeMo Platform (tests/platform_service.py), for the live request-body test.
One platform per process however many conftests import the fixture."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

from platform_service import platform_service  # noqa: E402

__all__ = ["platform_service"]
