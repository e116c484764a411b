"""An invalid configuration file, as :mod:`.config` reports it: the file, and each problem with
its key and line."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

from evalsubmit.core.records import Record

PYPROJECT_TABLE = "[tool.evalsubmit]"


class Problem(Record):
    """One invalid entry of a configuration file."""

    __slots__ = ("key", "line", "message")
    key: Final[str]
    """Dotted key inside the table (``per-file-ignores.tests/**``); empty for the file itself."""
    message: Final[str]
    line: Final[int | None]

    def __init__(self, key: str, message: str, line: int | None = None) -> None:
        self.key = key
        self.message = message
        self.line = line


class ConfigError(Exception):
    """An invalid configuration file: every problem found, each with its key and line."""

    def __init__(self, file: Path, problems: Iterable[Problem]) -> None:
        self.file = file
        self.problems = tuple(problems)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def lines(self) -> list[str]:
        table = f"{PYPROJECT_TABLE} " if self.file.name == "pyproject.toml" else ""
        out = []
        for problem in self.problems:
            where = f"{self.file}:{problem.line}" if problem.line else str(self.file)
            key = f"{table}{problem.key}: " if problem.key else ""
            out.append(f"{where}: invalid configuration: {key}{problem.message}")
        return out
