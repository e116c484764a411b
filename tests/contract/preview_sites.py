"""What the real SDK sent from each ``submit()`` call site of a case, and what the preview says
there (issue 32: "the preview tells the truth on real code").

The oracle (``idiom_oracle.py``) records, for every taskset ``submit()`` it observed, the call
site and the ``GymRunnerTarget`` JSON the SDK put in the request (``sent_target``; for a case
that mocked the executor, the SDK's own ``runner_to_target`` dump). A call site walked several
times (a helper called with different arguments, a loop, parametrized tests) sent each distinct
target once or more: the set of them is what the preview must show.

The cursor is put at each place a user may ask from: the ``submit`` name, the opening
parenthesis, each argument, the runner's construction and a name bound to it.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.analysis import ModuleReport

if TYPE_CHECKING:
    from idiom_corpus import IdiomCase


@dataclass
class Site:
    """One call site of a case and the distinct targets the SDK sent from it."""

    file: str
    line: int
    col: int
    sent: list[dict[str, Any]] = field(default_factory=list)
    raised: set[str] = field(default_factory=set)
    """Exceptions the SDK raised at this site for some walks (the target was refused)."""
    runner_sites: set[tuple[str, int, int]] = field(default_factory=set)
    """Where the runners submitted here were constructed (file, line, col)."""

    def add(self, target: dict[str, Any]) -> None:
        if target not in self.sent:
            self.sent.append(target)


def sent_sites(result: dict[str, Any]) -> list[Site]:
    """Every sync taskset call site of one oracle case that sent a Gym target."""
    sites: dict[tuple[str, int, int], Site] = {}
    runners = result.get("runners", [])
    for record in result.get("submits", []):
        site = record.get("site") or {}
        if record.get("api") != "sync" or not site.get("file", "").endswith(".py"):
            continue
        if "target" not in record.get("keys", ()):
            continue
        if not record.get("target_is_runner"):  # refused by the SDK: no runner to send
            if record.get("outcome") == "raised" and "tasks" in record.get("keys", ()):
                key = (site["file"], site["line"], site["col"])
                sites.setdefault(key, Site(*key)).raised.add(record["exception"]["type"])
            continue
        emulated = record.get("emulated") or {}
        target = (
            record.get("sent_target") or emulated.get("sent_target") or record.get("target_json")
        )
        raised = record.get("target_error") or emulated.get("target_error")
        if "exception" in emulated and emulated.get("outcome") == "raised":
            raised = raised or emulated["exception"].get("type")
        if record.get("tainted"):  # its config failed construction: refused before any submit
            raised = "tainted"
        key = (site["file"], site["line"], site["col"])
        if raised:
            sites.setdefault(key, Site(*key)).raised.add(raised)
        elif isinstance(target, dict) and target.get("kind") == "gym":
            sites.setdefault(key, Site(*key)).add(target)
        else:
            continue
        found = sites[key]
        index = record.get("target_runner")
        if isinstance(index, int) and index < len(runners):
            where = runners[index].get("site") or {}
            if where.get("file") == site["file"]:
                found.runner_sites.add((where["file"], where["line"], where["col"]))
    return list(sites.values())


def call_at(tree: ast.AST, line: int, col: int) -> ast.Call | None:
    """The ``….submit(...)`` call starting at the oracle's site (1-based line, 0-based col)."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "submit"
            and node.lineno == line
            and node.col_offset == col
        ):
            return node
    return None


def cursors(call: ast.Call, lines: list[str]) -> dict[str, tuple[int, int]]:
    """Named cursor positions (1-based line, 0-based col) in and around one call."""
    func = call.func
    assert isinstance(func, ast.Attribute) and func.end_lineno is not None
    assert func.end_col_offset is not None
    places = {
        "submit name": (func.end_lineno, func.end_col_offset - len("submit") + 1),
        "parenthesis": (func.end_lineno, func.end_col_offset),
    }
    closing_line = call.end_lineno or func.end_lineno
    places["closing parenthesis"] = (closing_line, (call.end_col_offset or 1) - 1)
    for keyword in call.keywords:
        name = keyword.arg or "**"
        places[f"argument {name}="] = (keyword.value.lineno, keyword.value.col_offset)
        if keyword.arg is not None:
            # on the keyword's name itself (``target``), one column in
            text = lines[keyword.value.lineno - 1]
            at = text.rfind(keyword.arg, 0, keyword.value.col_offset)
            if at >= 0 and keyword.value.lineno == keyword.value.end_lineno:
                places[f"keyword {name}"] = (keyword.value.lineno, at + 1)
    return places


def bound_names(tree: ast.AST, call: ast.Call) -> dict[str, tuple[int, int]]:
    """The assignment of the name passed as ``target=``, when it is one in the same scope."""
    target = next((k.value for k in call.keywords if k.arg == "target"), None)
    if not isinstance(target, ast.Name):
        return {}
    scope = _scope_of(tree, call)
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno < call.lineno:
            for name in node.targets:
                if isinstance(name, ast.Name) and name.id == target.id:
                    return {"bound name": (name.lineno, name.col_offset + 1)}
    return {}


def _scope_of(tree: ast.AST, call: ast.Call) -> ast.AST:
    best: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
            node.lineno <= call.lineno <= (node.end_lineno or node.lineno)
        ):
            best = node
    return best


def same(preview_json: dict[str, Any] | None, sent: dict[str, Any]) -> bool:
    return preview_json is not None and json.dumps(preview_json, sort_keys=True) == json.dumps(
        sent, sort_keys=True
    )


def verdict(report: ModuleReport, line: int, col: int, site: Site) -> tuple[bool, str]:
    """Whether the preview at (line, col) tells what the SDK did there: each target it sent,
    exactly, and a refusal when it refused one, nothing else (all within the bound). With what
    it said."""
    from evalsubmit.analysis.runner_at import runner_at

    found = runner_at(report, line, col)
    shown = [t.target for t in found.targets if t.target is not None]
    refused = [t for t in found.targets if t.target is None and t.problems and not t.unknowns]
    unknown = [t for t in found.targets if t.target is None and t not in refused]
    said = (
        f"{len(shown)} sent + {len(refused)} refused + {len(unknown)} unknown + {found.more} more"
        if found.targets
        else f"{found.reason}"
    )
    if not found.targets:  # one refusal (a config, None, a function as target=) or nothing
        refusal = found.reason is not None and "not a runner" in found.reason
        return refusal and bool(site.raised) and not site.sent, said
    ok = (
        found.more == 0
        and not unknown
        and bool(refused) == bool(site.raised)
        and len(shown) == len(site.sent)
        and all(any(same(s, t) for s in shown) for t in site.sent)
    )
    return ok, said


PREVIEWS = Path(__file__).resolve().parent / "previews"


def preview_cases() -> list[IdiomCase]:
    """The realistic programs of the preview contract (``previews/<case>/``), run by the idiom
    oracle as its cases are (a folder with a ``test_*.py`` runs under pytest)."""
    from idiom_corpus import _folder_case

    return [
        _folder_case(f"previews/{folder.name}", "previews", folder)
        for folder in sorted(PREVIEWS.iterdir())
        if folder.is_dir() and folder.name != "__pycache__"
    ]
