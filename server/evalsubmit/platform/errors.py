"""The one exception type of the platform edge, and the user-facing messages it carries.

Everything that can go wrong between evalsubmit and a NeMo Platform (nothing listening, a
timeout, a refused token, a missing taskset, a schema error, a duplicate name, a server fault,
a body that is not JSON) becomes a `PlatformError` whose `message` can be shown to the user as
it is. Messages never contain the access token.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Any

START_LOCAL_HINT = (
    "Start the platform (for example `nmp services run --services "
    "auth,entities,files,jobs,secrets,evaluator --controllers jobs,entities`), or point "
    "evalsubmit at a running one (setting `evalsubmit.platform.baseUrl`, "
    "NEMO_PLATFORM_BASE_URL, or the active context of the nmp config file)."
)

TOKEN_HINT = (
    "Set a token in the evalsubmit setting `evalsubmit.platform.token`, in NMP_ACCESS_TOKEN, or "
    "log in with `nemo auth login`."
)

MAX_DETAIL_CHARS = 600
MAX_VALIDATION_ERRORS = 4


class PlatformErrorKind(StrEnum):
    """What went wrong, coarse enough for a UI to branch on."""

    CONNECTION_REFUSED = "connection_refused"
    CONNECTION = "connection"
    TIMEOUT = "timeout"
    UNAUTHORIZED = "unauthorized"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    INVALID = "invalid"
    CONFLICT = "conflict"
    SERVER = "server"
    BAD_RESPONSE = "bad_response"
    UNKNOWN_OUTCOME = "unknown_outcome"
    CONFIG = "config"
    REDIRECT = "redirect"
    TLS = "tls"


class PlatformError(Exception):
    """A failure at the platform edge, with a message fit for the user.

    `detail` is the platform's own `detail` (parsed JSON when available), for debug displays.
    """

    def __init__(
        self,
        kind: PlatformErrorKind | str,
        message: str,
        status_code: int | None = None,
        detail: Any = None,
    ) -> None:
        super().__init__(message)
        self.kind = PlatformErrorKind(kind)
        self.message = message
        self.status_code = status_code
        self.detail = detail

    def __repr__(self) -> str:
        return (
            f"PlatformError(kind={self.kind.value!r}, status_code={self.status_code!r}, "
            f"message={self.message!r})"
        )


def _shorten(text: str, limit: int = MAX_DETAIL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_TRANSFORM_PREFIX = re.compile(r"^Failed to transform \S+ job input to output:\s*")


def _loc_text(loc: Any, drop_branch: str | None = None) -> str:
    """`["body", "spec", "target", "function-after[..., GymRunnerTarget]", "x"]` ->
    `spec.target.x` when `drop_branch` is "GymRunnerTarget"."""
    if not isinstance(loc, list | tuple):
        return str(loc)
    parts = [str(p) for p in loc if p != "body" and not (drop_branch and drop_branch in str(p))]
    return ".".join(parts) if parts else "body"


def summarize_detail(detail: Any) -> str:
    """A short, readable rendering of a FastAPI/pydantic `detail`.

    A target schema error comes back with one entry per union branch (15-23 entries); entries
    that mention the Gym branch are preferred, the rest are counted, not listed.
    """
    if detail is None:
        return ""
    if isinstance(detail, str):
        return _shorten(_TRANSFORM_PREFIX.sub("", detail))
    if isinstance(detail, list) and all(isinstance(e, dict) for e in detail):
        entries: list[dict[str, Any]] = list(detail)
        gym = [e for e in entries if "GymRunnerTarget" in _loc_text(e.get("loc"))]
        shown = gym or entries
        lines = []
        for entry in shown[:MAX_VALIDATION_ERRORS]:
            loc = _loc_text(entry.get("loc", ()), "GymRunnerTarget" if gym else None)
            msg = str(entry.get("msg", entry.get("type", "invalid")))
            lines.append(f"{loc}: {msg}")
        rest = len(entries) - len(lines)
        text = "; ".join(lines)
        if rest > 0:
            text += f" (and {rest} more error{'s' if rest != 1 else ''})"
        return _shorten(text)
    try:
        return _shorten(json.dumps(detail, default=str))
    except (TypeError, ValueError):
        return _shorten(str(detail))


def http_error(
    status_code: int,
    detail: Any,
    *,
    base_url: str,
    action: str,
    workspace: str | None = None,
    job_name: str | None = None,
) -> PlatformError:
    """Map an HTTP error status of the platform to a `PlatformError` with a clear message.

    `action` names what was attempted ("submit the job", "read taskset 'ws/x'").
    """
    summary = summarize_detail(detail)
    if summary and summary[-1] not in ".!?)":
        summary += "."
    said = f" The platform said: {summary}" if summary else ""
    where = f" in workspace '{workspace}'" if workspace else ""
    if status_code == 401:
        return PlatformError(
            PlatformErrorKind.UNAUTHORIZED,
            f"The NeMo Platform at {base_url} refused to {action} (401 Unauthorized): "
            f"the access token is missing, invalid or expired. {TOKEN_HINT}",
            status_code,
            detail,
        )
    if status_code == 403:
        return PlatformError(
            PlatformErrorKind.FORBIDDEN,
            f"The NeMo Platform at {base_url} refused to {action} (403 Forbidden): the access "
            f"token has no permission for this{where}. Ask for a role in that workspace or use "
            f"another token. {TOKEN_HINT}",
            status_code,
            detail,
        )
    if status_code == 404:
        return PlatformError(
            PlatformErrorKind.NOT_FOUND,
            f"Could not {action}: not found{where} (404).{said}",
            status_code,
            detail,
        )
    if status_code == 409:
        named = f"A job named '{job_name}'" if job_name else "An object with this name"
        return PlatformError(
            PlatformErrorKind.CONFLICT,
            f"Could not {action}: {named} already exists{where} (409 Conflict).{said}",
            status_code,
            detail,
        )
    if status_code == 422:
        return PlatformError(
            PlatformErrorKind.INVALID,
            f"The NeMo Platform refused to {action} (422): {summary or 'invalid request.'}",
            status_code,
            detail,
        )
    if status_code >= 500:
        return PlatformError(
            PlatformErrorKind.SERVER,
            f"The NeMo Platform at {base_url} failed to {action} (HTTP {status_code}, a server "
            f"error).{said} Try again later or check the platform's logs.",
            status_code,
            detail,
        )
    return PlatformError(
        PlatformErrorKind.INVALID,
        f"The NeMo Platform refused to {action} (HTTP {status_code}).{said}",
        status_code,
        detail,
    )


def connection_refused(base_url: str) -> PlatformError:
    return PlatformError(
        PlatformErrorKind.CONNECTION_REFUSED,
        f"Cannot reach the NeMo Platform at {base_url}: connection refused (nothing is "
        f"listening there). {START_LOCAL_HINT}",
    )


def connection_failed(base_url: str, reason: str) -> PlatformError:
    return PlatformError(
        PlatformErrorKind.CONNECTION,
        f"Cannot reach the NeMo Platform at {base_url}: {_shorten(reason, 200)}. Check the base "
        "URL (evalsubmit setting, NEMO_PLATFORM_BASE_URL or the nmp config context) and the "
        "network.",
    )


def timed_out(base_url: str, action: str, timeout_s: float) -> PlatformError:
    return PlatformError(
        PlatformErrorKind.TIMEOUT,
        f"The NeMo Platform at {base_url} did not answer in time ({timeout_s:g} s for the whole "
        f"request) while trying to {action}. Raise the setting `evalsubmit.platform.timeoutS` "
        "or check that the platform (and any proxy in between) is healthy.",
    )


def redirected(base_url: str, action: str, status_code: int, location: str | None) -> PlatformError:
    where = f" to {_shorten(location, 300)}" if location else " (without a Location)"
    return PlatformError(
        PlatformErrorKind.REDIRECT,
        f"The NeMo Platform at {base_url} answered with a redirect (HTTP {status_code}){where} "
        f"while trying to {action}. evalsubmit does not follow redirects, so that the access "
        "token never goes to another address. If that is the platform's real address, set "
        "`evalsubmit.platform.baseUrl` (or NEMO_PLATFORM_BASE_URL) to it.",
        status_code,
    )


def tls_failed(base_url: str, reason: str) -> PlatformError:
    return PlatformError(
        PlatformErrorKind.TLS,
        f"Cannot talk to the NeMo Platform at {base_url} over TLS: {_shorten(reason, 200)}. "
        "Check the scheme of the base URL (http:// or https://) and, for a private certificate "
        "authority, the CA bundle (NMP_CLIENT_SSL_CERT_FILE, NMP_CERTIFICATE_AUTHORITY or the "
        "nmp config's certificate_authority).",
    )


def bad_setting(what: str, source: str, reason: str) -> PlatformError:
    """A platform setting that cannot be used, naming where it came from."""
    return PlatformError(
        PlatformErrorKind.CONFIG,
        f"The NeMo Platform {what} from {source} cannot be used: {reason}.",
    )


def bad_response(base_url: str, action: str, reason: str) -> PlatformError:
    return PlatformError(
        PlatformErrorKind.BAD_RESPONSE,
        f"The NeMo Platform at {base_url} sent a response that evalsubmit cannot read while "
        f"trying to {action}: {_shorten(reason, 200)}. Is this URL really a NeMo Platform?",
    )
