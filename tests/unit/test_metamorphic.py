"""Unknown is never wrong (issue 31): making a value less known never adds a finding.

Each test replaces one expression of a program by ``unknown()`` (an undefined function, so an
opaque value) and requires that every finding of the mutated program was already a finding of
the original one, compared by ``(code, line, column)`` with the columns after the edit mapped
back (``tests/metamorphic.py`` says which expressions are replaced, how positions are compared,
and why a finding at a call the original never reached is not counted).

* ``value``: sub-expressions, call arguments, keyword values, right-hand sides, defaults,
  decorators, annotations. ``condition``: ``if``/``while``/ternary/``assert`` tests, ``case``
  guards and ``match`` subjects (a finding that holds on only one branch must not appear).
* Programs: every file of the idiom corpus (``tests/contract/idioms``) and of ``examples/``
  (every condition, at most ``VALUE_SITES`` values per file, spread over it), and
  ``GENERATED`` programs of the fuzz's SDK grammar (every site, hypothesis derandomized).
* ``KNOWN_VIOLATIONS``: engine bugs found by these tests and not fixed yet; each is a strict
  xfail, on its corpus site and on a minimal program, so a fix shows up as XPASS.

Long mode: ``EVALSUBMIT_METAMORPHIC_LONG=1`` (every value site of every file, and
``EVALSUBMIT_METAMORPHIC_PROGRAMS`` generated programs, default 2,000, seeded by
``EVALSUBMIT_METAMORPHIC_SEED``), or ``scripts/fuzz.sh --metamorphic`` for many seeds.
"""

from __future__ import annotations

import os
import textwrap
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings

from metamorphic import (
    Program,
    Site,
    Violation,
    added_findings,
    check_site,
    generated_programs,
    sites,
    spread,
)
from unit.rules.rule_support import HEADER

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "contract" / "idioms"
EXAMPLES = REPO / "examples"

LONG = os.environ.get("EVALSUBMIT_METAMORPHIC_LONG") == "1"
VALUE_SITES = 10**9 if LONG else 12
GENERATED = int(os.environ.get("EVALSUBMIT_METAMORPHIC_PROGRAMS", "2000" if LONG else "100"))
SEED = int(os.environ.get("EVALSUBMIT_METAMORPHIC_SEED", "31"))

#: Engine bugs found by the metamorphic tests, not fixed: ``(file, site label) -> why``. Each
#: corpus site is a strict xfail, and so is its minimal program in ``MINIMAL``.
KNOWN_VIOLATIONS: dict[tuple[str, str], str] = {
    ("flow/ok-while-true-break/main.py", "condition Call at 17:11"): "while-break",
    ("flow/ok-while-true-break/main.py", "value Name at 17:22"): "while-break",
    ("flow/ok-while-true-break/main.py", "value Name at 17:30"): "while-break",
}

#: The minimal programs (after ``rule_support.HEADER``); the site is the expression in «».
MINIMAL: dict[str, tuple[str, str]] = {
    "while-break": (
        "A `while` body is walked once: at a `break` (and after the loop) a name the body "
        "computes from what it changes (`pool.pop(0)`) holds its first iteration's value only. "
        "Adds ES106 (HarborAgentTaskRunner) though the break may come in the 2nd iteration.",
        """
        def next_submittable(pool):
            while True:
                runner = pool.pop(0)
                if «isinstance(runner, GymAgentTaskRunner)»:
                    break
            return runner
        client.evaluator.submit(tasks=T, target=next_submittable([harbor, gym_runner]))
        """,
    ),
    "undecided-shape-dataset": (
        "The SDK raises at the first failing shape check; when an earlier one is undecided "
        "(`dataset=` may be None) a later one is reported as if it came first. `tasks=` with "
        "`dataset=rows` is ES101 (mixed); with `dataset=unknown()` the engine reports ES104 "
        "(no `target=`), which holds only if the dataset is None. Found by generated programs.",
        """
        client.evaluator.submit(tasks=T, dataset=«rows»)
        """,
    ),
    "undecided-shape-metric": (
        "As above with `metric=` undecided: adds ES102 (`config=` is a row-evaluation option), "
        "which holds only if the metric is None. Found by generated programs.",
        """
        client.evaluator.submit(tasks=T, target=gym_runner, metric=«em», config={})
        """,
    ),
}


# -- programs ------------------------------------------------------------------------------------


def _project_root(path: Path) -> Path:
    if path.is_relative_to(EXAMPLES):
        rel = path.relative_to(EXAMPLES)
        return EXAMPLES if len(rel.parts) == 1 else EXAMPLES / rel.parts[0]
    return CORPUS.joinpath(*path.relative_to(CORPUS).parts[:2])


def _files() -> list[Path]:
    found = [*CORPUS.rglob("*.py"), *EXAMPLES.rglob("*.py")]
    return sorted(p for p in found if "__pycache__" not in p.parts)


def _name(path: Path) -> str:
    if path.is_relative_to(CORPUS):
        return path.relative_to(CORPUS).as_posix()
    return path.relative_to(REPO).as_posix()


@cache
def program(name: str) -> Program:
    path = CORPUS / name if not name.startswith("examples/") else REPO / name
    return Program(name, path.read_text(encoding="utf-8"), path, _project_root(path))


@cache
def baseline(name: str) -> tuple[object, object]:
    return program(name).analyse()


NAMES = [_name(p) for p in _files()]


def _violations(name: str, kind: str, cap: int) -> list[Violation]:
    prog = program(name)
    chosen = [
        s for s in sites(prog.text) if s.kind == kind and (name, s.label()) not in KNOWN_VIOLATIONS
    ]
    found = []
    for site in spread(chosen, cap):
        violation = check_site(prog, site, baseline(name))  # type: ignore[arg-type]
        if violation is not None:
            found.append(violation)
    return found


def _explain(name: str, violations: list[Violation]) -> str:
    return f"{name}: less knowledge added findings\n" + "\n\n".join(
        v.describe() for v in violations
    )


@pytest.mark.parametrize("name", NAMES)
def test_less_known_value(name: str) -> None:
    found = _violations(name, "value", VALUE_SITES)
    assert not found, _explain(name, found)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_condition(name: str) -> None:
    found = _violations(name, "condition", 10**9)
    assert not found, _explain(name, found)


def test_the_corpus_is_mutated() -> None:
    """The programs are there and have sites (a broken glob would pass every test above)."""
    assert len(NAMES) >= 200
    counts = [sites(program(name).text) for name in NAMES]
    assert sum(len(c) for c in counts) > 5000
    assert sum(s.kind == "condition" for c in counts for s in c) > 100


# -- the known violations ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "label"),
    [
        pytest.param(*key, marks=pytest.mark.xfail(strict=True, reason=why))
        for key, why in KNOWN_VIOLATIONS.items()
    ],
)
def test_known_violation_in_the_corpus(name: str, label: str) -> None:
    prog = program(name)
    (site,) = [s for s in sites(prog.text) if s.label() == label]
    violation = check_site(prog, site, baseline(name))  # type: ignore[arg-type]
    assert violation is None, _explain(name, [violation])


def minimal_program(snippet: str) -> tuple[Program, Site]:
    snippet = textwrap.dedent(snippet).lstrip("\n")
    before = HEADER + snippet[: snippet.index("«")]
    line, col = before.count("\n") + 1, len(before.rsplit("\n", 1)[-1])
    text = HEADER + snippet.replace("«", "").replace("»", "")
    width = snippet.index("»") - snippet.index("«") - 1
    (site,) = [s for s in sites(text) if (s.line, s.col, s.end_col) == (line, col, col + width)]
    return Program("minimal.py", text), site


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(key, marks=pytest.mark.xfail(strict=True, reason=why))
        for key, (why, _) in MINIMAL.items()
    ],
)
def test_known_violation_minimal(key: str) -> None:
    prog, site = minimal_program(MINIMAL[key][1])
    violation = check_site(prog, site, prog.analyse())
    assert violation is None, _explain(key, [violation])


def test_every_known_violation_has_a_minimal_program() -> None:
    assert set(KNOWN_VIOLATIONS.values()) <= set(MINIMAL)


def test_the_property_can_fail() -> None:
    """The comparison sees an added finding: a Harbor runner written where the original had a
    Gym runner is new, and ``unknown()`` there is not."""
    prog, site = minimal_program("client.evaluator.submit(tasks=T, target=«gym_runner»)\n")
    assert check_site(prog, site, prog.analyse()) is None
    harbor = Program("minimal.py", prog.text.replace("target=gym_runner", "target=harbor    "))
    added = added_findings(prog.analyse()[0], harbor.analyse()[0], site)
    assert [f.code for f in added] == ["ES106"]


# -- generated programs --------------------------------------------------------------------------


@pytest.mark.skipif(
    not LONG,
    reason="long mode only (make fuzz): generated programs still meet the known 'undecided "
    "shape' violations (MINIMAL), which a generated example cannot be listed against",
)
@seed(SEED)
@settings(
    max_examples=GENERATED,
    derandomize=not LONG,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
@given(generated_programs())
def test_less_known_in_generated_programs(prog: Program) -> None:
    before = prog.analyse()
    found = [v for s in sites(prog.text) if (v := check_site(prog, s, before)) is not None]
    assert not found, _explain("generated program", found) + "\n\n" + prog.text
