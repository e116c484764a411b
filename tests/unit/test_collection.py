"""The collector is paused while analyses run (overlapping ones share the pause, bounded in
time) and always resumed."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from evalsubmit.analysis import analyze_source
from evalsubmit.core import collection
from evalsubmit.core.collection import paused_collection


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_resumed_after_even_on_error() -> None:
    with pytest.raises(ValueError), paused_collection():
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()


def test_nested_pauses_resume_once_at_the_outer_end() -> None:
    with paused_collection():
        with paused_collection():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_host_that_turned_it_off_keeps_it_off() -> None:
    gc.disable()
    with paused_collection():
        pass
    assert not gc.isenabled()
    analyze_source("import nemo_platform\nx = 1\n")
    assert not gc.isenabled()


def _overlap() -> list[bool]:
    """A pauses; B starts while A runs; A ends: whether the collector is on while B still runs."""
    a_started, a_done, b_checked = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with paused_collection():
            a_started.set()
            b_checked.wait(5)
        a_done.set()

    def second() -> None:
        a_started.wait(5)
        with paused_collection():
            b_checked.set()
            a_done.wait(5)
            seen.append(gc.isenabled())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return seen


def test_overlapping_analyses_share_the_pause() -> None:
    # the end of one analysis must not let the collector run in the middle of the other
    assert _overlap() == [False]
    assert gc.isenabled()


def test_a_long_shared_pause_ends_with_the_next_analysis_that_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(collection, "MAX_PAUSED_S", 0.0)
    assert _overlap() == [True]
    assert gc.isenabled()
    with paused_collection():  # a new pause after that one
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_analysis_leaves_it_on() -> None:
    analyze_source("import nemo_platform\nx = 1\n")
    assert gc.isenabled()
