"""The idiom corpus: small projects written the way teams write evaluator code (issue 11).

Layout: ``tests/contract/idioms/<group>/<case>/`` holds one case, a tiny project of one or more
files. The group is the idiom class of issue 11 (``GROUPS``). A case is

* a *script* case when it has no ``test_*.py``: the oracle runs ``main.py`` as ``__main__``
  (sibling modules import as in a real checkout: the folder is ``sys.path[0]``);
* a *pytest* case otherwise: the oracle runs pytest on the folder (``conftest.py`` files in the
  folder and its sub-folders apply as usual).

Expected findings are ``# expect: ES10x`` markers on the anchor line (reference §8, as in
``examples/``). A case whose folder name starts with ``ok-`` is right code (no marker, runs
clean under the SDK); ``unknown-`` marks code whose values are only known at run time (YAML,
environment, argv, network): no marker, runs clean, and no finding may rest on a guess. Any
other case plants at least one mistake.

An optional ``oracle.json`` gives the run's ``argv``, extra ``env`` and canned ``http`` answers
(URL -> JSON) for the case's own network calls. The engine never sees it.

The new examples of issue 11 (``EXAMPLE_CASES``) are run by the same oracle, so their markers are
verified against the SDK too.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = HERE / "idioms"
EXAMPLES = REPO / "examples"

#: Idiom classes, in the order of issue 11's sections 1-6, then issue 24 (``flow``) and issue 31
#: (``unknowns``).
GROUPS: dict[str, str] = {
    "objects": "objects holding clients, evaluators, runners and configs",
    "types": "types, not only values",
    "indirect": "calls made indirectly",
    "containers": "values from containers and loops",
    "tests": "test code (pytest, unittest)",
    "params": "parameters with defaults and call sites",
    "flow": "the paths the code takes: guards, narrowing, partial knowledge, indirection",
    "unknowns": "joins of partial knowledge, exits, submit as a function, stdlib data flow",
}

#: The examples written for issue 11: one per idiom class (a file, or a sub-project folder).
EXAMPLE_CASES: dict[str, str] = {
    "objects": "eval_service.py",
    "types": "typed_pipeline.py",
    "indirect": "submit_helpers.py",
    "containers": "sweep.py",
    "tests": "agent_suite",
    "params": "release_gate.py",
}

MARKER = re.compile(r"#\s*expect:\s*(ES\d{3}(?:\s*,\s*ES\d{3})*)\s*$")

Key = tuple[str, int, str]


@dataclass(frozen=True)
class IdiomCase:
    id: str
    group: str
    root: Path
    files: tuple[Path, ...]
    mode: str
    entry: str | None
    options: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def kind(self) -> str:
        name = self.id.rsplit("/", 1)[-1]
        if name.startswith("ok-"):
            return "right"
        if name.startswith("unknown-"):
            return "unknown"
        return "wrong"

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def markers(self) -> Counter[Key]:
        """``(file relative to the root, line, code)`` of every ``# expect:`` marker."""
        found: Counter[Key] = Counter()
        for path in self.files:
            lines = path.read_text(encoding="utf-8").splitlines()
            for lineno, line in enumerate(lines, start=1):
                match = MARKER.search(line)
                if match:
                    for code in match.group(1).split(","):
                        found[(self.rel(path), lineno, code.strip())] += 1
        return found

    def oracle_entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "dir": str(self.root),
            "mode": self.mode,
            "entry": self.entry,
            "files": [self.rel(p) for p in self.files],
            **self.options,
        }


def _python_files(folder: Path) -> tuple[Path, ...]:
    return tuple(
        sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts and p.is_file())
    )


def _folder_case(case_id: str, group: str, folder: Path) -> IdiomCase:
    files = _python_files(folder)
    pytest_mode = any(p.name.startswith("test_") for p in files)
    options_file = folder / "oracle.json"
    options = dict(json.loads(options_file.read_text())) if options_file.is_file() else {}
    return IdiomCase(
        id=case_id,
        group=group,
        root=folder,
        files=files,
        mode="pytest" if pytest_mode else "script",
        entry=None if pytest_mode else "main.py",
        options=options,
    )


def corpus_cases() -> list[IdiomCase]:
    cases = []
    for group in GROUPS:
        if not (CORPUS / group).is_dir():
            continue
        for folder in sorted(p for p in (CORPUS / group).iterdir() if p.is_dir()):
            if folder.name != "__pycache__":
                cases.append(_folder_case(f"{group}/{folder.name}", group, folder))
    return cases


def example_cases() -> list[IdiomCase]:
    cases = []
    for group, name in EXAMPLE_CASES.items():
        path = EXAMPLES / name
        if not path.exists():
            continue
        if path.is_dir():
            cases.append(_folder_case(f"examples/{name}", group, path))
        else:
            cases.append(
                IdiomCase(
                    id=f"examples/{name}",
                    group=group,
                    root=EXAMPLES,
                    files=(path,),
                    mode="script",
                    entry=name,
                )
            )
    return cases


def all_cases() -> list[IdiomCase]:
    return corpus_cases() + example_cases()


def input_files() -> list[Path]:
    """Every file whose content can change a verdict (the oracle's cache key)."""
    paths: set[Path] = set()
    for case in all_cases():
        paths.update(case.files)
        options = case.root / "oracle.json"
        if case.root != EXAMPLES and case.root.is_dir():
            paths.update(p for p in case.root.rglob("*") if p.is_file() and p.suffix != ".pyc")
        if options.is_file():
            paths.add(options)
    return sorted(paths)


def oracle_request() -> dict[str, Any]:
    return {"cases": [case.oracle_entry() for case in all_cases()]}
