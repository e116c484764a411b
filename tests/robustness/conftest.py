"""The session's real NeMo Platform (tests/platform_service.py), for the live request-body test.
One platform per process however many conftests import the fixture. The CLI's result cache
writes to a folder of the session (tests/result_cache_env.py)."""

from __future__ import annotations

from platform_service import platform_service
from result_cache_env import _session_result_cache

__all__ = ["_session_result_cache", "platform_service"]
