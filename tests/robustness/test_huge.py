"""Huge and pathological inputs: a clear, bounded outcome (skipped with a reason above the size
limit, findings or nothing below it), never an exception, through the engine and the server.

Timings are printed (``-s``); the assertions on time are generous (shared machines).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from lsprotocol import types

from evalsubmit.analysis import AnalysisOptions, ModuleReport, analyze_source

from .inputs import SDK_HEADER, check_report
from .lsp_support import (
    hover,
    open_doc,
    published_for,
    running_server,
    server_alive,
    wait_until,
)

LINES = 200_000
RUNNER = """\
cfg = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="mcqa")
runner = GymAgentTaskRunner(config=cfg)
"""
ES102_CALL = (
    'client.evaluator.submit(tasks="qa/smoke", target=runner, config=RunConfig(parallelism=2))\n'
)
PREFIX = SDK_HEADER + RUNNER + ES102_CALL
"""A module whose last line holds an ES102; what follows it is the huge part."""


def timed(text: str, **options: int) -> tuple[ModuleReport, float]:
    start = time.perf_counter()
    report = analyze_source(text, options=AnalysisOptions(**options))  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    check_report(report)
    return report, seconds


def codes(report: ModuleReport) -> list[str]:
    return [f.code for f in report.findings]


def many_lines(n: int = LINES) -> str:
    body = "".join(f"x{i % 10} = {i % 7}\n" for i in range(n - PREFIX.count("\n") - 1))
    return PREFIX + body + ES102_CALL


def string_literal(size: int = 1_000_000) -> str:
    return PREFIX + "blob = '" + "x" * size + "'\n" + ES102_CALL


# -- through the engine -----------------------------------------------------------------------


LONG = bool(os.environ.get("EVALSUBMIT_LONG"))


@pytest.mark.parametrize(
    "lines",
    [
        10_000,
        pytest.param(
            LINES,
            marks=pytest.mark.skipif(not LONG, reason="long run (~1 min): EVALSUBMIT_LONG=1"),
        ),
    ],
)
def test_huge_file_below_the_limit_is_analysed(lines: int) -> None:
    text = many_lines(lines)
    assert text.count("\n") == lines and len(text) < AnalysisOptions().max_chars
    report, seconds = timed(text)
    print(f"\n[huge] {lines} lines ({len(text)} chars) analysed in {seconds:.1f} s")
    assert report.skipped is None
    assert codes(report) == ["ES102", "ES102"]
    assert report.findings[-1].span.line == lines
    assert seconds < lines / 200_000 * 600


def test_200k_line_file_above_the_limit_is_skipped_with_a_reason() -> None:
    text = many_lines()
    report, seconds = timed(text, max_chars=1_000_000)
    print(f"\n[huge] {LINES} lines over the limit skipped in {1000 * seconds:.1f} ms")
    assert report.skipped == "file is larger than 1000000 characters"
    assert report.findings == ()
    assert seconds < 1


def test_1mb_string_literal() -> None:
    text = string_literal()
    report, seconds = timed(text)
    print(f"\n[huge] 1 MB string literal analysed in {1000 * seconds:.0f} ms")
    assert report.skipped is None and codes(report) == ["ES102", "ES102"]
    assert seconds < 30
    skipped, _ = timed(text, max_chars=512 * 1024)
    assert skipped.skipped is not None and "larger than" in skipped.skipped


DEEP = 10_000
NESTED = {
    "parens": "(" * DEEP + "1" + ")" * DEEP,
    "lists": "[" * DEEP + "1" + "]" * DEEP,
    "dicts": '{"k": ' * DEEP + "1" + "}" * DEEP,
    "calls": "f(" * DEEP + "1" + ")" * DEEP,
    "subscripts": "a" + "[0]" * DEEP,
    "attributes": "a" + ".b" * (10 * DEEP),
    "binop chain": " + ".join(["1"] * (10 * DEEP)),
    "unary chain": "-" * DEEP + "1",
    "not chain": "not " * DEEP + "x",
    "lambdas": "lambda: " * 1000 + "1",
    "conditional chain": "1 if x else " * DEEP + "2",
    "implicit concatenation": " ".join(['"ab"'] * (10 * DEEP)),
    "nested f-strings": 'f"{' * 50 + "1" + '}"' * 50,
}


@pytest.mark.parametrize("shape", sorted(NESTED))
def test_deeply_nested_expression(shape: str) -> None:
    text = PREFIX + "deep = " + NESTED[shape] + "\n"
    report, seconds = timed(text)
    print(f"\n[huge] {shape}: {report.skipped or codes(report)} in {1000 * seconds:.0f} ms")
    # A reason, or the module's findings (the broken statement alone blanked), or nothing.
    assert report.skipped is not None or codes(report) in ([], ["ES102"])
    assert seconds < 30


def test_deeply_nested_statements() -> None:
    blocks = "".join(" " * i + "if x:\n" for i in range(120)) + " " * 120 + "pass\n"
    defs = "".join(" " * i + "def f():\n" for i in range(99)) + " " * 99 + "return 1\n"
    for body in (blocks, defs):
        report, seconds = timed(PREFIX + body)
        assert report.skipped is not None or codes(report) in ([], ["ES102"])
        assert seconds < 30


# Values the abstract interpreter builds: huge or self-referential (regressions found here).
PATHOLOGICAL = {
    # computed eagerly before the fix: a 10 GB string
    "string repeated 10**10 times": 's = "a" * 10**10\nhp = {"k": s}\n',
    "f-string of a repeated string": 's = f"{\'a\' * 10**10}"\nhp = {"k": s}\n',
    # RecursionError out of analyze_source before the fix
    "value nested 5000 deep": "hp = {}\n" + 'hp = {"a": hp}\n' * 5000,
    "dict that contains itself": 'hp = {}\nhp["a"] = hp\n',
    "list that contains itself": "hp = []\nhp.append(hp)\nhp = {'k': hp}\n",
    "doubling string": 's = "ab"\n' + "s = s + s\n" * 60 + 'hp = {"k": s}\n',
    "huge power": "s = 2 ** (2 ** 40)\nhp = {'k': s}\n",
    "huge range": "s = list(range(10**10))\nhp = {'k': s}\n",
    "huge join": 's = "x".join(["ab"] * 10**9)\nhp = {"k": s}\n',
    "recursive function": "def f(n):\n    return f(n)\nhp = {'k': f(1)}\n",
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological_values(name: str) -> None:
    use = (
        'cfg2 = GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", '
        "hydra_params=hp)\nclient.evaluator.submit(tasks='qa/x', target=GymAgentTaskRunner("
        "config=cfg2))\n"
    )
    report, seconds = timed(PREFIX + PATHOLOGICAL[name] + use)
    print(f"\n[huge] {name}: {report.skipped or codes(report)} in {1000 * seconds:.0f} ms")
    assert seconds < 30


# -- through the server -----------------------------------------------------------------------


async def test_huge_inputs_through_the_server(tmp_path: Path) -> None:
    """Above ``maxFileSizeKb``: skipped with a logged reason; below: findings; never a crash."""
    async with running_server(tmp_path, {"maxFileSizeKb": 1024, "debounceMs": 0}) as client:
        docs = {
            "lines.py": many_lines(),  # 1.4 MB: over the 1024 KiB limit
            "literal.py": string_literal(),  # 1 MB: under it
            "parens.py": PREFIX + "deep = " + NESTED["parens"] + "\n",
            "values.py": PREFIX
            + PATHOLOGICAL["value nested 5000 deep"]
            + "client.evaluator.submit(tasks='qa/x', target=GymAgentTaskRunner(config="
            'GymRuntimeConfig(agent="a", agent_config="c", resources_server="r", '
            "hydra_params=hp)))\n",
            "small.py": PREFIX,
        }
        started = time.perf_counter()
        uris = {}
        for name, text in docs.items():
            path = tmp_path / name
            path.write_text(text, encoding="utf-8")
            uris[name] = open_doc(client, path, text)

        def all_published() -> bool:
            return all(published_for(client, uri, 1) is not None for uri in uris.values())

        await wait_until(all_published, 300, "diagnostics of every huge document")
        seconds = time.perf_counter() - started
        print(f"\n[huge] server: {len(docs)} huge documents published in {seconds:.1f} s")

        def published_codes(name: str) -> list[str]:
            params = published_for(client, uris[name], 1)
            assert params is not None
            return [str(d.code) for d in params.diagnostics]

        assert published_codes("lines.py") == []
        assert published_codes("literal.py") == ["ES102", "ES102"]
        assert published_codes("small.py") == ["ES102"]
        logs = "\n".join(m.message for m in client.log_messages)
        assert "skipped" in logs and "larger than 1048576 characters" in logs, logs[-2000:]

        # Still answering: a hover on the small document, and debugInfo names the reason.
        line = PREFIX.count("\n") - 1
        answer = await hover(client, uris["small.py"], line, ES102_CALL.index("submit") + 1)
        assert answer is not None
        info = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="evalsubmit.debugInfo")
        )
        assert info is not None
        reasons = {d["uri"].rsplit("/", 1)[-1]: d["skipped"] for d in info["documents"]}
        assert "larger than" in (reasons["lines.py"] or "")
        assert server_alive(client)
