"""``textDocument/didChange`` built without cattrs (lsp/text_sync.py ``structure_did_change``):
the same objects cattrs makes of the usual shape, and nothing (cattrs then decides) for any
other: a wrong type, a value a validator rejects, a key too many or too few."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol import default_converter

from evalsubmit.lsp.text_sync import structure_did_change

CONVERTER = default_converter()


def message(*changes: dict[str, Any], version: Any = 7) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {
            "textDocument": {"uri": "file:///w/job.py", "version": version},
            "contentChanges": list(changes),
        },
    }


def partial(line: Any = 3, character: Any = 4, text: Any = "x", **more: Any) -> dict[str, Any]:
    start = {"line": line, "character": character}
    return {"range": {"start": start, "end": {"line": 5, "character": 0}}, "text": text, **more}


def cattrs(data: dict[str, Any]) -> Any:
    return CONVERTER.structure(data, types.DidChangeTextDocumentNotification)


USUAL = [
    message(partial()),
    message(partial(text="")),
    message(partial(text="é😀\r\n", rangeLength=3)),
    message({"text": "whole\n"}),
    message(partial(), {"text": "a"}, partial(0, 0, "b")),
    message(),
    message(partial(), version=-1),
    {**message(partial()), "jsonrpc": "1.0"},  # pygls rejects the version, not the structure
]


@pytest.mark.parametrize("data", USUAL)
def test_the_usual_shape_gives_what_cattrs_gives(data: dict[str, Any]) -> None:
    built = structure_did_change(copy.deepcopy(data))
    assert built is not None
    assert built == cattrs(data)


UNUSUAL = [
    message(partial(line=-1)),  # the validator's
    message(partial(line=2**31)),
    message(partial(line=1.0)),  # cattrs converts
    message(partial(line=True)),
    message(partial(line="1")),
    message(partial(text=5)),
    message(partial(rangeLength=-2)),
    message(partial(rangeLength="2")),
    message(partial(extra=1)),
    message({"text": "a", "extra": 1}),
    message({"range": {"start": {"line": 0, "character": 0}}, "text": "a"}),
    message(partial(), version=None),
    message(partial(), version=2**40),
    message(partial(), version="7"),
    {**message(partial()), "id": None},
    {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": None},
    {"jsonrpc": "2.0", "method": "textDocument/didChange"},
    {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"contentChanges": []}},
    {**message(partial()), "jsonrpc": 2},
]


@pytest.mark.parametrize("data", UNUSUAL)
def test_anything_else_is_left_to_cattrs(data: dict[str, Any]) -> None:
    assert structure_did_change(copy.deepcopy(data)) is None


def test_random_edits_give_what_cattrs_gives() -> None:
    chooser = random.Random(26)
    for _ in range(300):
        changes = [
            partial(
                chooser.randrange(10_000),
                chooser.randrange(300),
                "".join(chooser.choice("ab \n\r\té😀") for _ in range(chooser.randrange(6))),
                **({"rangeLength": chooser.randrange(9)} if chooser.random() < 0.3 else {}),
            )
            for _ in range(chooser.randrange(1, 4))
        ]
        data = message(*changes, version=chooser.randrange(-5, 10**6))
        assert structure_did_change(copy.deepcopy(data)) == cattrs(data)
