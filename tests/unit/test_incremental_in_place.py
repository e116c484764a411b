"""Edits that leave every statement's reads and writes as they were (a literal typed inside a
call, the commonest edit) take the in-place path: the statement tables, keys and results of
the last analysis are kept, and only the statements of the chunks the edit touched (and what
their keys reach) are looked at. Nothing kept may go stale: after every edit of long random
sequences, the whole report equals a fresh analysis (in order, field by field), and the kept
structures equal those a first analysis of the same text builds."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from test_incremental_programs import CONFIG, HEADER, PURE, SUBMIT, edit, statement

from evalsubmit.analysis import DocumentAnalyzer, ModuleReport, Project, analyze_source
from evalsubmit.analysis.engine.caches import AnalysisCaches
from evalsubmit.analysis.source.parse import parse_source

SEEDS = int(os.environ.get("EVALSUBMIT_PROGRAM_SEEDS", "6"))
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
GATED = (
    "if not 0:\n    def gated():\n"
    f"        {SUBMIT}('qa/g'), target=GymAgentTaskRunner(config={CONFIG}, max_turns=lambda: 0)))"
)
"""A literal edit that flips the test makes the statement define a function, or stop to: its
function bodies' results come and go while its reads and writes stay."""


def everything(report: ModuleReport) -> str:
    """The whole report, every field in its order (objects' addresses aside)."""
    return _ADDRESS.sub(" at 0x?", repr(report))


def literal_edit(text: str, rng: random.Random) -> str:
    """A character typed, replaced or deleted inside a literal (a number, a taskset name),
    leaving the code parseable."""
    places = [m.start() for m in re.finditer(r"(?<![A-Za-z_0-9])[0-9]+|(?<=qa/)[a-z]", text)]
    if not places:
        return text
    at = rng.choice(places)
    digit = text[at].isdigit()
    roll = rng.random()
    if roll < 0.4:
        return text[:at] + rng.choice("123456789" if digit else "xyz") + text[at:]
    if roll < 0.7 or not text[at + 1].isalnum():
        return text[:at] + rng.choice("123456789" if digit else "xyz") + text[at + 1 :]
    return text[:at] + text[at + 1 :]


def line_shift(text: str, rng: random.Random) -> str:
    """Enter at the start of a line, or Backspace joining a blank line to the next: every
    later line shifts, at top level or inside a body."""
    lines = text.splitlines(keepends=True)
    at = rng.randrange(len(lines))
    if at and lines[at - 1] == "\n" and rng.random() < 0.5:
        return "".join([*lines[: at - 1], *lines[at:]])
    return "".join([*lines[:at], "\n", *lines[at:]])


def fresh_caches(text: str, path: Path | None, project: Project | None) -> AnalysisCaches:
    """The caches a first analysis of ``text`` leaves (parsed in chunks, as after an edit)."""
    analyzer = DocumentAnalyzer(path, project)
    analyzer.analyze(text, reverse=False)
    assert parse_source(text, analyzer.caches.chunks) is not None  # the next parse: in chunks
    analyzer.analyze(text, reverse=False)
    return analyzer.caches


def assert_kept_as_fresh(caches: AnalysisCaches, fresh: AnalysisCaches) -> None:
    kept, new = caches.keys, fresh.keys
    assert (kept.chunks, kept.firsts, kept.identity) == (new.chunks, new.firsts, new.identity)
    assert kept.effects == new.effects
    assert kept.previous == new.previous
    assert kept.resolved is not None and new.resolved is not None
    assert kept.resolved.reads == new.resolved.reads
    assert kept.resolved.written_by == new.resolved.written_by
    slots = caches.slots
    if slots is None:
        return
    assert slots.keys == [new.previous[identity][0] for identity in new.identity]
    tops = {f"{key}:top" for key in slots.keys}
    bodies = {f"{k}:bodies" for k, b in zip(slots.keys, slots.bodies, strict=True) if b}
    assert set(caches.groups) <= tops | bodies  # nothing unreachable is kept
    assert caches.bare == {k for k, b in zip(slots.keys, slots.bodies, strict=True) if not b}
    if caches.keys.complete:
        assert set(caches.groups) == tops | bodies
        for key, top, body in zip(slots.keys, slots.tops, slots.bodies, strict=True):
            assert caches.groups[f"{key}:top"] is top
            assert caches.groups.get(f"{key}:bodies") is body


def run_sequence(
    text: str,
    steps: int,
    rng: random.Random,
    path: Path | None,
    project: Project | None,
    shifts: bool = False,
) -> int:
    """Edit ``text`` ``steps`` times (mostly literals; now and then a statement added, removed
    or replaced, a line that does not parse, an undo; with ``shifts``, lines shifted too);
    returns how many analyses took the in-place path."""
    analyzer = DocumentAnalyzer(path, project)
    history = [text]
    in_place = 0
    broken: str | None = None
    for step in range(steps):
        roll = rng.random()
        if step == 0:
            pass
        elif broken is not None:  # typed on through a line that did not parse
            text, broken = broken, None
        elif roll < 0.75:
            text = literal_edit(text, rng)
        elif roll < 0.8 and shifts:
            text = line_shift(text, rng)
        elif roll < 0.85:
            lines = text.split("\n")
            text = "\n".join(edit(lines[:-1], rng)) + "\n"
        elif roll < 0.93:
            at = rng.randrange(len(text) + 1)
            broken = text
            text = text[:at] + rng.choice(["(", ")", '"', "def f(:\n", "x ="]) + text[at:]
        else:
            text = rng.choice(history)
        history.append(text)
        incremental = analyzer.analyze(text)
        in_place += analyzer.caches.in_place
        fresh = analyze_source(text, path=path, project=project)
        assert everything(incremental) == everything(fresh), f"step {step}:\n{text}"
        if incremental.skipped is None and analyzer.caches.slots is not None:
            assert_kept_as_fresh(analyzer.caches, fresh_caches(text, path, project))
    return in_place


@pytest.mark.parametrize("seed", range(SEEDS))
def test_literal_edits_in_place_match_a_fresh_analysis(tmp_path: Path, seed: int) -> None:
    (tmp_path / "helpers.py").write_text(
        "def spoil_it(d):\n    d['cb'] = lambda: 0\n\ndef build():\n    return {'seed': 1}\n",
        encoding="utf-8",
    )
    rng = random.Random(seed)
    lines = [*PURE, GATED, *(statement(rng) for _ in range(12))]
    rng.shuffle(lines)
    text = HEADER + "\n".join(lines) + "\n"
    # (how often the path is taken depends on the program: where everything may change
    # everything, as with globals(), every edit changes every key)
    run_sequence(text, 60, rng, tmp_path / "test_job.py", Project(tmp_path), shifts=True)


def test_literal_edits_of_independent_statements_are_in_place(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text("def build():\n    return {'seed': 1}\n")
    rng = random.Random("independent")
    text = HEADER + "from helpers import build\nB = build()\n" + "\n".join([*PURE, GATED] * 2)
    text += "\n"
    assert run_sequence(text, 80, rng, tmp_path / "job.py", Project(tmp_path)) >= 20
    assert run_sequence(text, 80, rng, None, None) >= 20


def test_an_edit_inside_a_literal_looks_at_its_chunk_only() -> None:
    text = HEADER + "\n".join(PURE) + "\n"
    analyzer = DocumentAnalyzer(None, None)
    analyzer.analyze(text)
    edited = text.replace("'qa/p3'", "'qa/p33'")
    incremental = analyzer.analyze(edited)
    assert analyzer.caches.in_place
    assert everything(incremental) == everything(analyze_source(edited))
    # the submit (its chunk) and the statements its values come from: R3, P3, the client
    # and the three imports they read
    assert analyzer.caches.skipped == len(parse_source(edited).tree.body) - 7  # type: ignore[union-attr]


def test_a_statement_that_moves_to_another_index_keeps_its_results() -> None:
    """A statement of an unchanged chunk between two edits keeps its text and place but not
    its index when the edits move a statement from one chunk to the other; with reads and
    writes equal at every index (statements of one shape) the edit is in place, and results
    must follow the statement, not the index."""

    def submit(name: str) -> str:
        return f"client.evaluator.submit(tasks=TasksetRef('qa/{name}'), target=R0)"

    before = f"{submit('a')}\n{submit('moved')}\n{submit('b')}; {submit('c')}\n"
    after = f"{submit('a')}; {submit('d')}\n{submit('moved')}\n{submit('b')}\n"
    text = HEADER + "\n".join(PURE) + "\n" + before + "\n".join(PURE) + "\n"
    edited = text.replace(before, after)
    analyzer = DocumentAnalyzer(None, None)
    analyzer.analyze(text)
    for version in (edited, text, edited):
        incremental = analyzer.analyze(version)
        assert analyzer.caches.in_place
        assert everything(incremental) == everything(analyze_source(version))
        assert_kept_as_fresh(analyzer.caches, fresh_caches(version, None, None))


def test_a_first_analysis_hands_on_its_findings_before_it_makes_its_keys(tmp_path: Path) -> None:
    """Keys are for the next analysis (nothing is cached before the first): a first analysis
    makes them after its findings are handed on, so the editor's first diagnostics do not wait
    for them; the next analysis then finds every result under its key, none walked again."""
    path = tmp_path / "job.py"
    text = (
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig\n\n"
        "CONFIG = GymRuntimeConfig(agent='a', resources_server='r', concurrency=0)\n\n\n"
        "def build(n: int) -> GymRuntimeConfig:\n"
        "    return GymRuntimeConfig(agent='a', resources_server='r', concurrency=n)\n"
    )
    path.write_text(text)
    analyzer = DocumentAnalyzer(path, Project(tmp_path))
    seen: list[int] = []
    report = analyzer.analyze(
        text, reverse=False, on_findings=lambda _: seen.append(len(analyzer.caches.previous))
    )
    assert report.findings and seen == [0]
    assert len(analyzer.caches.previous) == 4  # every statement keyed once they were out
    again = analyzer.analyze(text, reverse=False)
    assert again.findings == report.findings
    assert analyzer.caches.walked == 0 and analyzer.caches.reused > 0


def test_statements_added_and_removed_keep_the_others_in_place(tmp_path: Path) -> None:
    """A statement added or removed (``z = 1`` typed between two calls, a line deleted)
    changes the module's reads and writes, and the count of statements: the statements it
    cannot reach keep their keys and results, which make room for it (their slots are
    spliced), and nothing kept goes stale, whatever the statement does (binds a name others
    read, changes an object without naming it, reads every name)."""
    (tmp_path / "helpers.py").write_text(
        "def spoil_it(d):\n    d['cb'] = lambda: 0\n\ndef build():\n    return {'seed': 1}\n",
        encoding="utf-8",
    )
    rng = random.Random("added and removed")
    fixed = [*PURE, GATED, "from helpers import spoil_it", "def helper(d):\n    return d"]
    added = ["z = 1", "P1 = {'cb': print}", "spoil_it(P2)", "helper(P3)", "del z"]
    added += ["def helper(d):\n    d['cb'] = print"]  # its callers start or stop mutating
    added += ["globals()['P4'] = {}", "import json", "R5 = R0", *(statement(rng) for _ in range(6))]
    path, project = tmp_path / "job.py", Project(tmp_path)
    analyzer = DocumentAnalyzer(path, project)
    lines = list(fixed)
    counts: list[int] = []
    spliced = 0
    for step in range(70):
        if step and (rng.random() < 0.5 or len(lines) <= len(fixed)):
            lines.insert(rng.randint(0, len(lines)), rng.choice(added))
        elif step:
            del lines[rng.randrange(len(lines))]
        text = HEADER + "\n".join(lines) + "\n"
        incremental = analyzer.analyze(text)
        count = len(parse_source(text).tree.body)  # type: ignore[union-attr]
        spliced += analyzer.caches.in_place and bool(counts) and count != counts[-1]
        counts.append(count)
        assert everything(incremental) == everything(
            analyze_source(text, path=path, project=project)
        )
        assert_kept_as_fresh(analyzer.caches, fresh_caches(text, path, project))
    assert spliced >= 15  # the statements not reached kept their results in place
