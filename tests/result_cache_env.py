"""One result cache folder per test session (the CLI's cache is on by default): tests never
write one into the repository and never read one an earlier session left. The key of its
entries is kept in a user cache folder of the session too, never in the real user's home.

And the result cache tests' own fixtures: a cache folder of the test, the files analysed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from evalsubmit.cli import check_analysis as check_module


@pytest.fixture(autouse=True, scope="session")
def _session_result_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EVALSUBMIT_CACHE_DIR", str(tmp_path_factory.mktemp("evalsubmit-cache")))
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
        yield


class Counted:
    """Counts the files the CLI analyses (in this process: fewer files than the pool needs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[Path] = []
        original: Callable[..., check_module.FileResult] = check_module._analyse_one

        def counting(path: Path, *args: object, **kwargs: object) -> check_module.FileResult:
            self.paths.append(path)
            return original(path, *args, **kwargs)

        monkeypatch.setattr(check_module, "_analyse_one", counting)

    def take(self) -> int:
        count, self.paths = len(self.paths), []
        return count


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counted:
    return Counted(monkeypatch)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own cache folder."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("EVALSUBMIT_CACHE_DIR", str(folder))
    return folder
