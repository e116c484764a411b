"""Platform-test fixtures: the session's real NeMo Platform (tests/platform_service.py)."""

from __future__ import annotations

from platform_service import PlatformService, platform_service

__all__ = ["PlatformService", "platform_service"]
