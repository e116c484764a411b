"""Fixtures of the SDK contract test: the corpus and the (cached) verdicts of the real SDK."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from engine_strict import _strict_engine  # noqa: F401  (autouse: engine bugs fail tests)
from evalsubmit.sdk.version import SDK_RELEASE

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS_FILE = HERE / "corpus.py"
ORACLE_FILE = HERE / "sdk_oracle.py"
CACHE_DIR = ROOT / ".cache" / "contract"
IDIOM_ORACLE_FILE = HERE / "idiom_oracle.py"
CONSTRAINT_CASES_FILE = HERE / "constraint_cases.py"
CONSTRAINT_ORACLE_FILE = HERE / "constraint_oracle.py"
IDIOM_CACHES_KEPT = 4

#: The idiom corpus and the preview cases are input data (run by the oracle), not tests.
collect_ignore = ["idioms", "previews"]


def _sdk_python() -> Path:
    """The SDK venv's interpreter, creating the venv once (``scripts/sdk-venv.sh``)."""
    try:
        done = subprocess.run(
            [str(ROOT / "scripts" / "sdk-venv.sh")],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:  # pragma: no cover - environment
        pytest.skip(f"SDK venv (Python 3.12 + {SDK_RELEASE}) cannot be created: {exc}")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["scripts/sdk-venv.sh failed"])[-1]
        if "no Python 3.12" in done.stderr:
            pytest.skip(f"SDK venv (Python 3.12 + {SDK_RELEASE}) cannot be created: {last}")
        pytest.fail(f"scripts/sdk-venv.sh failed: {done.stderr[-2000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def _sdk_fingerprint(python: Path) -> str:
    """Versions of what decides the verdicts, read from the venv's dist-info names."""
    site = sorted(python.parent.parent.glob("lib/python3*/site-packages"))
    names = sorted(
        p.name
        for s in site
        for p in s.glob("*.dist-info")
        if p.name.lower().startswith(("nemo_platform", "pydantic"))
    )
    return ";".join(names)


@pytest.fixture(scope="session")
def oracle() -> dict[str, Any]:
    """The SDK's verdict per case id, cached under ``.cache/contract/`` by corpus+oracle+SDK."""
    return _cached_oracle("oracle", ORACLE_FILE, CORPUS_FILE, keep=1, timed=True)


def _cached_oracle(
    prefix: str,
    script: Path,
    cases: Path | str,
    *,
    inputs: bytes | None = None,
    keep: int,
    timed: bool = False,
    timeout: int = 600,
) -> dict[str, Any]:
    """``script CASES`` run by the SDK's interpreter, its JSON answer cached under
    ``.cache/contract/`` by a hash of ``inputs`` (the cases file's bytes when not given), the
    script and the SDK versions (the newest ``keep`` answers are kept: worktrees share the
    cache). ``cases`` is a file, or the JSON request to hand the script in a file."""
    python = _sdk_python()
    digest = hashlib.sha256()
    digest.update(inputs if inputs is not None else Path(cases).read_bytes())
    digest.update(script.read_bytes())
    digest.update(_sdk_fingerprint(python).encode())
    cache = CACHE_DIR / f"{prefix}-{digest.hexdigest()[:20]}.json"
    if cache.is_file():
        return dict(json.loads(cache.read_text()))
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    argument = cases if isinstance(cases, Path) else cache.with_suffix(f".request.{os.getpid()}")
    if isinstance(cases, str):
        argument.write_text(cases)
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [str(python), str(script), str(argument)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=ROOT,
            env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST")},
        )
    finally:
        if isinstance(cases, str):
            argument.unlink(missing_ok=True)
    assert done.returncode == 0, f"{script.name} ({prefix}) failed:\n{done.stderr[-4000:]}"
    report = dict(json.loads(done.stdout))
    if timed:
        report["oracle_wall_seconds"] = round(time.perf_counter() - start, 3)
    old = sorted(CACHE_DIR.glob(f"{prefix}-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in old[keep - 1 :]:
        stale.unlink(missing_ok=True)
    tmp = cache.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(report, indent=1))
    tmp.replace(cache)
    return report


def _files_digest_input(paths: Any) -> bytes:
    """Each file's repository path and bytes, in order (what an oracle's answer depends on)."""
    from idiom_corpus import REPO

    return b"".join(
        p.relative_to(REPO).as_posix().encode() + b"\0" + p.read_bytes() + b"\0" for p in paths
    )


@pytest.fixture(scope="session")
def idiom_oracle() -> dict[str, Any]:
    """What the real SDK does in every idiom case and new example (``idiom_oracle.py``), cached
    under ``.cache/contract/`` by a hash of the cases, the oracle and the SDK versions."""
    from idiom_corpus import input_files, oracle_request

    inputs = _files_digest_input(input_files()) + (HERE / "idiom_corpus.py").read_bytes()
    return _cached_oracle(
        "idioms",
        IDIOM_ORACLE_FILE,
        json.dumps(oracle_request()),
        inputs=inputs,
        keep=IDIOM_CACHES_KEPT,
        timed=True,
        timeout=1800,
    )


@pytest.fixture(scope="session")
def constraint_oracle() -> dict[str, Any]:
    """The real ``GymRuntimeConfig`` on every generated input (``constraint_oracle.py``), cached
    under ``.cache/contract/`` by a hash of the cases, the oracle and the SDK versions."""
    return _cached_oracle(
        "constraints", CONSTRAINT_ORACLE_FILE, CONSTRAINT_CASES_FILE, keep=IDIOM_CACHES_KEPT
    )


REFUSAL_CASES_FILE = HERE / "refusal_cases.py"
REFUSAL_ORACLE_FILE = HERE / "refusal_oracle.py"


@pytest.fixture(scope="session")
def refusal_oracle() -> dict[str, Any]:
    """What the real SDK does with every program of ``refusal_cases.py`` (``refusal_oracle.py``),
    cached under ``.cache/contract/`` by a hash of the cases, the oracle and the SDK versions."""
    return _cached_oracle(
        "refusals", REFUSAL_ORACLE_FILE, REFUSAL_CASES_FILE, keep=IDIOM_CACHES_KEPT
    )


@pytest.fixture(scope="session")
def preview_oracle() -> dict[str, Any]:
    """What the real SDK sends from every call of the preview cases (``previews/``), run by
    the idiom oracle, cached under ``.cache/contract/`` by a hash of the cases, the oracle and
    the SDK versions."""
    from preview_sites import preview_cases

    cases = preview_cases()
    return _cached_oracle(
        "previews",
        IDIOM_ORACLE_FILE,
        json.dumps({"cases": [case.oracle_entry() for case in cases]}),
        inputs=_files_digest_input(path for case in cases for path in case.files),
        keep=IDIOM_CACHES_KEPT,
    )
