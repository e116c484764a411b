"""The project's configuration file in the server: what a document is checked with.

The same file the CLI reads (:mod:`evalsubmit.workspace.config`, the nearest
``[tool.evalsubmit]`` / ``evalsubmit.toml`` above the document, never above the repository
root, the nearest folder holding ``.git``), under the editor's settings:
a non-empty ``select`` setting replaces the file's choice, ``ignore`` adds to it, and
``defaultTaskset`` wins over ``default-taskset``. It is looked up at every analysis (cached by
mtime, so an edit of the file is seen), and every open document is re-checked when the client
reports a configuration file changed (``workspace/didChangeWatchedFiles``).

An invalid file is never replaced by defaults: the documents it governs are published without
diagnostics, with the reason logged, and the error is shown once (again only if it changes).
"""

from __future__ import annotations

import itertools
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from evalsubmit.analysis import AnalysisOptions, config_resolver, configured_options
from evalsubmit.core.records import record, replace
from evalsubmit.lsp.settings import Settings
from evalsubmit.workspace.config import CONFIG_NAMES, ConfigError, RuleSelection

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

WATCHED = tuple(f"**/{name}" for name in CONFIG_NAMES)
"""Glob patterns of the files the server asks the client to watch."""


@record
class Effective:
    """What one document is checked with."""

    options: AnalysisOptions
    default_taskset: str | None
    config_file: Path | None
    """The configuration file in effect (None: none found)."""
    skipped: str | None = None
    """Why the document is not checked: excluded, or its configuration file is invalid."""
    error: ConfigError | None = None
    """The invalid configuration file's problems, for :meth:`ProjectConfigs.show`."""
    read: int = 0
    """When the file was read, in the order of reads: an analysis that read it before another
    may be shown after it, and must not undo what the later read said."""


def is_config_file(path: Path) -> bool:
    return path.name in CONFIG_NAMES


class ProjectConfigs:
    """The configuration files of the session. :meth:`effective` runs with the analysis, in
    the worker pool (it reads files, and the first table found imports pydantic);
    :meth:`show` tells the user, on the event loop, once per file and problem."""

    def __init__(self, server: LanguageServer) -> None:
        self._server = server
        self._resolver = config_resolver()
        self._shown: dict[Path, str] = {}
        """The error last shown per configuration file: shown once, not at every keystroke."""
        self._reads = itertools.count(1)
        self._reading = threading.Lock()
        self._latest: dict[Path, int] = {}
        """The latest read of each file :meth:`show` was given (on the event loop)."""

    def effective(self, path: Path, settings: Settings) -> Effective:
        if not settings.enable:  # nothing is checked: no file to read, no error to show
            return Effective(settings.analysis_options(), settings.default_taskset, None)
        try:
            with self._reading:  # reads numbered in the order they were made
                read = next(self._reads)
                config = self._resolver.for_path(path)
        except ConfigError as error:
            why = f"the configuration file {error.file} is invalid (see the log)"
            return Effective(settings.analysis_options(), None, error.file, why, error, read)
        except Exception:  # a bug here must not stop the document's checks for good
            log.exception("could not read the configuration of %s", path)
            why = "its configuration could not be read (see the log)"
            return Effective(settings.analysis_options(), None, None, skipped=why)
        if config.excludes(path):
            why = f"excluded by the exclude of {config.file}"
            return Effective(settings.analysis_options(), None, config.file, why, read=read)
        editor = RuleSelection(
            select=frozenset(settings.select) or None, ignore=frozenset(settings.ignore)
        )
        options = configured_options(
            config, path, [editor], max_chars=settings.max_file_size_kb * 1024
        )
        taskset = settings.default_taskset or config.default_taskset
        # the taskset fills in ES105's fix; without one the fix is kept for a snippet
        options = replace(options, default_taskset=taskset, placeholders=True)
        return Effective(options, taskset, config.file, read=read)

    def show(self, effective: Effective) -> None:
        """Show an invalid configuration file's problems (once until they change); a file that
        is valid again is forgotten, so that a new error in it is shown. What an older read of
        the file said is not news (an analysis that was under way when the file changed)."""
        file = effective.config_file
        if file is not None:
            if effective.read < self._latest.get(file, 0):
                return
            self._latest[file] = effective.read
        if effective.error is not None:
            self._report(effective.error)
        elif effective.config_file is not None:
            self._shown.pop(effective.config_file, None)

    def _report(self, error: ConfigError) -> None:
        message = str(error)
        if self._shown.get(error.file) == message:
            return
        self._shown[error.file] = message
        log.error("%s\nfiles it governs are not checked until it is fixed", message)
        self._server.window_show_message(
            types.ShowMessageParams(
                type=types.MessageType.Error,
                message=f"evalsubmit: {message}\n(files it governs are not checked until "
                "it is fixed)",
            )
        )
