"""Edits that shift lines (Enter, a block pasted and deleted again, lines deleted, Backspace
joining two lines, a statement typed character by character on a new line) at top level, in
function bodies (also under a loop and an ``if`` in a method) and in class bodies, on a program
whose findings name call sites by line (``when launch() is called at line 41``): after every
edit the incremental analysis must equal a fresh one field by field (positions, messages,
previews and where they come from), its kept tables must equal a first analysis's, and at the
end the CLI must report what the editor shows."""

from __future__ import annotations

import ast
import os
import random
from collections import Counter
from pathlib import Path

import pytest
from test_incremental_in_place import assert_kept_as_fresh, everything, fresh_caches
from test_incremental_programs import cli_findings, editor_findings, fresh_keys

from evalsubmit.analysis import DocumentAnalyzer, Project, analyze_source

SEEDS = int(os.environ.get("EVALSUBMIT_PROGRAM_SEEDS", "6"))
STEPS = 36
PLACES = ("top", "function", "class")

PROGRAM = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

from helpers import build

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
PARAMS = build()


def runner(agent, repeats=1):
    config = GymRuntimeConfig(
        agent=agent,
        agent_config=f"configs/{agent}.yaml",
        resources_server="mcqa",
        num_repeats=repeats,
    )
    return GymAgentTaskRunner(config=config)


def launch(agent, repeats=1, tasks="qa/smoke"):
    target = runner(agent, repeats)
    return client.evaluator.submit(tasks=TasksetRef(tasks), target=target)


class NightlyJob:
    taskset = "qa/nightly"

    def __init__(self, agent, repeats):
        self.agent = agent
        self.target = runner(agent, repeats)

    def submit(self):
        job = client.evaluator.submit(tasks=TasksetRef(self.taskset), target=self.target)
        return job

    def sweep(self, agents):
        jobs = []
        for agent in agents:
            if agent:
                self.target = runner(agent, self.repeats(agent))
                jobs.append(self.submit())
            else:
                jobs.append(launch("simple_agent"))
        return jobs

    def repeats(self, agent):
        return len(agent)


launch("simple_agent")
launch("tool_agent", repeats=0)
launch("tool_agent", repeats=2, tasks="bad name")
NightlyJob("simple_agent", 0).submit()
NightlyJob("tool_agent", 3).submit()
NightlyJob("tool_agent", 1).sweep(["simple_agent", ""])
for agent in ("simple_agent", "tool_agent"):
    launch(agent, repeats=-1)
"""

HELPERS = "def build():\n    return {'temperature': 0.2}\n"

PASTED = [
    "_plan = {'temperature': 0.1}",
    "def _pasted(n):",
    "    cfg = GymRuntimeConfig(",
    "        agent='pasted',",
    "        agent_config='pasted.yaml',",
    "        resources_server='mcqa',",
    "        num_repeats=n,",
    "    )",
    "    return client.evaluator.submit(",
    "        tasks=TasksetRef('qa/pasted'),",
    "        target=GymAgentTaskRunner(config=cfg),",
    "    )",
    "_pasted(0)",
    "_pasted(2)",
    "_names = [",
    "    'a',",
    "    'b',",
    "]",
    "for _name in _names:",
    "    _plan[_name] = 1",
]
"""Twenty lines that stand at any statement's place (top level, a body, a class)."""


def statement_lines(text: str) -> dict[str, list[ast.stmt]]:
    """Every statement of ``text``, by the place it is in."""
    found: dict[str, list[ast.stmt]] = {place: [] for place in PLACES}

    def visit(body: list[ast.stmt], place: str) -> None:
        for node in body:
            found[place].append(node)
            inner = place
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = "function"
            elif isinstance(node, ast.ClassDef):
                inner = "class"
            for field in ("body", "orelse", "finalbody"):
                child = getattr(node, field, None)
                if isinstance(child, list) and child and isinstance(child[0], ast.stmt):
                    visit(child, inner)

    visit(ast.parse(text).body, "top")
    return found


def shift_edit(text: str, rng: random.Random) -> tuple[str, str, list[str]]:
    """One line-shifting edit at a random place: (kind, place, the texts it goes through)."""
    place = rng.choice(PLACES)
    statements = statement_lines(text)[place] or statement_lines(text)["top"]
    node = rng.choice(statements)
    lines = text.splitlines(keepends=True)
    at = node.lineno - 1
    indent = " " * node.col_offset
    kind = rng.choice(["enter", "paste", "delete", "join", "type"])
    if kind == "enter":
        return kind, place, ["".join([*lines[:at], "\n", *lines[at:]])]
    if kind == "paste":
        block = [f"{indent}{line}\n" for line in PASTED]
        pasted = "".join([*lines[:at], *block, *lines[at:]])
        return kind, place, [pasted, text]  # pasted, then deleted again
    if kind == "delete":
        end = node.end_lineno or node.lineno
        return kind, place, ["".join([*lines[:at], *lines[end:]])]
    if kind == "join":
        # Backspace at the start of the statement's line: onto a blank line above it (a blank
        # line made first when there is none), or, now and then, onto the code above it
        # (which may not parse), undone at once
        if at and lines[at - 1].strip() == "":
            return kind, place, ["".join([*lines[: at - 1], lines[at - 1][:-1], *lines[at:]])]
        opened = "".join([*lines[:at], "\n", *lines[at:]])
        texts = [opened, text]
        if at and rng.random() < 0.3:
            broken = "".join([*lines[: at - 1], lines[at - 1][:-1], *lines[at:]])
            texts = [broken, text]
        return kind, place, texts
    typed = f"{indent}_typed = PARAMS"
    texts = []
    for count in range(len(indent) + 1, len(typed) + 1, 3):
        texts.append("".join([*lines[:at], typed[:count], "\n", *lines[at:]]))
    texts.append("".join([*lines[:at], typed, "\n", *lines[at:]]))
    return kind, place, texts


@pytest.mark.parametrize("seed", range(SEEDS))
def test_line_shifting_edits_match_fresh_analysis(
    tmp_path: Path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "helpers.py").write_text(HELPERS, encoding="utf-8")
    path = tmp_path / "nightly.py"
    project = Project(tmp_path)
    analyzer = DocumentAnalyzer(path, project)
    rng = random.Random(seed)
    text = PROGRAM
    done: Counter[tuple[str, str]] = Counter()
    labelled = 0
    for step in range(STEPS):
        kind, place, texts = shift_edit(text, rng) if step else ("open", "top", [text])
        done[kind, place] += 1
        for version in texts:
            incremental = analyzer.analyze(version)
            fresh = analyze_source(version, path=path, project=project)
            assert everything(incremental) == everything(fresh), f"step {step} {kind}:\n{version}"
            if incremental.skipped is None and analyzer.caches.slots is not None:
                assert_kept_as_fresh(analyzer.caches, fresh_caches(version, path, project))
                assert analyzer.caches.previous == fresh_keys(version, path, project)
            labelled += sum("is called at line" in f.message for f in incremental.findings)
        text = texts[-1]
        try:
            ast.parse(text)
        except SyntaxError:  # a deleted statement left a body empty: the user types on
            text = PROGRAM
    assert labelled, "no finding named a call site: the program no longer tests labels"
    assert sum(done.values()) == STEPS and len(done) >= 6, done
    path.write_text(text, encoding="utf-8")
    assert cli_findings(tmp_path, capsys) == editor_findings(tmp_path)


def test_every_kind_of_edit_at_every_place_is_drawn() -> None:
    """The random edits cover each kind of line-shifting edit at each place (over the seeds
    the test above runs), so no combination goes untested by accident."""
    drawn = set()
    for seed in range(SEEDS):
        rng = random.Random(seed)
        text = PROGRAM
        for _ in range(STEPS - 1):
            kind, place, texts = shift_edit(text, rng)
            drawn.add((kind, place))
            text = texts[-1]
            try:
                ast.parse(text)
            except SyntaxError:
                text = PROGRAM
    kinds = ("enter", "paste", "delete", "join", "type")
    assert drawn >= {(kind, place) for kind in kinds for place in PLACES}


def test_a_line_shift_above_a_call_site_moves_its_label() -> None:
    """Enter above a call site: the finding's message names the new line."""
    before = analyze_source(PROGRAM)
    after = analyze_source("\n\n\n" + PROGRAM)
    said = [f.message for f in before.findings if "is called at line 22" in f.message]
    assert len(said) == 2
    moved = [f.message for f in after.findings if "is called at line 25" in f.message]
    assert moved == [m.replace("at line 22", "at line 25") for m in said]
    assert [f.span.line + 3 for f in before.findings] == [f.span.line for f in after.findings]


def test_a_loop_walked_silently_binds_what_a_walk_with_facts_binds(tmp_path: Path) -> None:
    """A statement whose facts are cached is walked silently when a statement that reads what
    it binds is walked again; a loop over known elements must then fill a dict key by key, as
    it does in a walk that records facts (it used to bind one unknown key instead, and the
    function body edited here saw a partly unknown ``hydra_params``)."""
    (tmp_path / "helpers.py").write_text(HELPERS, encoding="utf-8")
    path = tmp_path / "nightly.py"
    project = Project(tmp_path)
    text = (
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
        "GymRuntimeConfig\n"
        "from nemo_platform import NeMoPlatform\n"
        "from helpers import build\n"
        "client = NeMoPlatform(workspace='qa')\n"
        "def go():\n"
        "    config = GymRuntimeConfig(agent='a', agent_config='a.yaml', resources_server='m',"
        " hydra_params=PARAMS)\n"
        "    client.evaluator.submit(tasks=TasksetRef('qa/y'), target=GymAgentTaskRunner("
        "config=config))\n"
        "PARAMS = build()\n"
        "for key in ('x', 'y'):\n"
        "    PARAMS[key] = 1\n"
    )
    analyzer = DocumentAnalyzer(path, project)
    analyzer.analyze(text)
    analyzer.analyze(text)
    edited = text.replace("'qa/y'", "'qa/z'")
    report = analyzer.analyze(edited)
    assert everything(report) == everything(analyze_source(edited, path=path, project=project))
    (preview,) = [p for p in report.runners if p.target is not None]
    assert preview.target["hydra_params"] == {"temperature": 0.2, "x": 1, "y": 1}


def test_a_line_shift_reuses_the_results_below_it(tmp_path: Path) -> None:
    """Enter after a top-level statement: every later line moves, and the results of the
    statements below are shifted, not made again. The statement holding the new line has the
    same code (a blank line is not a token), so nothing is walked. The report is a fresh
    analysis's, field by field; the nodes inside the statements below are not even moved."""
    (tmp_path / "helpers.py").write_text(HELPERS, encoding="utf-8")
    path = tmp_path / "nightly.py"
    project = Project(tmp_path)
    analyzer = DocumentAnalyzer(path, project)
    analyzer.analyze(PROGRAM)
    analyzer.analyze(PROGRAM)
    anchor = "PARAMS = build()\n"
    for text in (PROGRAM.replace(anchor, anchor + "\n", 1), PROGRAM):
        report = analyzer.analyze(text)
        fresh = analyze_source(text, path=path, project=project)
        assert everything(report) == everything(fresh)
        caches = analyzer.caches
        assert caches.in_place and caches.walked == 0 and caches.reused > 10
        # the statements below kept their keys without a look: they moved, as code
        assert caches.looked_at == 0
    # nothing read the nodes inside the statements below, and the Backspace took the Enter
    # back: none of them was listed or moved (they move only when read)
    pieces = analyzer.caches.chunks.pieces
    below = pieces[[anchor in piece.text for piece in pieces].index(True) + 1 :]
    assert len(below) == 10 and all(p.lag == 0 and p.located is None for p in below)


DOCUMENTED = '''\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


class Nightly:
    """Nightly runs of one agent."""

    def __init__(self, agent: str, repeats: int) -> None:
        """Build the runner once."""
        self.config = GymRuntimeConfig(
            agent=agent,
            agent_config=f"configs/{agent}.yaml",
            resources_server="mcqa",
            num_repeats=repeats,
            hydra_params={"prompt": """Answer briefly.

Cite the source."""},
        )
        self.runner = GymAgentTaskRunner(config=self.config)

    def submit(self, name: str) -> object:
        """Submit to one taskset."""
        job = client.evaluator.submit(tasks=TasksetRef(name), target=self.runner)
        return job


Nightly("simple_agent", 0).submit("qa/smoke")
Nightly("tool_agent", 2).submit("bad name")
'''


@pytest.mark.parametrize(
    ("after", "walked"),
    [
        ("        self.runner = GymAgentTaskRunner(config=self.config)\n", 0),  # a method body
        ('    """Nightly runs of one agent."""\n', 0),  # under the class's docstring
        ("        return job\n", 0),  # between two top-level statements
        ("Answer briefly.\n", 1),  # inside a string: its value changes
    ],
)
def test_a_blank_line_outside_strings_walks_nothing(
    tmp_path: Path, after: str, walked: int
) -> None:
    """Enter, then Backspace: a blank line is not code where no string can hold it (the
    statement keeps its results, shifted line by line); inside a triple-quoted string it is
    part of a value, and the statement holding it is walked again. Each report is a fresh
    analysis's, field by field, and so are the tables."""
    path = tmp_path / "nightly.py"
    project = Project(tmp_path)
    analyzer = DocumentAnalyzer(path, project)
    analyzer.analyze(DOCUMENTED)
    analyzer.analyze(DOCUMENTED)
    assert DOCUMENTED.count(after) == 1
    entered = DOCUMENTED.replace(after, after + "    \n")
    for text in (entered, DOCUMENTED):
        report = analyzer.analyze(text)
        fresh = analyze_source(text, path=path, project=project)
        assert everything(report) == everything(fresh)
        assert_kept_as_fresh(analyzer.caches, fresh_caches(text, path, project))
        assert (analyzer.caches.walked > 0) == bool(walked)
    assert report.findings  # the program plants mistakes, found below each blank line


def test_suppression_comments_in_a_piece_moved_line_by_line_are_found_at_their_lines(
    tmp_path: Path,
) -> None:
    """An Enter in a method body above suppression comments (the class keeps its tree, its
    text changes): the lines each marker is on, known by piece, are those of the new text,
    so the file-level comment still silences ES108, the line comment ES109, and the unknown
    code is still reported where it is (forward reports, as the editor's first step)."""
    commented = DOCUMENTED.replace(
        "            num_repeats=repeats,\n",
        "            num_repeats=repeats,  # evalsubmit: ignore[ES109]\n"
        "            # evalsubmit: ignore-file[ES108]\n",
    ).replace('        """Submit to one taskset."""\n', '        """Submit."""  # noqa: ES999\n')
    path = tmp_path / "nightly.py"
    project = Project(tmp_path)
    analyzer = DocumentAnalyzer(path, project)
    analyzer.analyze(commented, reverse=False)
    analyzer.analyze(commented, reverse=False)
    anchor = '        """Build the runner once."""\n'
    entered = commented.replace(anchor, anchor + "\n\n")
    for text in (entered, commented, entered):
        report = analyzer.analyze(text, reverse=False)
        fresh = analyze_source(text, path=path, project=project, reverse=False)
        assert everything(report) == everything(fresh)
        assert analyzer.caches.walked == 0  # (the class was moved, not walked)
    codes = [finding.code for finding in report.findings]
    assert "ES108" not in codes and "ES109" not in codes and "ES191" in codes
