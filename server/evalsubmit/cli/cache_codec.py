"""What a result cache entry is, as bytes (:mod:`.result_cache` decides when one is used):
JSON data, and the code that proves this user's evalsubmit wrote it.

Data only, never code: a cache file is read from the user's tree, which anyone could have put
there, so nothing in it is executed (no pickle) and anything that is not exactly the expected
shape is refused with :class:`CorruptEntry` (the entry is then a miss, never an error). Every
field of a finding round-trips: its fixes with their edits, and the occasions it was found on.

An entry may have come with the repository (committed with ``git add -f``, a copied folder).
It is used only when its code verifies: keyed BLAKE2b (a MAC by design, RFC 7693) over the
entry's bytes, its name and the absolute path of the folder it is in. Only this user's
evalsubmit holds the key, so an edited entry, an entry from another machine or CI container,
or one copied from another folder, never verifies. The key is kept outside every project:
``$XDG_CACHE_HOME/evalsubmit/`` (else ``~/.cache/evalsubmit/``), a folder created 0700, the
key file 0600. It is created on first use by one process alone: written to a temporary file,
then linked to its name, which fails when another run linked its own first (that one is then
read). It is read once per run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Any

from evalsubmit.core.blake import blake2b, compare_digest
from evalsubmit.core.findings import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Label,
    LabelKind,
    Occasion,
    Severity,
    Site,
    Span,
)
from evalsubmit.core.sourcefile import UnreadableSource, read_regular_file

# ----- the user's key and the codes made with it -----------------------------------------

KEY_BYTES = 32
KEY_FILE = "result-cache.key"
CODE_CHARS = 2 * KEY_BYTES
"""The length of a code, in hex digits."""
_ENTRY = b"evalsubmit-entry"
_OWNER = b"evalsubmit-owner"
"""Each kind of code is personalised (BLAKE2b's ``person``): one never verifies as another."""


class NoKey(Exception):
    """The key cannot be read or created: nothing is cached this run."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def key_folder() -> Path:
    """The user's own cache folder of evalsubmit (XDG's rule: a relative value is ignored)."""
    configured = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(configured) if os.path.isabs(configured) else Path.home() / ".cache"
    return base / "evalsubmit"


def load_key() -> bytes:
    """This user's key, created on first use; raises :class:`NoKey`."""
    folder = key_folder()
    path = folder / KEY_FILE
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)
        if not os.path.lexists(path):
            _create(path)
    except OSError as error:
        raise NoKey(folder, error.strerror or type(error).__name__) from None
    return _read(path)


def _create(path: Path) -> None:
    import tempfile

    handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)  # O_EXCL, 0600
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(os.urandom(KEY_BYTES))
            stream.flush()
            os.fsync(stream.fileno())
        with contextlib.suppress(FileExistsError):  # another run's came first: it is used
            os.link(temporary, path)  # (a link never replaces a file, as a rename would)
    finally:
        os.unlink(temporary)


def _read(path: Path) -> bytes:
    try:
        key = read_regular_file(path, max_bytes=KEY_BYTES, follow_link=False)
        info = os.lstat(path)
    except (UnreadableSource, OSError) as error:
        raise NoKey(path, getattr(error, "reason", None) or str(error)) from None
    if hasattr(os, "geteuid") and (info.st_uid != os.geteuid() or info.st_mode & 0o077):
        mode = stat.filemode(info.st_mode)
        raise NoKey(path, f"not this user's private file ({mode}); remove it to make a new key")
    if len(key) != KEY_BYTES:
        raise NoKey(path, f"{os.strerror(errno.EINVAL)}: remove it to make a new key")
    return key


def entry_code(key: bytes, folder: Path, name: str, body: bytes) -> bytes:
    """The code of an entry's ``body``, stored as ``name`` in ``folder`` (absolute)."""
    mac = blake2b(key=key, digest_size=KEY_BYTES, person=_ENTRY)
    mac.update(os.fsencode(folder) + b"\0" + name.encode("utf-8", "surrogateescape") + b"\0")
    mac.update(body)
    return mac.hexdigest().encode("ascii")


def owner_code(key: bytes, folder: Path) -> bytes:
    """The mark that this user's evalsubmit made ``folder`` (absolute) as a cache folder."""
    mac = blake2b(os.fsencode(folder), key=key, digest_size=KEY_BYTES, person=_OWNER)
    return mac.hexdigest().encode("ascii")


def signed(key: bytes, folder: Path, name: str, body: bytes) -> bytes:
    """An entry as written: its code, a line end, its body."""
    return entry_code(key, folder, name, body) + b"\n" + body


def verified(key: bytes, folder: Path, name: str, data: bytes) -> bytes | None:
    """The body of an entry as read (None: its code does not verify)."""
    code, separator = data[:CODE_CHARS], data[CODE_CHARS : CODE_CHARS + 1]
    if separator != b"\n":
        return None
    body = data[CODE_CHARS + 1 :]
    return body if compare_digest(code, entry_code(key, folder, name, body)) else None


# ----- an entry's JSON ---------------------------------------------------------------------


class CorruptEntry(ValueError):
    """A cache entry that is not what this version writes."""


Observations = list[tuple[str, str, str | None]]
"""What an analysis asked of other files: (kind, key, answer) (:mod:`.workspace.observed`)."""


def encode_entry(
    key: dict[str, Any],
    observations: Observations,
    findings: list[Finding],
    remote: tuple[tuple[Path, Finding], ...],
    skipped: str | None,
    suppressed: list[Finding],
) -> bytes:
    import json

    entry = {
        "key": key,
        "observed": [list(observation) for observation in observations],
        "result": {
            "findings": encode_findings(findings),
            "remote": encode_remote(remote),
            "skipped": skipped,
            "suppressed": encode_findings(suppressed),
        },
    }
    return json.dumps(entry, separators=(",", ":")).encode("ascii")


def entry_key(body: bytes) -> tuple[object, dict[str, Any]]:
    """An entry's key, and the entry to pass on to :func:`decode_entry` once the key matches
    (its findings are decoded only then)."""
    import json

    data = json.loads(body)
    if not isinstance(data, dict):
        raise CorruptEntry("an entry is an object")
    return data["key"], data


def decode_observations(entry: dict[str, Any]) -> Observations:
    decoded: Observations = []
    for observation in _list(entry["observed"]):
        kind, key, answer = _fields(observation, 3)
        if answer is not None and not isinstance(answer, str):
            raise CorruptEntry("an observation's answer is a string or null")
        decoded.append((_str(kind), _str(key), answer))
    return decoded


def decode_result(
    entry: dict[str, Any],
) -> tuple[list[Finding], tuple[tuple[Path, Finding], ...], str | None, list[Finding]]:
    """An entry's findings, remote findings, reason for skipping, and suppressed findings."""
    result = entry["result"]
    skipped = result["skipped"]
    if skipped is not None and not isinstance(skipped, str):
        raise CorruptEntry("skipped is a string or null")
    findings = decode_findings(result["findings"])
    return findings, decode_remote(result["remote"]), skipped, decode_findings(result["suppressed"])


def source_of(body: bytes) -> str | None:
    """The source file an entry is about (None: not an entry this version reads)."""
    import json

    try:
        data = json.loads(body)
        source = data["key"]["path"] if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError):
        return None
    return source if isinstance(source, str) else None


# ----- findings ---------------------------------------------------------------------------
def encode_findings(findings: tuple[Finding, ...] | list[Finding]) -> list[Any]:
    return [_encode_finding(finding) for finding in findings]


def decode_findings(data: object) -> list[Finding]:
    return [_decode_finding(item) for item in _list(data)]


def encode_remote(remote: tuple[tuple[Path, Finding], ...]) -> list[Any]:
    return [[str(path), _encode_finding(finding)] for path, finding in remote]


def decode_remote(data: object) -> tuple[tuple[Path, Finding], ...]:
    pairs = []
    for item in _list(data):
        path, finding = _fields(item, 2)
        pairs.append((Path(_str(path)), _decode_finding(finding)))
    return tuple(pairs)


def _encode_finding(finding: Finding) -> list[Any]:
    return [
        finding.code,
        finding.kind,
        finding.severity.value,
        finding.message,
        _encode_span(finding.span),
        [_encode_fix(fix) for fix in finding.fixes],
        [_encode_occasion(occasion) for occasion in finding.context],
        *([] if finding.cell is None else [finding.cell]),  # a notebook's: the span is the cell's
    ]


def _decode_finding(data: object) -> Finding:
    items = _list(data)
    cell = _int(items.pop()) if len(items) == 8 else None
    code, kind, severity, message, span, fixes, context = _fields(items, 7)
    try:
        level = Severity(_str(severity))
    except ValueError:
        raise CorruptEntry(f"unknown severity {severity!r}") from None
    return Finding(
        _str(code),
        _str(kind),
        level,
        _str(message),
        _decode_span(span),
        tuple(_decode_fix(fix) for fix in _list(fixes)),
        tuple(_decode_occasion(item) for item in _list(context)),
        cell,
    )


def _encode_span(span: Span) -> list[int]:
    return [span.line, span.col, span.end_line, span.end_col]


def _decode_span(data: object) -> Span:
    line, col, end_line, end_col = (_int(value) for value in _fields(data, 4))
    return Span(line, col, end_line, end_col)


def _encode_fix(fix: Fix) -> list[Any]:
    edits = [[_encode_span(edit.span), edit.new_text] for edit in fix.edits]
    return [fix.title, edits, fix.applicability.value]


def _decode_fix(data: object) -> Fix:
    title, edits, applicability = _fields(data, 3)
    decoded = []
    for edit in _list(edits):
        span, new_text = _fields(edit, 2)
        decoded.append(Edit(_decode_span(span), _str(new_text)))
    try:
        safety = Applicability(_str(applicability))
    except ValueError:
        raise CorruptEntry(f"unknown applicability {applicability!r}") from None
    return Fix(_str(title), tuple(decoded), safety)


def _encode_occasion(occasion: Occasion) -> list[Any]:
    lines = list(occasion.lines) if occasion.lines is not None else None
    site, label = occasion.group, occasion.label
    return [
        [site.kind, site.line, site.col],
        occasion.index,
        occasion.total,
        [label.kind.value, label.name, label.line],
        lines,
    ]


def _decode_occasion(data: object) -> Occasion:
    group, index, total, label, lines = _fields(data, 5)
    span = None
    if lines is not None:
        first, last = _fields(lines, 2)
        span = (_int(first), _int(last))
    kind, name, line = _fields(label, 3)
    try:
        decoded = Label(LabelKind(_str(kind)), _str(name), _int(line))
    except ValueError:
        raise CorruptEntry(f"unknown label kind {kind!r}") from None
    site, line, col = _fields(group, 3)
    return Occasion(
        Site(_str(site), _int(line), _int(col)), _int(index), _int(total), decoded, span
    )


def _list(data: object) -> list[Any]:
    if not isinstance(data, list):
        raise CorruptEntry(f"expected a list, got {type(data).__name__}")
    return data


def _fields(data: object, count: int) -> list[Any]:
    items = _list(data)
    if len(items) != count:
        raise CorruptEntry(f"expected {count} fields, got {len(items)}")
    return items


def _str(data: object) -> str:
    if not isinstance(data, str):
        raise CorruptEntry(f"expected a string, got {type(data).__name__}")
    return data


def _int(data: object) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise CorruptEntry(f"expected a number, got {type(data).__name__}")
    return data
