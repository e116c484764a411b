"""The session's real NeMo Platform (tests/platform_service.py), for the live request-body test.
One platform per process however many conftests import the fixture."""

from __future__ import annotations

from platform_service import platform_service

__all__ = ["platform_service"]
