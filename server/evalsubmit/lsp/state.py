"""Per-session state: open documents, settings per workspace folder, one Project per folder.

Only the event-loop thread mutates this state; analysis threads receive immutable inputs
(text, options) and a Project whose overlays are set before the analysis is scheduled.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.analysis import Project
from evalsubmit.lsp.convert import Encoding
from evalsubmit.lsp.notebooks import NotebookStore
from evalsubmit.lsp.settings import Settings
from evalsubmit.platform.reach import ReachCache
from evalsubmit.workspace.interpreter import interpreter_from_setting

if TYPE_CHECKING:
    from evalsubmit.lsp.scheduler import DocumentTrack

log = logging.getLogger(__name__)


class SettingsStore:
    """Global settings plus per-folder overrides (multi-root), longest folder prefix wins."""

    def __init__(self) -> None:
        self.global_settings = Settings()
        self.folders: dict[str, Settings] = {}

    def for_uri(self, uri: str) -> Settings:
        holding = [folder for folder in self.folders if uri.startswith(folder.rstrip("/") + "/")]
        best = max(holding, key=len, default=None)
        return self.folders[best] if best is not None else self.global_settings


class ProjectStore:
    """One analysis Project per workspace folder; files outside every folder share one."""

    def __init__(self) -> None:
        self._projects: dict[Path, Project] = {}
        self._loose = Project(None)
        self._watched = False

    def set_folders(self, roots: list[Path]) -> None:
        self._projects = {root: self._projects.get(root) or Project(root) for root in roots}
        for project in self._projects.values():
            project.watched = self._watched

    def watch(self) -> None:
        """The client reports changes of the files on disk (watched files): the projects may
        keep what they read of them until told."""
        self._watched = True
        for project in self.all():
            project.watched = True

    def for_path(self, path: Path) -> Project:
        holding = [root for root in self._projects if path.is_relative_to(root)]
        best = max(holding, key=lambda root: len(root.parts), default=None)
        return self._projects[best] if best is not None else self._loose

    def use_python(self, project: Project, setting: str | None) -> None:
        """Point ``project`` at the interpreter of the ``python`` setting (relative to its
        folder), else the one running the server. Cheap: the environment is read lazily, in
        the analysis that first needs it, and again whenever it changes."""
        python = interpreter_from_setting(setting, project.root) or Path(sys.executable)
        if project.set_python(python):
            where = project.root or "files outside the workspace folders"
            log.info("imports of installed packages in %s are read from %s", where, python)

    def all(self) -> list[Project]:
        return [*self._projects.values(), self._loose]


@dataclass(slots=True)
class Session:
    """What the server knows of the editor's session; request handlers get a snapshot of it."""

    settings: SettingsStore = field(default_factory=SettingsStore)
    projects: ProjectStore = field(default_factory=ProjectStore)
    documents: dict[str, DocumentTrack] = field(default_factory=dict)
    notebooks: NotebookStore = field(default_factory=NotebookStore)
    encoding: Encoding = "utf-16"
    pull_diagnostics: bool = False
    refresh_support: bool = False
    document_changes: bool = False
    snippet_edits: bool = False
    """The client applies snippet text edits (LSP 3.18): a fix whose value only the user
    knows (ES105's taskset) is offered with it as a placeholder to type over."""
    warned_urls: set[str] = field(default_factory=set)
    """Base URLs already warned about (a token sent over plain http:// to another machine)."""
    reach: ReachCache = field(default_factory=ReachCache)
    """Whether each configured platform answers, kept briefly (the status item asks often)."""
