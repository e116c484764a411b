"""Files on disk in every encoding Python accepts, read by the real CLI (a subprocess) and by the
real server (the modules an open document imports), with the same findings and values.

Python decodes a source file by its BOM or PEP 263 coding cookie, else as UTF-8; evalsubmit used
to decode everything as UTF-8 (``caf\\ufffd``). Line ends (CRLF, a lone CR) and form feeds are
kept as they are, so a finding's line is the line an editor shows.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from lsprotocol import types

from .lsp_support import hover, open_doc, published_for, running_server, wait_until

BIN = Path(sys.executable).parent
BODY = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n"
    "from nemo_evaluator_sdk import RunConfig\n"
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "from nemo_platform import NeMoPlatform\n"
    "# déjà vu: a comment that is not ASCII\n"
    'client = NeMoPlatform(workspace="qa")\n'
    "runner = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
    '    agent="café", agent_config="c.yaml", resources_server="mcqa"))\n'
    "client.evaluator.submit(tasks=TasksetRef('qa/smoke'), target=runner, "
    "config=RunConfig(parallelism=2))\n"
)
VARIANTS: dict[str, bytes] = {
    "utf8": BODY.encode(),
    "bom": b"\xef\xbb\xbf" + BODY.encode(),
    "bom_cookie": b"\xef\xbb\xbf# -*- coding: utf-8 -*-\n" + BODY.encode(),
    "latin1": b"# -*- coding: latin-1 -*-\n" + BODY.encode("latin-1"),
    "cp1252": b"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n" + BODY.encode("cp1252"),
    "crlf": BODY.replace("\n", "\r\n").encode(),
    "cr": BODY.replace("\n", "\r").encode(),
    "form_feed": ("\f\n" + BODY.replace("client = ", "\fclient = ")).encode(),
    # no cookie and a byte that is not UTF-8 (in a comment): replaced, the rest still checked
    "stray_byte": BODY.replace("déjà vu", "d\udce9j\udce0 vu").encode("utf-8", "surrogateescape"),
    "encoded_surrogate": BODY.replace("déjà vu", "\ud800").encode("utf-8", "surrogatepass"),
}


def expected_line(name: str) -> int:
    """1-based line of the submit() call in the text as Python decodes it (LSP line breaks)."""
    data = VARIANTS[name]
    text = data.decode(
        "latin-1" if name == "latin1" else "cp1252" if name == "cp1252" else "utf-8", "replace"
    )
    return len(re.findall(r"\r\n|\r|\n", text[: text.index("client.evaluator.submit")])) + 1


def test_the_cli_finds_the_same_thing_in_every_encoding(tmp_path: Path) -> None:
    for name, data in VARIANTS.items():
        (tmp_path / f"job_{name}.py").write_bytes(data)
    proc = subprocess.run(
        [str(BIN / "evalsubmit"), "check", "--format", "json", str(tmp_path)],
        capture_output=True,
        timeout=300,
    )
    data = json.loads(proc.stdout)
    assert data["skipped"] == [] and data["files_checked"] == len(VARIANTS), data
    found = {
        Path(f["path"]).stem.removeprefix("job_"): (f["code"], f["line"]) for f in data["findings"]
    }
    assert found == {name: ("ES102", expected_line(name)) for name in VARIANTS}


def test_preview_decodes_like_python(tmp_path: Path) -> None:
    for name in ("latin1", "cp1252", "bom", "crlf"):
        path = tmp_path / f"{name}.py"
        path.write_bytes(VARIANTS[name])
        line = expected_line(name) - 2  # the runner's line
        proc = subprocess.run(
            [str(BIN / "evalsubmit"), "preview", f"{path}:{line}"],
            capture_output=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["agent"] == "café", name


def test_an_unknown_coding_is_a_skip_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "odd.py").write_bytes(b"# coding: klingon\n" + BODY.encode())
    proc = subprocess.run(
        [str(BIN / "evalsubmit"), "check", "--format", "json", str(tmp_path)],
        capture_output=True,
        timeout=120,
    )
    (skip,) = json.loads(proc.stdout)["skipped"]
    assert skip["path"].endswith("odd.py") and "unknown encoding: klingon" in skip["reason"]


async def test_the_server_reads_imported_modules_like_python(tmp_path: Path) -> None:
    """The open document imports a runner from a module on disk in each encoding; the hover on
    `target=` shows the value as Python would read it."""
    names = ["latin1", "cp1252", "bom", "bom_cookie", "crlf", "cr"]
    for name in names:
        (tmp_path / f"mod_{name}.py").write_bytes(VARIANTS[name].split(b"client.evaluator")[0])
    lines = [
        "from nemo_evaluator.api.schemas import TasksetRef",
        "from nemo_platform import NeMoPlatform",
        *(f"from mod_{name} import runner as runner_{name}" for name in names),
        'client = NeMoPlatform(workspace="qa")',
        *(
            f"client.evaluator.submit(tasks=TasksetRef('qa/smoke'), target=runner_{name})"
            for name in names
        ),
    ]
    text = "\n".join(lines) + "\n"
    async with running_server(tmp_path, {"debounceMs": 0}) as client:
        uri = open_doc(client, tmp_path / "job.py", text)
        await wait_until(lambda: published_for(client, uri, 1), 120, "diagnostics")
        for index, name in enumerate(names):
            line = len(lines) - len(names) + index
            column = lines[line].index(f"runner_{name}")
            answer = await hover(client, uri, line, column)
            assert isinstance(answer, types.Hover), name
            assert isinstance(answer.contents, types.MarkupContent)
            assert '"agent": "café"' in answer.contents.value, (name, answer.contents.value)


CODECS = {"latin1": "latin-1", "cp1252": "cp1252"}
EDITOR_ONLY = {
    # What an editor can send but a file cannot hold as such: a lone surrogate, separators.
    "lone_surrogate": BODY.replace("déjà vu", "\ud800 vu"),
    "line_separators": BODY.replace("déjà vu", "a\u2028b\x85c\x1cd\vé"),
}


def as_python_reads(name: str) -> str:
    """The text Python decodes from the variant's bytes (what an editor shows and sends)."""
    if name in EDITOR_ONLY:
        return EDITOR_ONLY[name]
    text = VARIANTS[name].decode(CODECS.get(name, "utf-8"), "replace")
    return text.removeprefix("\ufeff") if name == "bom" else text  # one with its BOM kept


async def test_the_server_finds_what_the_cli_finds_in_every_encoding(tmp_path: Path) -> None:
    """The encoding suite through both tools: the CLI reads the bytes from disk, the server
    gets the text an editor sends; the findings (code, line, column) must be the same."""
    for name, data in VARIANTS.items():
        (tmp_path / f"job_{name}.py").write_bytes(data)
    for name, text in EDITOR_ONLY.items():
        (tmp_path / f"job_{name}.py").write_bytes(text.encode("utf-8", "surrogatepass"))
    proc = subprocess.run(
        [str(BIN / "evalsubmit"), "check", "--format", "json", str(tmp_path)],
        capture_output=True,
        timeout=300,
    )
    report = json.loads(proc.stdout)
    names = [*VARIANTS, *EDITOR_ONLY]
    by_cli: dict[str, list[tuple[str, int, int]]] = {name: [] for name in names}
    for f in report["findings"]:
        by_cli[Path(f["path"]).stem.removeprefix("job_")].append(
            (f["code"], f["line"], f["column"])
        )
    async with running_server(tmp_path, {"debounceMs": 0}) as client:
        uris = {
            name: open_doc(client, tmp_path / f"job_{name}.py", as_python_reads(name))
            for name in names
        }
        await wait_until(
            lambda: all(published_for(client, uri, 1) for uri in uris.values()), 120, "diagnostics"
        )
        by_server = {}
        for name, uri in uris.items():
            published = published_for(client, uri, 1)
            assert published is not None
            by_server[name] = [
                (str(d.code), d.range.start.line + 1, d.range.start.character + 1)
                for d in published.diagnostics
            ]
    assert by_server == by_cli
    for name in VARIANTS:
        assert [(code, line) for code, line, _ in by_cli[name]] == [("ES102", expected_line(name))]
