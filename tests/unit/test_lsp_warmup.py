"""The server's warm-up (lsp/warmup.py): after it, the first hover of a session finds built
whatever pygls's converter needs to read the request and write the answer, and a module whose
previews need the SDK's models for their rendering is recognised as such."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cattrs.gen
import pytest
from lsprotocol import types
from pygls.protocol import JsonRPCResponseMessage

from evalsubmit.analysis import AnalysisOptions, Project, analyze_source
from evalsubmit.lsp import warmup
from evalsubmit.lsp.protocol import EvalsubmitProtocol
from evalsubmit.lsp.server import create_server

HEADER = (
    "import os\n"
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n\n"
)
KNOWN = (
    HEADER + "runner = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
    '    agent="a", agent_config="c.yaml", resources_server="mcqa"))\n'
)
UNKNOWN = KNOWN.replace('agent="a"', 'agent=os.environ["AGENT"]')


def test_after_the_warm_up_a_hover_builds_no_converter_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    protocol = create_server().protocol
    assert isinstance(protocol, EvalsubmitProtocol)
    warmup.warm_codecs(protocol)
    built: list[str] = []

    def recording(make: Any) -> Any:
        def make_and_record(cls: type, *args: Any, **kwargs: Any) -> Any:
            built.append(cls.__name__)
            return make(cls, *args, **kwargs)

        return make_and_record

    # lsprotocol calls these through the module for every class it meets the first time
    monkeypatch.setattr(
        cattrs.gen, "make_dict_unstructure_fn", recording(cattrs.gen.make_dict_unstructure_fn)
    )
    monkeypatch.setattr(
        cattrs.gen, "make_dict_structure_fn", recording(cattrs.gen.make_dict_structure_fn)
    )
    request = {
        "jsonrpc": "2.0",
        "id": 12,
        "method": types.TEXT_DOCUMENT_HOVER,
        "params": {
            "textDocument": {"uri": "file:///work/job.py"},
            "position": {"line": 40, "character": 7},
        },
    }
    assert isinstance(protocol.structure_message(request), types.HoverRequest)
    where = types.Range(
        start=types.Position(line=40, character=4), end=types.Position(line=40, character=10)
    )
    answer = types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="**runner**"),
        range=where,
    )
    written = protocol.serialize(JsonRPCResponseMessage(id=12, result=answer, jsonrpc="2.0"))
    assert '"value": "**runner**"' in written
    assert built == []


def test_previews_needing_the_sdk_models_are_recognised(tmp_path: Path) -> None:
    def report(text: str) -> Any:
        path = tmp_path / "job.py"
        return analyze_source(text, path=path, project=Project(tmp_path), options=AnalysisOptions())

    known, unknown = report(KNOWN), report(UNKNOWN)
    assert known.runners and unknown.runners
    assert not warmup.needs_sdk_models(known)
    assert warmup.needs_sdk_models(unknown)
