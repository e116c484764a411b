"""Settings of the language server: the ``evalsubmit`` configuration section.

The names, types and defaults are shared with the VS Code client's ``package.json`` (its test
compares against ``python -m evalsubmit.lsp.settings --schema``). Values arrive from
``initializationOptions`` and ``workspace/configuration``; a bad value never fails the whole
section: it is logged and that one field falls back to its default.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import Field, ValidationError

from evalsubmit.analysis import AnalysisOptions
from evalsubmit.platform.config import PlatformSettings, SettingsModel
from evalsubmit.platform.safety import display_url

log = logging.getLogger(__name__)

SECTION = "evalsubmit"
SeverityName = Literal["error", "warning", "information", "hint"]
LogLevel = Literal["error", "warning", "info", "debug"]


class CodeLensSettings(SettingsModel):
    """The "Submit evaluation" code lenses."""

    enable: bool = Field(
        default=True,
        description='Show "▶ Submit evaluation" above the submit() calls and Gym runners that '
        "can be submitted as they are.",
    )


class Settings(SettingsModel):
    """The ``evalsubmit`` section."""

    enable: bool = Field(default=True, description="Enable the evalsubmit language server.")
    select: list[str] = Field(
        default_factory=list,
        description="Rule codes (or prefixes such as ES1) to report; empty means all.",
    )
    ignore: list[str] = Field(
        default_factory=list, description="Rule codes (or prefixes) never to report."
    )
    severity: dict[str, SeverityName] = Field(
        default_factory=dict,
        description='Per-code severity override, e.g. {"ES110": "error"}.',
    )
    debounce_ms: int = Field(
        default=200, ge=0, le=60_000, description="Delay in ms after an edit before re-checking."
    )
    log_level: LogLevel = Field(
        default="info", description="Lowest level of messages sent to the output channel."
    )
    max_file_size_kb: int = Field(
        default=2048, ge=1, le=65_536, description="Files larger than this (KiB) are skipped."
    )
    default_taskset: str | None = Field(
        default=None,
        description="Taskset used by 'Submit evaluation' when the call does not name one.",
    )
    python: str | None = Field(
        default=None,
        description="Python interpreter (or its virtual environment folder) whose installed "
        "packages imports are read from and whose nemo-platform version is compared; read, "
        "never imported. Empty: the interpreter the editor's client sends (the VS Code "
        "extension sends the Python it found), else the Python running the server.",
    )
    code_lens: CodeLensSettings = Field(
        default_factory=CodeLensSettings, description="The Submit evaluation code lenses."
    )
    platform: PlatformSettings = Field(
        default_factory=PlatformSettings, description="NeMo Platform connection."
    )

    def analysis_options(self) -> AnalysisOptions:
        return AnalysisOptions(
            select=frozenset(self.select),
            ignore=frozenset(self.ignore),
            max_chars=self.max_file_size_kb * 1024,
        )

    def redacted(self) -> dict[str, Any]:
        """JSON form with the token and any password in the base URL replaced, safe to log and
        show."""
        data = self.model_dump(mode="json", by_alias=True)
        if self.platform.token is not None:
            data["platform"]["token"] = "<redacted>"
        if self.platform.base_url is not None:  # http://user:password@host
            data["platform"]["baseUrl"] = display_url(self.platform.base_url)
        return data


def parse_settings(raw: object, *, where: str = "settings") -> Settings:
    """Validate a raw section; each invalid field is logged and replaced by its default."""
    if raw is None:
        return Settings()
    if not isinstance(raw, Mapping):
        log.warning("%s: expected an object for '%s', got %s", where, SECTION, type(raw).__name__)
        return Settings()
    data: dict[str, Any] = _plain(raw)
    for _ in range(50):  # each round drops at least one bad field
        try:
            return Settings.model_validate(data)
        except ValidationError as exc:
            dropped: list[list[int | str]] = []
            for error in exc.errors():
                loc = list(error["loc"])
                if any(loc[: len(path)] == path for path in dropped):
                    continue  # a second bad item of a list this round reset already
                path = _drop(data, loc)
                if path is None:
                    return Settings()
                dropped.append(path)
                shown = ".".join(str(p) for p in path)
                log.warning(
                    "%s: invalid value for %s.%s (%s); using the default",
                    where,
                    SECTION,
                    shown,
                    error["msg"],
                )
    return Settings()


def extract_section(options: object) -> object:
    """The ``evalsubmit`` section inside ``initializationOptions`` (bare or wrapped)."""
    if isinstance(options, Mapping):
        for key in (SECTION, "settings"):
            inner = options.get(key)
            if isinstance(inner, Mapping):
                return inner
    return options


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _drop(data: dict[str, Any], loc: Sequence[int | str]) -> list[int | str] | None:
    """Delete the bad value at ``loc`` from ``data`` and return its path: the prefix of ``loc``
    that stops at a list (a bad item resets the whole list). None when there is no such value
    (a required-but-missing nested key cannot happen, all have defaults; be safe)."""
    parent: dict[Any, Any] | None = None
    node: Any = data
    path: list[int | str] = []
    for part in loc:
        if not isinstance(node, dict):
            break
        if part not in node:
            return None
        parent, node = node, node[part]
        path.append(part)
    if parent is None:
        return None
    del parent[path[-1]]
    return path


def json_schema() -> dict[str, Any]:
    return Settings.model_json_schema(by_alias=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evalsubmit.lsp.settings")
    parser.add_argument("--schema", action="store_true", help="print the JSON schema")
    args = parser.parse_args(argv)
    json.dump(json_schema() if args.schema else Settings().redacted(), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
