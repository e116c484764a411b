"""Fixtures of the unit tests: real Python environments with fake installed packages."""

import pytest

from engine_strict import _strict_engine  # noqa: F401  (autouse: engine bugs fail tests)
from fake_env import installed_env  # noqa: F401  (the session fixture)
from result_cache_env import (  # noqa: F401  (the result cache tests' fixtures)
    _session_result_cache,
    cache,
    counted,
)


@pytest.fixture(autouse=True)
def _no_active_virtualenv(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI reads the active virtualenv's packages by default: the developer's must not
    change what these tests see."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
