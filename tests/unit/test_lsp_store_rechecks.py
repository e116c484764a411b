"""When a file changes, the module stores' answers of the open documents are asked again
(lsp/store_rechecks.py) only if some document's current result asked any: the document just
edited is analysed again anyway, and no timer (even of 0 s) is armed for it alone."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from evalsubmit.lsp.store_rechecks import StoreRechecks


@dataclass
class Report:
    store_answers: dict[Any, Any] = field(default_factory=dict)


@dataclass
class Result:
    stamp: int
    report: Report


@dataclass
class Track:
    stamp: int
    latest: Result | None


def rechecks(documents: dict[str, Any]) -> StoreRechecks:
    return StoreRechecks(documents, lambda path: None, None, lambda tracks: None)  # type: ignore[arg-type,return-value]


async def test_no_look_for_a_document_that_is_analysed_again() -> None:
    edited = Track(stamp=2, latest=Result(stamp=1, report=Report({"q": "a"})))
    plain = Track(stamp=1, latest=Result(stamp=1, report=Report()))
    stores = rechecks({"edited": edited, "plain": plain})
    stores.schedule(0.0)
    assert stores._pending is None


async def test_a_look_for_another_document_whose_result_asked() -> None:
    edited = Track(stamp=2, latest=Result(stamp=1, report=Report({"q": "a"})))
    reader = Track(stamp=5, latest=Result(stamp=5, report=Report({"q": "a"})))
    stores = rechecks({"edited": edited, "reader": reader})
    stores.schedule(0.5)
    assert stores._pending is not None
    assert stores._pending.when() > asyncio.get_running_loop().time()
    stores.cancel()
