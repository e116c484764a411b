"""The user's project: sibling modules, read (never imported) and cached by content."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


class Project:
    """Workspace root plus unsaved editor contents (overlays) that win over the disk."""

    def __init__(self, root: Path | None = None, overlays: Mapping[Path, str] | None = None):
        self.root = root
        self._overlays: dict[Path, str] = dict(overlays or {})

    def set_overlay(self, path: Path, text: str) -> None:
        self._overlays[path] = text

    def drop_overlay(self, path: Path) -> None:
        self._overlays.pop(path, None)
