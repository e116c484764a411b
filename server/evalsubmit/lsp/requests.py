"""One way to register a request handler: it gets ``(snapshot, context, params)``.

As in ruff's server, a handler never sees the server. :class:`Requests` does what every
handler of a document request did for itself before:

* a request on a notebook cell is moved onto the notebook's joined module and its answer
  back onto the cell (the feature's :class:`CellMapping`, :mod:`.cell_features`);
* the :class:`~evalsubmit.lsp.snapshot.Snapshot` is taken once: the analysis to answer from
  (waited for, bounded, or the latest), then the document's text, version and settings;
* the ``enable`` setting is applied;
* a failure is logged and answered with the handler's default (:func:`.logs.guarded`).

The handler then reads only its snapshot, its :class:`Context` and its params.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, TypeVar

from evalsubmit.analysis import AnalysisOptions, ModuleReport
from evalsubmit.lsp.convert import Encoding
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.notebooks import Layout, OpenNotebook
from evalsubmit.lsp.snapshot import Analysis, Snapshot
from evalsubmit.lsp.state import uri_to_path

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from evalsubmit.lsp.analyses import Analyses
    from evalsubmit.lsp.state import Session
    from evalsubmit.platform.catalog import Catalog

P = ParamSpec("P")
R = TypeVar("R")
Params = TypeVar("Params")
Answer = TypeVar("Answer")


class Wait(enum.Enum):
    """Which analysis a request is answered from."""

    RESULT = "result"
    """The one of the present text, waited for (bounded; else the latest): hover, code
    actions, code lens. Not answered before the document has one."""
    LATEST = "latest"
    """The latest there is, never waited for (completion and signature help read the present
    text; the analysis only names the workspace the code uses)."""


@dataclass(frozen=True, slots=True)
class Context:
    """What a handler may use besides its snapshot: the client's capabilities, the analysis
    pool, and the session's caches. Never the server."""

    encoding: Encoding
    document_changes: bool
    """The client takes versioned ``documentChanges`` in a workspace edit."""
    snippet_edits: bool
    """The client applies snippet text edits (LSP 3.18): a fix whose value only the user knows
    (ES105's taskset) is offered with it as a placeholder to type over."""
    catalog: Catalog
    """The platform's tasksets and workspaces, kept for a short time (completion)."""
    in_pool: Callable[..., Awaitable[Any]]
    """Run blocking work in the analysis pool: ``await in_pool(fn, *args)``."""
    analyzer: Callable[[AnalysisOptions], Callable[[str], ModuleReport]]
    """Analyse another text as if it were the snapshot's document (fix previews)."""
    first_analysis: Callable[[float], Awaitable[Analysis | None]]
    """Wait up to that many seconds for the document's analysis (a document just opened)."""


@dataclass(frozen=True, slots=True)
class Moved(Generic[Params, Answer]):
    """A request on a cell, moved onto its notebook's module, and the way its answer (computed
    on ``snapshot``'s analysis; None when none was) goes back onto the cell."""

    params: Params
    back: Callable[[Answer | None, Snapshot | None], Answer | None]


CellMapping = Callable[[Params, "CellPlace"], "Moved[Params, Answer] | None"]
"""How a feature's request on a notebook cell is answered on the notebook's module (None:
there is nothing to answer there, e.g. a markdown cell)."""


@dataclass(frozen=True, slots=True)
class CellPlace:
    """A request's cell: its notebook, the notebook's present layout, the cell's index."""

    uri: str
    notebook: OpenNotebook
    layout: Layout
    index: int
    encoding: Encoding
    document_changes: bool

    def result_layout(self, snapshot: Snapshot | None) -> Layout:
        """The layout the answer was computed on (its analysis's notebook version)."""
        analysis = snapshot.analysis if snapshot is not None else None
        layout = self.notebook.layout(analysis.version if analysis is not None else None)
        assert layout is not None  # an open notebook has one from its didOpen on
        return layout


Handler = Callable[[Snapshot, Context, Params], Awaitable[Answer]]


class Requests:
    """Registers the document request handlers of one server (see the module's docstring)."""

    def __init__(
        self, server: LanguageServer, session: Session, analyses: Analyses, catalog: Catalog
    ) -> None:
        self._server = server
        self._session = session
        self._analyses = analyses
        self._catalog = catalog

    def document(
        self,
        method: str,
        handler: Handler[Params, Answer],
        *,
        options: Any = None,
        wait: Wait = Wait.RESULT,
        cells: CellMapping[Params, Answer] | None = None,
        default: Any = None,
    ) -> None:
        """Register ``handler`` for the document request ``method``."""

        @guarded(default)
        async def answer(params: Any) -> Any:
            place = self._cell(params.text_document.uri)
            if place is not None and cells is not None:
                moved = cells(params, place)
                if moved is None:
                    return None
                snapshot, found = await self._answer(handler, moved.params, wait)
                return moved.back(found, snapshot)
            return (await self._answer(handler, params, wait))[1]

        answer.__name__ = getattr(handler, "__name__", method)
        self._server.feature(method, options)(answer)

    async def _answer(
        self, handler: Handler[Params, Answer], params: Any, wait: Wait
    ) -> tuple[Snapshot | None, Answer | None]:
        snapshot = await self.snapshot(params.text_document.uri, wait)
        if snapshot is None:
            return None, None
        return snapshot, await handler(snapshot, self.context(snapshot), params)

    async def snapshot(self, uri: str, wait: Wait = Wait.RESULT) -> Snapshot | None:
        """The document as a request finds it; None when there is nothing to answer from (not
        analysed yet, when the feature waits for a result) or the ``enable`` setting is off
        (the analysis's, or, for a feature that reads the present text, the folder's now)."""
        if wait is Wait.RESULT:
            analysis = await self._analyses.analysis(uri)
            if analysis is None or not analysis.settings.enable:
                return None
        else:
            await self._analyses.wait_ready()
            analysis = self._analyses.latest(uri)
        settings = self._session.settings.for_uri(uri)
        if wait is Wait.LATEST and not settings.enable:
            return None
        document = self._server.workspace.get_text_document(uri)
        return Snapshot(
            uri=uri,
            path=uri_to_path(uri),
            version=document.version,
            text=document.source,
            settings=settings,
            analysis=analysis,
            cell_versions=self._cell_versions(uri),
        )

    def context(self, snapshot: Snapshot) -> Context:
        analyses, uri = self._analyses, snapshot.uri

        def analyzer(options: AnalysisOptions) -> Callable[[str], ModuleReport]:
            return analyses.analyzer(uri, options)

        async def first_analysis(wait_s: float) -> Analysis | None:
            return snapshot.analysis or await analyses.analysis(uri, wait_s=wait_s)

        session = self._session
        return Context(
            encoding=session.encoding,
            document_changes=session.document_changes,
            snippet_edits=session.snippet_edits,
            catalog=self._catalog,
            in_pool=analyses.in_pool,
            analyzer=analyzer,
            first_analysis=first_analysis,
        )

    def _cell(self, uri: str) -> CellPlace | None:
        found = self._session.notebooks.of_cell(uri)
        if found is None:
            return None
        notebook, layout, index = found
        session = self._session
        return CellPlace(uri, notebook, layout, index, session.encoding, session.document_changes)

    def _cell_versions(self, uri: str) -> dict[str, int | None]:
        """For a notebook: the version of each of its cells now (edits of cells name them)."""
        notebook = self._session.notebooks.get(uri)
        if notebook is None or notebook.current is None:
            return {}
        workspace = self._server.workspace
        return {
            cell: workspace.get_text_document(cell).version for cell in notebook.current.cell_uris
        }
