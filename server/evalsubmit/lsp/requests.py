"""One way to register a request handler: it gets ``(snapshot, context, params)``.

As in ruff's server, a handler never sees the server. :class:`Requests` does what every
handler of a document request or server command did for itself before:

* a request on a notebook cell is moved onto the notebook's joined module and its answer
  back onto the cell (the feature's :data:`CellMapping`, :mod:`.cell_features`);
* the :class:`~evalsubmit.lsp.snapshot.Snapshot` is taken once: the analysis to answer from
  (waited for, bounded, or the latest), then the document's text, version and settings;
* the ``enable`` setting is applied;
* a failure is logged and answered with the handler's default (:func:`.logs.guarded`).

The handler then reads only its snapshot, its :class:`Context` and its params.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, Protocol, TypeVar

from evalsubmit.analysis import AnalysisOptions, ModuleReport
from evalsubmit.core.records import record
from evalsubmit.lsp.analyses import REQUEST_WAIT_S
from evalsubmit.lsp.convert import Encoding, uri_to_path
from evalsubmit.lsp.editor import Editor
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.notebooks import Layout, OpenNotebook
from evalsubmit.lsp.protocol import EvalsubmitProtocol
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.snapshot import Analysis, Snapshot

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from evalsubmit.lsp.analyses import Analyses
    from evalsubmit.lsp.state import Session
    from evalsubmit.platform.catalog import Catalog
    from evalsubmit.platform.reach import ReachCache

P = ParamSpec("P")
R = TypeVar("R")
Params = TypeVar("Params")
Answer = TypeVar("Answer")


class InPool(Protocol):
    def __call__(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> Awaitable[R]:
        """``fn(*args, **kwargs)`` in the analysis pool (the event loop stays responsive)."""
        ...


class Wait(enum.Enum):
    """Which analysis a request is answered from."""

    RESULT = "result"
    """The one of the present text, waited for (bounded; else the latest): hover, code
    actions, code lens. Not answered before the document has one."""
    LATEST = "latest"
    """The latest there is, never waited for (completion and signature help read the present
    text; the analysis only names the workspace the code uses)."""


@record
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
    editor: Editor
    """Messages, questions and progress shown in the editor."""
    global_settings: Settings
    """The settings outside every workspace folder (a command that names no document)."""
    reach: ReachCache
    """Whether each configured platform answers, kept briefly (the status item asks often)."""
    in_pool: InPool
    """Run blocking work in the analysis pool: ``await in_pool(fn, *args)``."""
    analyzer: Callable[[str, AnalysisOptions], Callable[[str], ModuleReport]]
    """``analyzer(uri, options)`` analyses another text as if it were that document's (fix
    previews)."""
    analysis: Callable[[str, float], Awaitable[Analysis | None]]
    """``await analysis(uri, wait_s)``: the document's analysis of its present state, waited
    for that long, else its latest (a document just opened has none yet)."""


@record
class Moved(Generic[Params, Answer]):
    """A request on a cell, moved onto its notebook's module, and the way its answer (computed
    on ``snapshot``'s analysis; None when none was) goes back onto the cell."""

    params: Params
    back: Callable[[Answer | None, Snapshot | None], Answer | None]


CellMapping = Callable[[Params, "CellPlace"], "Moved[Params, Answer] | None"]
"""How a feature's request on a notebook cell is answered on the notebook's module (None:
there is nothing to answer there, e.g. a markdown cell)."""


@record
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
Command = Callable[[Snapshot | None, Context, tuple[Any, ...]], Awaitable[Any]]
"""A server command: the snapshot of the document its first argument ``{"uri"}`` names (None
when it names none), and its arguments."""
CommandCells = Callable[[tuple[Any, ...], "CellPlace"], tuple[Any, ...]]
"""How a command naming a place in a notebook cell names it in the notebook's module."""


class Requests:
    """Registers the document request handlers of one server (see the module's docstring)."""

    def __init__(
        self, server: LanguageServer, session: Session, analyses: Analyses, catalog: Catalog
    ) -> None:
        self._server = server
        self._session = session
        self._analyses = analyses
        self._catalog = catalog
        self._editor = Editor(server, session.warned_urls)

    def document(
        self,
        method: str,
        handler: Handler[Params, Answer],
        *,
        options: Any = None,
        wait: Wait = Wait.RESULT,
        cells: CellMapping[Params, Answer] | None = None,
    ) -> None:
        """Register ``handler`` for the document request ``method`` (a failure answers None)."""

        @guarded()
        async def answer(params: Any) -> Any:
            place = self._cell(params.text_document.uri) if cells is not None else None
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
        return snapshot, await handler(snapshot, self.context(), params)

    async def snapshot(self, uri: str, wait: Wait = Wait.RESULT) -> Snapshot | None:
        """The document as a request finds it; None when there is nothing to answer from (not
        analysed yet, when the feature waits for a result) or the ``enable`` setting is off
        (the analysis's, or, for a feature that reads the present text, the folder's now)."""
        await self._analyses.wait_ready()
        if wait is Wait.RESULT:
            analysis, fresh = await self._analyses.analysis_and_freshness(uri)
            if analysis is None or not analysis.settings.enable:
                return None
        else:
            analysis, fresh = self._analyses.latest(uri), False
            if not self._session.settings.for_uri(uri).enable:
                return None
        return self._take(uri, analysis, fresh)

    def _take(self, uri: str, analysis: Analysis | None, fresh: bool) -> Snapshot:
        """The snapshot, once ``analysis`` is there: the document's text and version now."""
        document = self._server.workspace.get_text_document(uri)
        return Snapshot(
            uri=uri,
            path=uri_to_path(uri),
            version=document.version,
            text=document.source,
            settings=self._session.settings.for_uri(uri),
            analysis=analysis,
            fresh=fresh,
            cell_versions=self._cell_versions(uri),
        )

    def command(
        self,
        name: str,
        handler: Command,
        *,
        cells: CommandCells | None = None,
        wait_s: float = REQUEST_WAIT_S,
        on_cancel: Callable[[Context], None] | None = None,
    ) -> None:
        """Register ``handler`` for the server command ``name``; its snapshot's analysis is the
        present state's, waited for ``wait_s`` (else the latest). ``on_cancel`` tells the
        user when the client cancels the command while it waits for it."""

        @guarded()
        async def run(*args: Any) -> Any:
            protocol = self._server.protocol
            if isinstance(protocol, EvalsubmitProtocol):
                protocol.track_command()  # so that $/cancelRequest reaches it
            first = args[0] if args and isinstance(args[0], Mapping) else {}
            uri = first.get("uri")
            place = self._cell(uri) if isinstance(uri, str) and cells is not None else None
            if place is not None and cells is not None:
                args = cells(args, place)
                uri = place.notebook.uri
            snapshot = None
            try:
                await self._analyses.wait_ready()
                if isinstance(uri, str):
                    found = await self._analyses.analysis_and_freshness(uri, wait_s=wait_s)
                    snapshot = self._take(uri, *found)
            except asyncio.CancelledError:
                if on_cancel is not None:
                    on_cancel(self.context())
                raise
            # (after the wait: the context holds the settings read meanwhile)
            return await handler(snapshot, self.context(), args)

        run.__name__ = getattr(handler, "__name__", name)
        self._server.command(name)(run)

    def context(self) -> Context:
        session, analyses = self._session, self._analyses
        return Context(
            encoding=session.encoding,
            document_changes=session.document_changes,
            snippet_edits=session.snippet_edits,
            catalog=self._catalog,
            editor=self._editor,
            global_settings=session.settings.global_settings,
            reach=session.reach,
            in_pool=analyses.in_pool,
            analyzer=analyses.analyzer,
            analysis=analyses.analysis,
        )

    def _cell(self, uri: str) -> CellPlace | None:
        session = self._session
        found = session.notebooks.of_cell(uri)  # (its notebook, present layout, cell index)
        if found is None:
            return None
        return CellPlace(uri, *found, session.encoding, session.document_changes)

    def _cell_versions(self, uri: str) -> dict[str, int | None]:
        """For a notebook: the version of each of its cells now (edits of cells name them)."""
        notebook = self._session.notebooks.get(uri)
        if notebook is None or notebook.current is None:
            return {}
        workspace = self._server.workspace
        return {
            cell: workspace.get_text_document(cell).version for cell in notebook.current.cell_uris
        }
