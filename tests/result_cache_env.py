"""One result cache folder per test session (the CLI's cache is on by default): tests never
write one into the repository and never read one an earlier session left."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _session_result_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EVALSUBMIT_CACHE_DIR", str(tmp_path_factory.mktemp("evalsubmit-cache")))
        yield
