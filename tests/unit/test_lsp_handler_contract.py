"""The LSP request handlers see a snapshot and a context, never the server (docs/lsp.md).

import-linter's contract ``handlers-without-server`` (pyproject.toml) names the handler modules
and forbids them the server, but it does not see imports under ``if TYPE_CHECKING:`` (the
project excludes them everywhere). This reads the same list and checks every import, and that
no handler module reaches for the live documents (pygls's workspace) or takes the server.
"""

from __future__ import annotations

import ast
import importlib.util
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_IMPORTS = ("evalsubmit.lsp.server", "pygls")
# pygls's live documents, and the session's stores (a handler's "workspace" is the platform's)
FORBIDDEN_ATTRIBUTES = {
    "get_text_document",
    "get_notebook_document",
    "text_documents",
    "notebook_documents",
    "session",
}
FORBIDDEN_NAMES = {"EvalsubmitServer", "LanguageServer"}
FORBIDDEN_PARAMETERS = {"ls", "server"}


def handler_modules() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["id"] == "handlers-without-server"]
    assert contract["forbidden_modules"] == ["evalsubmit.lsp.server"]
    return list(contract["source_modules"])


def problems(source: str) -> list[str]:
    """What in ``source`` lets a handler see more than its snapshot and context."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            if any(name == f or name.startswith(f"{f}.") for f in FORBIDDEN_IMPORTS):
                found.append(f"line {node.lineno}: imports {name}")
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            found.append(f"line {node.lineno}: reads .{node.attr}")
        if isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            found.append(f"line {node.lineno}: names {node.id}")
        if isinstance(node, ast.arg) and node.arg in FORBIDDEN_PARAMETERS:
            found.append(f"line {node.lineno}: takes {node.arg}")
    return found


@pytest.mark.parametrize("module", handler_modules())
def test_a_handler_module_sees_no_server_and_no_live_document(module: str) -> None:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).read_text(encoding="utf-8")
    assert problems(source) == []


def test_every_feature_module_is_under_the_contract() -> None:
    """A module that registers through lsp/requests.py (it imports its Context) is a handler
    module, and must be in the contract's list."""
    listed = set(handler_modules())
    package = ROOT / "server" / "evalsubmit" / "lsp"
    using_context = {
        f"evalsubmit.lsp.{path.stem}"
        for path in package.glob("*.py")
        if "from evalsubmit.lsp.requests import Context" in path.read_text(encoding="utf-8")
    }
    assert using_context, "the handler modules import their Context from lsp/requests.py"
    assert using_context <= listed


def test_the_check_finds_what_it_looks_for() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from evalsubmit.lsp.server import EvalsubmitServer\n"
        "async def hover(ls: EvalsubmitServer, params: object) -> str:\n"
        "    return ls.workspace.get_text_document('file:///a.py').source\n"
    )
    found = problems(source)
    assert "line 3: imports evalsubmit.lsp.server" in found
    assert "line 4: takes ls" in found
    assert "line 4: names EvalsubmitServer" in found
    assert "line 5: reads .get_text_document" in found
    assert problems("import pygls.workspace\n") == ["line 1: imports pygls.workspace"]
