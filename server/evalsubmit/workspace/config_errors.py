"""An invalid configuration file, as :mod:`.config` reports it: the file, and each problem with
its key and line."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from evalsubmit.core.records import record

PYPROJECT_TABLE = "[tool.evalsubmit]"


@record
class Problem:
    """One invalid entry of a configuration file."""

    key: str
    """Dotted key inside the table (``per-file-ignores.tests/**``); empty for the file itself."""
    message: str
    line: int | None = None


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
