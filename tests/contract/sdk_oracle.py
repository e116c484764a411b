"""Run every corpus snippet with the real SDK and print the verdicts as JSON.

Usage (with the SDK venv's interpreter, never the project's)::

    .cache/sdk-venv/bin/python tests/contract/sdk_oracle.py tests/contract/corpus.py

The snippets are our own test code (``corpus.py``), not user code. For each one this records:

* ``invalid``: ``pydantic.ValidationError`` while executing the snippet (the config
  construction), with each error's ``loc`` and ``type``;
* ``unserializable``: ``runner_to_target(runner)`` raised (``UnsubmittableRunnerError`` or any
  other exception that escapes the SDK's JSON probe), with the exception type;
* ``iterator``: conversion worked, but ``runner.config.hydra_params`` holds a one-shot iterator
  (checked on the live object before conversion) — the JSON at those paths is ``[]``;
* ``valid``: otherwise, with ``runner_to_target(runner).model_dump(mode="json")``.
"""

from __future__ import annotations

import json
import runpy
import sys
import time
import traceback
from collections.abc import Iterator
from importlib import metadata
from typing import Any

import pydantic
from nemo_evaluator.jobs.runner_targets import UnsubmittableRunnerError, runner_to_target


def _iterator_paths(value: Any, path: list[Any]) -> list[list[Any]]:
    """Paths of live one-shot iterators (not consumed), through dicts, lists, tuples, sets."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _iterator_paths(v, [*path, _jkey(k)])]
    if isinstance(value, list | tuple | set | frozenset):
        return [p for i, v in enumerate(value) for p in _iterator_paths(v, [*path, i])]
    if isinstance(value, Iterator):
        return [path]
    return []


def _jkey(key: Any) -> Any:
    return key if isinstance(key, str | int) else repr(key)


def _at(doc: Any, path: list[Any]) -> Any:
    for part in path:
        doc = doc[part if isinstance(doc, list) else str(part)]
    return doc


def run_case(case_id: str, source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"contract_case_{case_id.replace('-', '_')}"}
    sys.modules[namespace["__name__"]] = type(sys)(namespace["__name__"])
    try:
        exec(compile(source, f"<case {case_id}>", "exec"), namespace)
    except pydantic.ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "type": e["type"]} for e in exc.errors()]
        return {"verdict": "invalid", "model": exc.title, "errors": errors}
    except Exception:
        return {"verdict": "error", "exception": traceback.format_exc(limit=3)}
    runner = namespace["runner"]
    iterators = _iterator_paths(runner.config.hydra_params, ["hydra_params"])
    try:
        target = runner_to_target(runner)
    except pydantic.ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "type": e["type"]} for e in exc.errors()]
        return {"verdict": "invalid", "model": exc.title, "errors": errors, "stage": "target"}
    except Exception as exc:
        return {
            "verdict": "unserializable",
            "exception": type(exc).__name__,
            "wrapped": isinstance(exc, UnsubmittableRunnerError),
            "message": str(exc)[:300],
        }
    body = target.model_dump(mode="json")
    if iterators:
        sent = [_at(body, p) for p in iterators]
        return {"verdict": "iterator", "json": body, "iterator_paths": iterators, "sent": sent}
    return {"verdict": "valid", "json": body}


def run_target_case(case_id: str, source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"contract_case_{case_id.replace('-', '_')}"}
    try:
        exec(compile(source, f"<case {case_id}>", "exec"), namespace)
    except pydantic.ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "type": e["type"]} for e in exc.errors()]
        return {"verdict": "invalid", "model": exc.title, "errors": errors}
    except Exception:
        return {"verdict": "error", "exception": traceback.format_exc(limit=3)}
    return {"verdict": "valid", "json": namespace["target"].model_dump(mode="json")}


def main() -> None:
    corpus = runpy.run_path(sys.argv[1])
    start = time.perf_counter()
    results = {case.id: run_case(case.id, case.source) for case in corpus["CASES"]}
    targets = {c.id: run_target_case(c.id, c.source) for c in corpus["TARGET_CASES"]}
    elapsed = time.perf_counter() - start
    report = {
        "sdk": {
            "python": sys.version.split()[0],
            "nemo_platform": metadata.version("nemo-platform"),
            "pydantic": pydantic.VERSION,
            "pydantic_core": metadata.version("pydantic-core"),
        },
        "oracle_seconds": round(elapsed, 3),
        "cases": results,
        "target_cases": targets,
    }
    json.dump(report, sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
