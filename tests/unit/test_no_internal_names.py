"""No internal name reaches a user (issue 31): every finding message and every runner preview
(rendered JSON, problems, unknowns) and submit summary of the idiom corpus and ``examples/`` is
free of evalsubmit's own names: a module path, a placeholder's repr, a value of the domain."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evalsubmit.analysis import ModuleReport, Project, analyze_source
from unit.idioms.idiom_support import findings

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "contract" / "idioms"
EXAMPLES = REPO / "examples"

INTERNAL = re.compile(
    r"evalsubmit\.|<evalsubmit| object at 0x|\bOpaque\b|\bPlaceholder\b|\bDrained\b"
    r"|\bUnknown\(|\bKnown\(|\bInstance\(|DictValue|SeqValue|ClassRef\(|FunctionValue|PartialValue|ModuleValue"
    r"|\bRefused\(|\bOneShot\(|\bOrigin\(|\bSpan\("
)


def texts(report: ModuleReport) -> list[tuple[str, str]]:
    """Every text of the report a user can see, with where it comes from."""
    found = [(f"{f.code} at {f.span.line}", f.message) for f in report.findings]
    previews = [("runner", p) for p in report.runners]
    for submit in report.submits:
        shown = (submit.shape, submit.tasks, submit.workspace, submit.base_url)
        found.append((f"submit at {submit.span.line}", " ".join(map(str, shown))))
        if submit.target is not None:
            previews.append(("submit target", submit.target))
    for where, preview in previews:
        at = f"{where} at {preview.span.line}"
        found.append((at, preview.rendered))
        found += [(f"{at}, problem", text) for text in preview.problems]
        found += [(f"{at}, unknown", text) for text in preview.unknowns]
    return found


def _root(path: Path) -> Path:
    if path.is_relative_to(EXAMPLES):
        rel = path.relative_to(EXAMPLES)
        return EXAMPLES if len(rel.parts) == 1 else EXAMPLES / rel.parts[0]
    return CORPUS.joinpath(*path.relative_to(CORPUS).parts[:2])


FILES = sorted(
    p for p in [*CORPUS.rglob("*.py"), *EXAMPLES.rglob("*.py")] if "__pycache__" not in p.parts
)


def leaks(report: ModuleReport) -> list[str]:
    return [f"{where}: {text}" for where, text in texts(report) if INTERNAL.search(text)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_internal_name_in_what_a_user_sees(path: Path) -> None:
    report = analyze_source(
        path.read_text(encoding="utf-8"), path=path, project=Project(root=_root(path))
    )
    assert not leaks(report)


def test_submit_summaries_are_seen() -> None:
    """The corpus has previews and submits to look at (a broken glob would see nothing)."""
    assert len(FILES) >= 200


def test_a_refused_value_is_named_as_the_code_wrote_it() -> None:
    """The issue's case: a NamedTuple field's default (a class, a function, a lambda, a lock,
    a generator) given to a GymRuntimeConfig field was quoted as
    ``<evalsubmit.analysis.target.gym_config._Opaque object at 0x...>`` by ES109 (the stand-in is
    ``target.stand_ins.Opaque`` now)."""
    found = findings(
        """
        from typing import NamedTuple

        def build():
            return "simple_agent"

        class Settings(NamedTuple):
            agent: object = str
            agent_config: object = build
            resources_server: object = lambda: "mcqa"
            concurrency: object = threading.Lock()
            env: object = (name for name in ["A"])

        s = Settings()
        GymRuntimeConfig(
            agent=s.agent,
            agent_config=s.agent_config,
            resources_server=s.resources_server,
            concurrency=s.concurrency,
            env_vars={"A": s.env},
        )
        """
    )
    messages = sorted(f.message for f in found if f.code == "ES109")
    assert messages == [
        "`agent_config` must be a string, got the function build",
        "`agent` must be a string, got the class str",
        "`concurrency` must be an integer, got a threading.Lock",
        "`resources_server` must be a string, got a lambda",
        "environment variable values must be strings: `env_vars['A']` is a generator "
        "expression; write it as a string, e.g. str(...)",
    ]
    assert not [f.message for f in found if INTERNAL.search(f.message)]
