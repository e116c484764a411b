"""Random programs of the shapes that make statements depend on each other without naming
each other (aliases, helpers that change their arguments, attributes of user objects, pytest
fixtures, dynamic access), edited statement by statement: the incremental analysis, which walks
only what an edit can reach, must agree with a fresh analysis after every edit."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from test_incremental import outcome

from evalsubmit.analysis import DocumentAnalyzer, Project, analyze_source
from evalsubmit.analysis.engine.caches import AnalysisCaches
from evalsubmit.analysis.source.parse import parse_source
from evalsubmit.cli import main

SEEDS = int(os.environ.get("EVALSUBMIT_PROGRAM_SEEDS", "6"))
HEADER = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
import pytest
client = NeMoPlatform(workspace="qa")
"""

CONFIG = "GymRuntimeConfig(agent='a', agent_config='a.yaml', resources_server='m'"
SUBMIT = "client.evaluator.submit(tasks=TasksetRef"
NAMES = ("A", "B", "C")
VALUES = ("{'seed': 1}", "{'cb': lambda: 0}", "{}", "[1, 2]", "dict(seed=2)", "1")
BAD = ("lambda: 0", "print", "range(3)", "1", "'x'")


def statement(rng: random.Random) -> str:
    a, b = rng.choice(NAMES), rng.choice(NAMES)
    bad = rng.choice(BAD)
    return rng.choice(
        [
            f"{a} = {rng.choice(VALUES)}",
            f"{a} = {b}",
            f"{a}['cb'] = {bad}",
            f"{a}.update(cb={bad})",
            f"{a}.pop('cb', None)",
            f"del {a}['cb']",
            f"def grow(d):\n    d['cb'] = {bad}",
            "grow(A)",
            f"grow({a})",
            f"def make():\n    return {a}",
            f"{a} = make()",
            f"def add_global():\n    {a}['cb'] = {bad}",
            "add_global()",
            f"def rebind():\n    global {a}\n    {a} = {{'cb': {bad}}}",
            "rebind()",
            "class Holder:\n    def __init__(self, d):\n        self.d = d\n    def spoil(self):\n"
            f"        self.d['cb'] = {bad}",
            f"h = Holder({a})",
            "h.spoil()",
            f"h.d = {a}",
            f"globals()['{a}'] = {{'cb': {bad}}}",
            f"alias = {a}",
            f"alias['cb'] = {bad}",
            f"@pytest.fixture\ndef params():\n    return {a}",
            f"def test_submit(params):\n    cfg = {CONFIG}, hydra_params=params)\n"
            f"    {SUBMIT}('qa/x'), target=GymAgentTaskRunner(config=cfg))",
            f"cfg = {CONFIG}, hydra_params={a})",
            f"{SUBMIT}('qa/x'), target=GymAgentTaskRunner(config=cfg))",
            f"def go():\n    {SUBMIT}('qa/y'),"
            f" target=GymAgentTaskRunner(config={CONFIG}, hydra_params={a})))",
            "from helpers import spoil_it\nspoil_it(A)",
            "from helpers import build\nB = build()",
            f"for key in ('x', 'y'):\n    {a}[key] = {bad}",
            f"if {a}:\n    {b} = {a}",
            *PURE,
        ]
    )


# Statements that change nothing they do not bind: an edit of one of them leaves the others
# alone, so the incremental path skips statements.
PURE = [
    f"P{n} = {{'temperature': 0.{n}}}\nR{n} = GymAgentTaskRunner(config=GymRuntimeConfig("
    f"agent='a', agent_config='a.yaml', resources_server='m', hydra_params=P{n}))\n"
    f"client.evaluator.submit(tasks=TasksetRef('qa/p{n}'), target=R{n})"
    for n in range(6)
] + [
    f"def job_{n}():\n    runner = GymAgentTaskRunner(config=GymRuntimeConfig(agent='a',"
    f" agent_config='a.yaml', resources_server='m', max_turns={n}))\n"
    f"    job = client.evaluator.submit(tasks=TasksetRef('qa/j{n}'), target=runner)\n"
    f"    job.wait_until_done()"
    for n in range(6)
]


def cli_findings(folder: Path, capsys: pytest.CaptureFixture[str]) -> set[tuple[object, ...]]:
    """What ``evalsubmit check`` reports in the folder (one process, the CLI's own routing of
    findings a submit places in another module)."""
    capsys.readouterr()
    main(["check", "--output-format", "json", "--jobs", "1", str(folder)])
    found = json.loads(capsys.readouterr().out)["findings"]
    return {(Path(f["path"]).name, f["line"], f["column"], f["code"], f["message"]) for f in found}


def editor_findings(folder: Path) -> set[tuple[object, ...]]:
    """What the editor shows in each module of the folder (its analysis with the reverse
    step)."""
    project = Project(folder)
    found: set[tuple[object, ...]] = set()
    for path in sorted(folder.glob("*.py")):
        report = analyze_source(path.read_text(encoding="utf-8"), path=path, project=project)
        found |= {
            (path.name, f.span.line, f.span.col + 1, f.code, f.message) for f in report.findings
        }
    return found


def fresh_keys(text: str, path: Path, project: Project) -> dict[str, object]:
    """The keys a first analysis of ``text`` gives (the incremental path reuses the previous
    keys of the statements it judges unaffected: they must be the same)."""
    caches = AnalysisCaches()
    parsed = parse_source(text, caches.chunks)
    assert parsed is not None
    parsed = parse_source(text, caches.chunks)  # the second parse is the one cut in chunks
    assert parsed is not None
    caches.grouping(parsed, project, path.resolve())
    caches.key()  # a first analysis makes its keys once its findings are out
    return dict(caches.previous)


def edit(lines: list[str], rng: random.Random) -> list[str]:
    roll = rng.random()
    edited = list(lines)
    if roll < 0.4 or not edited:
        edited.insert(rng.randint(0, len(edited)), statement(rng))
    elif roll < 0.7:
        edited[rng.randrange(len(edited))] = statement(rng)
    elif roll < 0.85:
        del edited[rng.randrange(len(edited))]
    else:
        index = rng.randrange(len(edited))
        edited.insert(rng.randint(0, len(edited)), edited[index])
    return edited


@pytest.mark.parametrize("seed", range(SEEDS))
def test_statement_edits_match_fresh_analysis(
    tmp_path: Path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "helpers.py").write_text(
        "def spoil_it(d):\n    d['cb'] = lambda: 0\n\ndef build():\n    return {'seed': 1}\n",
        encoding="utf-8",
    )
    path = tmp_path / "test_job.py"
    project = Project(tmp_path)
    analyzer = DocumentAnalyzer(path, project)
    rng = random.Random(seed)
    lines = [statement(rng) for _ in range(SEEDS)]
    for step in range(40):
        lines = edit(lines, rng) if step else lines
        text = HEADER + "\n".join(lines) + "\n"
        incremental = analyzer.analyze(text)
        fresh = analyze_source(text, path=path, project=project)
        assert outcome(incremental) == outcome(fresh), f"seed {seed} step {step}:\n{text}"
        assert incremental.dependencies == fresh.dependencies
        assert incremental.internal_errors == fresh.internal_errors
        assert analyzer.caches.previous == fresh_keys(text, path, project)
    path.write_text(text, encoding="utf-8")
    assert cli_findings(tmp_path, capsys) == editor_findings(tmp_path)


def test_an_edit_walks_only_the_statements_it_reaches() -> None:
    text = HEADER + "\n".join(PURE) + "\n"
    analyzer = DocumentAnalyzer(None, None)
    analyzer.analyze(text)
    edited = text.replace("'qa/p3'", "'qa/p33'").replace("max_turns=4", "max_turns=lambda: 4")
    incremental = analyzer.analyze(edited)
    assert outcome(incremental) == outcome(analyze_source(edited))
    # Of 29 statements, 8 are walked: the two edited ones and those their values come from
    # (R3 and P3, the client, the three imports); not the other blocks nor `import pytest`.
    assert analyzer.caches.skipped == 29 - 8


INDIRECT = (
    HEADER
    + """\
BASE = {"seed": 1}
alias = BASE
alias["cb"] = lambda: 0
def grow(d):
    d["cb"] = print
OTHER = {}
grow(OTHER)
@pytest.fixture
def params():
    return {"seed": 2}
def test_nightly(params):
    cfg = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                           hydra_params=params)
    client.evaluator.submit(tasks=TasksetRef("qa/f"), target=GymAgentTaskRunner(config=cfg))
first = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m", hydra_params=BASE)
client.evaluator.submit(tasks=TasksetRef("qa/x"), target=GymAgentTaskRunner(config=first))
second = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                          hydra_params=OTHER)
client.evaluator.submit(tasks=TasksetRef("qa/y"), target=GymAgentTaskRunner(config=second))
"""
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('alias["cb"] = lambda: 0', 'alias["cb"] = 0        '),  # a change through an alias
        ("alias = BASE", "alias = {}  "),  # the alias itself
        ('d["cb"] = print', 'd["cb"] = 1    '),  # a helper that changes its argument
        ('return {"seed": 2}', 'return {"cb": len}'),  # a fixture a test receives
    ],
)
def test_edits_that_reach_a_submit_without_naming_it(old: str, new: str) -> None:
    analyzer = DocumentAnalyzer(None, None)
    before = analyzer.analyze(INDIRECT)
    assert outcome(before) == outcome(analyze_source(INDIRECT))
    edited = INDIRECT.replace(old, new)
    assert edited != INDIRECT
    incremental = analyzer.analyze(edited)
    assert outcome(incremental) == outcome(analyze_source(edited))
    assert outcome(incremental) != outcome(before)  # the edit did change a result


def test_the_first_edit_after_opening_reuses_results(tmp_path: Path) -> None:
    # The sibling module is read during the first analysis: its text, noted then, is what
    # the next analysis compares with (not an empty set of dependencies).
    (tmp_path / "runners.py").write_text(
        "def make_config(n):\n"
        "    return {'agent': 'a', 'agent_config': 'a.yaml', 'resources_server': 'm'}\n",
        encoding="utf-8",
    )
    path = tmp_path / "job.py"
    text = HEADER + "from runners import make_config\n" + "\n".join(PURE) + "\n"
    analyzer = DocumentAnalyzer(path, Project(tmp_path))
    analyzer.analyze(text)
    edited = text.replace("'qa/p3'", "'qa/p33'")
    incremental = analyzer.analyze(edited)
    assert outcome(incremental) == outcome(
        analyze_source(edited, path=path, project=analyzer.project)
    )
    assert analyzer.caches.skipped > 20
    (tmp_path / "runners.py").write_text("make_config = None\n", encoding="utf-8")
    analyzer.analyze(edited)
    assert analyzer.caches.skipped == 0  # the sibling changed: nothing cached stands
