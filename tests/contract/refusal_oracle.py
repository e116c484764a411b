"""The real SDK on every program of ``refusal_cases.py``, its verdicts printed as JSON.

Usage (with the SDK venv's interpreter, never the project's), from the repository root::

    .cache/sdk-venv/bin/python tests/contract/refusal_oracle.py tests/contract/refusal_cases.py

Each program runs for real, in one process, with HTTP stopped at the transport (the request is
captured, nothing leaves the machine). ``Evaluator.submit`` is wrapped, not replaced: before the
real call, one-shot iterators in the runner's ``hydra_params`` are located (without consuming
them). Verdicts:

* ``accepted``: the request was sent;
* ``iterator``: the request was sent, but a one-shot iterator was in ``hydra_params`` (the body
  carries ``[]`` for it: ``sent``);
* ``refused``: an exception, with ``stage`` ``construct`` (building ``GymRuntimeConfig`` or
  ``TasksetRef``: a ``ValidationError``), ``submit`` (inside ``submit()``: ``UnsubmittableRunner
  Error`` from ``runner_to_target``, a ``ValidationError`` of ``tasks``, an escaping crash) or
  ``other`` (anything else), and the exception's type and first line.
"""

from __future__ import annotations

import collections
import json
import runpy
import sys
import types
from collections.abc import Iterator
from importlib import metadata
from typing import Any

import httpx
import pydantic
from nemo_evaluator.sdk.resources import Evaluator


class _Sent(BaseException):
    def __init__(self, request: httpx.Request) -> None:
        super().__init__(str(request.url))
        self.request = request


class _Refused(BaseException):
    def __init__(self, exc: BaseException) -> None:
        super().__init__(repr(exc))
        self.exc = exc


def _handle(transport: Any, request: httpx.Request) -> httpx.Response:
    raise _Sent(request)


def _iterators(value: Any, path: list[Any]) -> list[list[Any]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _iterators(v, [*path, str(k)])]
    if isinstance(value, list | tuple | set | frozenset | collections.deque):
        return [p for i, v in enumerate(value) for p in _iterators(v, [*path, i])]
    if isinstance(value, Iterator):
        return [path]
    return []


def _at(doc: Any, path: list[Any]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


_ORIGINAL_SUBMIT = Evaluator.submit
_FOUND: list[list[Any]] = []


def _submit(self: Any, *args: Any, **kwargs: Any) -> Any:
    target = kwargs.get("target")
    config = getattr(target, "config", None)
    _FOUND[:] = _iterators(getattr(config, "hydra_params", {}), ["hydra_params"])
    try:
        return _ORIGINAL_SUBMIT(self, *args, **kwargs)
    except _Sent:
        raise
    except Exception as exc:
        raise _Refused(exc) from exc


def _describe(exc: BaseException, stage: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "verdict": "refused",
        "stage": stage,
        "exception": type(exc).__name__,
        "message": (str(exc).splitlines() or [""])[0][:300],
    }
    if isinstance(exc, pydantic.ValidationError):
        out["errors"] = [
            {"loc": [str(p) for p in e["loc"]], "type": e["type"]} for e in exc.errors()
        ]
    return out


def run_case(case_id: str, source: str) -> dict[str, Any]:
    name = "refusal_case"
    sys.modules[name] = types.ModuleType(name)
    namespace: dict[str, Any] = {"__name__": name}
    _FOUND.clear()
    try:
        exec(compile(source, f"<case {case_id}>", "exec"), namespace)
    except _Sent as sent:
        body = json.loads(sent.request.content)
        target = body["spec"]["target"]
        if _FOUND:
            return {"verdict": "iterator", "sent": [_at(target, p[:1] + p[1:]) for p in _FOUND]}
        return {"verdict": "accepted", "tasks": body["spec"].get("tasks"), "target": target}
    except _Refused as refused:
        return _describe(refused.exc, "submit")
    except pydantic.ValidationError as exc:
        return _describe(exc, "construct")
    except Exception as exc:
        return _describe(exc, "other")
    return {"verdict": "error", "message": "the program ended without submitting"}


def main() -> None:
    module = runpy.run_path(sys.argv[1])
    httpx.HTTPTransport.handle_request = _handle  # type: ignore[method-assign]
    Evaluator.submit = _submit  # type: ignore[method-assign]
    report = {
        "sdk": {"nemo_platform": metadata.version("nemo-platform"), "pydantic": pydantic.VERSION},
        "cases": {case_id: run_case(case_id, source) for case_id, source in module["cases"]()},
    }
    json.dump(report, sys.stdout, default=repr, indent=1, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
