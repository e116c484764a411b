"""Run the idiom corpus under the real SDK and record what happens at every call site.

Usage (with the SDK venv's interpreter, never the project's)::

    .cache/sdk-venv/bin/python tests/contract/idiom_oracle.py request.json > report.json

``request.json`` lists the cases (``idiom_corpus.oracle_request()`` writes it): for each, its
folder, its mode (``script``: run ``entry`` as ``__main__``; ``pytest``: run pytest on the folder)
and options (``argv``, ``env``, canned ``http`` answers for the user's own network calls).

The SDK is imported once; every case then runs in a forked child (its own ``sys.modules``,
``sys.path``, working directory, environment and patches). In the child, HTTP is replaced by a
transport that captures the request and stops there (nothing leaves the machine), and the SDK's
entry points are instrumented, not replaced: the real code runs and the oracle records

* every ``Evaluator.submit`` / ``AsyncEvaluator.submit`` call: the user's call site (the frame
  nearest to the SDK that belongs to the case; line and column span of the call instruction), the
  keywords supplied, then the outcome: ``sent`` (the captured body, its target as ``sent_target``;
  one-shot iterators found in the runner's ``hydra_params`` beforehand, with what the body carries
  for them), ``raised`` (with what the SDK's ``runner_to_target`` makes of a runner target:
  ``target_json`` or ``target_error``; type,
  module, message, pydantic errors; values of ``hydra_params`` with no JSON form), or
  ``accepted`` (the case mocked the executor: the oracle then runs the SDK's own conversion,
  ``runner_to_target`` + ``AgentEvalInputSpec``, and records its outcome as ``emulated``);
* every ``TasksetRef`` / ``GymRuntimeConfig`` construction that fails validation (``__init__``
  and ``model_validate``), with its call site and the pydantic errors;
* every ``GymAgentTaskRunner`` construction (site, type of ``config``), to place findings about a
  runner's ``config=`` later.

Exceptions are recorded even when ``pytest.raises`` / ``assertRaises`` swallows them. In pytest
mode they are re-raised (fixtures, parametrize and ``pytest.raises`` behave for real). In script
mode the oracle resumes after a recorded failure, so every call site of the file is observed: a
failed ``submit`` returns a stand-in job, a failed construction yields an unvalidated instance
(``model_construct``) marked *tainted*, and what a tainted value does later is recorded as a
consequence, not a new behaviour.
"""

from __future__ import annotations

import collections
import json
import os
import runpy
import signal
import sys
import tempfile
import time
import traceback
import types
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
import pydantic
import pydantic_core
import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.agent_spec import AgentEvalInputSpec
from nemo_evaluator.jobs.runner_targets import runner_to_target
from nemo_evaluator.sdk.resources import AsyncEvaluator, Evaluator
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.trials import AgentTaskRunner

CASE_TIMEOUT_S = 180.0
BASE_ENV = {
    "NEMO_PLATFORM_BASE_URL": "http://platform.oracle.test",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
}


class _Sent(BaseException):
    """Raised by the mock transport once the request is captured (a BaseException, so that no
    ``except Exception`` of the SDK's retry logic can swallow it)."""

    def __init__(self, request: httpx.Request) -> None:
        super().__init__(request.url)
        self.request = request


class OracleJob:
    """What a ``submit`` returns in the oracle: the request stopped at the transport."""

    def __init__(self, number: int) -> None:
        self.name = f"oracle-job-{number}"
        self.id = self.name

    def __getattr__(self, attr: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None

    def __repr__(self) -> str:
        return f"<OracleJob {self.name}>"


def _jkey(key: Any) -> Any:
    return key if isinstance(key, str | int) else repr(key)


def _convert(record: dict[str, Any], target: Any) -> None:
    """A submit that raised for another reason than its target: what the SDK's own
    ``runner_to_target`` makes of the target (``target_json``), or what it raises
    (``target_error``), for the preview contract (``preview_sites.py``)."""
    if not record.get("target_is_runner") or record.get("tainted"):
        return
    try:
        record["target_json"] = runner_to_target(target).model_dump(mode="json")
    except Exception as exc:
        record["target_error"] = type(exc).__name__


def _describe(exc: BaseException) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": type(exc).__name__,
        "module": type(exc).__module__,
        "mro": [c.__name__ for c in type(exc).__mro__],
        "message": str(exc)[:600],
    }
    if isinstance(exc, pydantic.ValidationError):
        out["title"] = exc.title
        out["errors"] = []
        for error in exc.errors():
            entry: dict[str, Any] = {
                "loc": [_jkey(p) for p in error["loc"]],
                "type": error["type"],
                "msg": error["msg"][:200],
            }
            value = error.get("input")
            if value is None or isinstance(value, bool | int | float | str):
                entry["input"] = value  # a scalar: tells which of several writes was refused
            out["errors"].append(entry)
    return out


def _scan(
    value: Any, path: list[Any], iterators: list[list[Any]], refused: list[list[Any]]
) -> None:
    """Find one-shot iterators and values with no JSON form in ``hydra_params`` (no consuming)."""
    if isinstance(value, dict):
        for key, item in value.items():
            _scan(item, [*path, _jkey(key)], iterators, refused)
    elif isinstance(value, list | tuple | set | frozenset | collections.deque):
        for index, item in enumerate(value):
            _scan(item, [*path, index], iterators, refused)
    elif isinstance(value, Iterator):
        iterators.append(path)
    else:
        try:
            pydantic_core.to_jsonable_python(value)
        except Exception:
            refused.append(path)


def _at(doc: Any, path: list[Any]) -> Any:
    for part in path:
        doc = doc[part] if isinstance(doc, list) else doc[str(part)]
    return doc


class Recorder:
    """Patches the SDK in the (forked) child and collects the records of one case."""

    def __init__(self, case: dict[str, Any]) -> None:
        self.case = case
        self.root = os.path.realpath(case["dir"])
        self.mode: str = case["mode"]
        self.http: dict[str, Any] = case.get("http", {})
        self.submits: list[dict[str, Any]] = []
        self.constructions: list[dict[str, Any]] = []
        self.runners: list[dict[str, Any]] = []
        self.tests: dict[str, dict[str, Any]] = {}
        self.requests: list[dict[str, Any]] = []
        self._runner_index: dict[int, int] = {}
        self._config_sites: dict[int, dict[str, Any] | None] = {}
        self._keep: list[Any] = []
        self._tainted: set[int] = set()
        self._recorded_exceptions: set[int] = set()

    # ------------------------------------------------------------------ sites

    def _is_case_file(self, filename: str) -> bool:
        return os.path.realpath(filename).startswith(self.root + os.sep)

    def _frame(self, frame: types.FrameType) -> dict[str, Any]:
        code = frame.f_code
        positions = list(code.co_positions())
        line, end_line, col, end_col = positions[frame.f_lasti // 2]
        rel = os.path.relpath(os.path.realpath(code.co_filename), self.root)
        positional = code.co_argcount
        return {
            "file": Path(rel).as_posix(),
            "line": line,
            "end_line": end_line,
            "col": col,
            "end_col": end_col,
            "function": code.co_qualname,
            "first_line": code.co_firstlineno,
            "params": list(code.co_varnames[:positional]),
            "kwonly": list(code.co_varnames[positional : positional + code.co_kwonlyargcount]),
        }

    def site(self, frame: types.FrameType | None) -> dict[str, Any] | None:
        """The call instruction of the innermost frame that belongs to the case, with the chain
        of its callers as long as they belong to the case too (``callers``, innermost first):
        where a parameter's value came from."""
        while frame is not None and not self._is_case_file(frame.f_code.co_filename):
            frame = frame.f_back
        if frame is None:
            return None
        site = self._frame(frame)
        callers = []
        outer = frame.f_back
        while outer is not None and self._is_case_file(outer.f_code.co_filename):
            callers.append(self._frame(outer))
            outer = outer.f_back
        site["callers"] = callers
        return site

    # ------------------------------------------------------------------ HTTP

    def handle(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if url in self.http:
            self.requests.append({"method": request.method, "url": url, "answered": True})
            return httpx.Response(200, json=self.http[url], request=request)
        raise _Sent(request)

    # ------------------------------------------------------------------ submit

    def _begin(self, api: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {
            "n": len(self.submits),
            "api": api,
            "site": self.site(sys._getframe(2)),
            "positional": len(args),
            "keys": sorted(kwargs),
            "supplied": {k: type(v).__name__ for k, v in sorted(kwargs.items()) if v is not None},
        }
        target = kwargs.get("target")
        record["target_type"] = type(target).__name__
        record["target_is_runner"] = isinstance(target, AgentTaskRunner)
        if target is not None and id(target) in self._runner_index:
            record["target_runner"] = self._runner_index[id(target)]
        tasks = kwargs.get("tasks")
        if isinstance(tasks, str):
            record["tasks_str"] = tasks
        tainted = id(tasks) in self._tainted
        if isinstance(target, GymAgentTaskRunner):
            config = target.config
            record["config_site"] = self._config_sites.get(id(config))
            tainted = tainted or id(config) in self._tainted
            if isinstance(config, GymRuntimeConfig):
                iterators: list[list[Any]] = []
                refused: list[list[Any]] = []
                _scan(config.hydra_params, ["hydra_params"], iterators, refused)
                record["iterators"] = iterators
                record["refused"] = refused
        record["tainted"] = tainted
        self.submits.append(record)
        return record

    def _sent(self, record: dict[str, Any], sent: _Sent) -> OracleJob:
        request = sent.request
        body = json.loads(request.content) if request.content else None
        record["outcome"] = "sent"
        record["request"] = {"method": request.method, "path": request.url.path}
        if body is not None:
            spec = body.get("spec", {})
            record["sent_tasks"] = spec.get("tasks")
            target = spec.get("target")
            record["sent_target_kind"] = target.get("kind") if isinstance(target, dict) else None
            record["sent_target"] = target
            if record.get("iterators"):
                record["iterators_sent"] = [
                    _at(spec["target"], path) for path in record["iterators"]
                ]
        return OracleJob(record["n"])

    def _raised(self, record: dict[str, Any], exc: BaseException) -> None:
        record["outcome"] = "raised"
        record["exception"] = _describe(exc)
        self._recorded_exceptions.add(id(exc))
        self._keep.append(exc)

    def _accepted(self, record: dict[str, Any], ev: Any, kwargs: dict[str, Any]) -> None:
        """``submit`` returned without HTTP: the case replaced the executor. Run the SDK's own
        conversion on the same arguments to record what the real executor would do."""
        record["outcome"] = "accepted"
        record["executor"] = type(getattr(ev, "_executor", None)).__name__
        if kwargs.get("tasks") is None:
            return
        try:
            spec = AgentEvalInputSpec(
                tasks=kwargs["tasks"], target=runner_to_target(kwargs["target"])
            )
            dumped = spec.model_dump(mode="json")
        except Exception as exc:
            record["emulated"] = {"outcome": "raised", "exception": _describe(exc)}
            return
        emulated: dict[str, Any] = {
            "outcome": "sent",
            "sent_tasks": dumped.get("tasks"),
            "sent_target": dumped.get("target"),
        }
        if record.get("iterators"):
            emulated["iterators_sent"] = [
                _at(dumped["target"], path) for path in record["iterators"]
            ]
        record["emulated"] = emulated

    def sync_submit(self, original: Callable[..., Any]) -> Callable[..., Any]:
        recorder = self

        def submit(self: Any, *args: Any, **kwargs: Any) -> Any:
            record = recorder._begin("sync", args, kwargs)
            try:
                result = original(self, *args, **kwargs)
            except _Sent as sent:
                return recorder._sent(record, sent)
            except Exception as exc:
                recorder._raised(record, exc)
                _convert(record, kwargs.get("target"))
                if recorder.mode == "pytest":
                    raise
                return OracleJob(record["n"])
            recorder._accepted(record, self, kwargs)
            return result

        return submit

    def async_submit(self, original: Callable[..., Any]) -> Callable[..., Any]:
        recorder = self

        async def submit(self: Any, *args: Any, **kwargs: Any) -> Any:
            record = recorder._begin("async", args, kwargs)
            try:
                result = await original(self, *args, **kwargs)
            except _Sent as sent:
                return recorder._sent(record, sent)
            except Exception as exc:
                recorder._raised(record, exc)
                if recorder.mode == "pytest":
                    raise
                return OracleJob(record["n"])
            recorder._accepted(record, self, kwargs)
            return result

        return submit

    # ------------------------------------------------------------------ constructions

    def _failed_construction(
        self, what: str, how: str, exc: pydantic.ValidationError, value: Any = None
    ) -> None:
        record: dict[str, Any] = {
            "what": what,
            "how": how,
            "site": self.site(sys._getframe(2)),
            "exception": _describe(exc),
        }
        if isinstance(value, str):
            record["value"] = value
        self.constructions.append(record)
        self._recorded_exceptions.add(id(exc))
        self._keep.append(exc)

    def _placeholder(self, instance: Any, template: Any) -> None:
        for attr in ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__"):
            object.__setattr__(instance, attr, getattr(template, attr))
        object.__setattr__(instance, "__pydantic_private__", None)
        self._tainted.add(id(instance))
        self._keep.append(instance)

    def _constructed(self, instance: Any, frame: types.FrameType) -> None:
        """Where a config was built (its hydra_params / env_vars entries are written there)."""
        if isinstance(instance, GymRuntimeConfig):
            self._config_sites[id(instance)] = self.site(frame)
            self._keep.append(instance)

    def model_init(self, cls: type[Any], what: str) -> None:
        recorder = self
        original_init = cls.__init__
        original_validate = cls.model_validate.__func__

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            try:
                original_init(self, *args, **kwargs)
                recorder._constructed(self, sys._getframe(1))
            except pydantic.ValidationError as exc:
                value = args[0] if args else kwargs.get("root")
                recorder._failed_construction(what, "__init__", exc, value)
                if recorder.mode == "pytest":
                    raise
                if what == "TasksetRef":
                    template = cls.model_construct(value)
                else:
                    template = cls.model_construct(**kwargs)
                recorder._placeholder(self, template)

        def model_validate(klass: type[Any], obj: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                instance = original_validate(klass, obj, *args, **kwargs)
                recorder._constructed(instance, sys._getframe(1))
                return instance
            except pydantic.ValidationError as exc:
                recorder._failed_construction(what, "model_validate", exc, obj)
                if recorder.mode == "pytest":
                    raise
                if what == "TasksetRef":
                    placeholder = klass.model_construct(obj)
                else:
                    placeholder = klass.model_construct(**(obj if isinstance(obj, dict) else {}))
                recorder._tainted.add(id(placeholder))
                recorder._keep.append(placeholder)
                return placeholder

        cls.__init__ = __init__
        cls.model_validate = classmethod(model_validate)

    def runner_init(self) -> None:
        recorder = self
        original_init = GymAgentTaskRunner.__init__

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            original_init(self, *args, **kwargs)
            config = kwargs.get("config")
            recorder._runner_index[id(self)] = len(recorder.runners)
            recorder._keep.append(self)
            recorder.runners.append(
                {
                    "site": recorder.site(sys._getframe(1)),
                    "config_type": type(config).__name__,
                    "config_tainted": id(config) in recorder._tainted,
                }
            )

        GymAgentTaskRunner.__init__ = __init__

    # ------------------------------------------------------------------ install

    def install(self) -> None:
        recorder = self

        def handle_request(transport: Any, request: httpx.Request) -> httpx.Response:
            return recorder.handle(request)

        async def handle_async_request(transport: Any, request: httpx.Request) -> httpx.Response:
            return recorder.handle(request)

        patches: list[tuple[type[Any], str, Any]] = [
            (httpx.HTTPTransport, "handle_request", handle_request),
            (httpx.AsyncHTTPTransport, "handle_async_request", handle_async_request),
            (Evaluator, "submit", self.sync_submit(Evaluator.submit)),
            (AsyncEvaluator, "submit", self.async_submit(AsyncEvaluator.submit)),
        ]
        for owner, name, replacement in patches:
            setattr(owner, name, replacement)
        self.model_init(TasksetRef, "TasksetRef")
        self.model_init(GymRuntimeConfig, "GymRuntimeConfig")
        self.runner_init()

    def is_recorded(self, exc: BaseException | None) -> bool:
        return exc is not None and id(exc) in self._recorded_exceptions

    def pytest_plugin(self) -> object:
        recorder = self

        class Plugin:
            @pytest.hookimpl(wrapper=True)
            def pytest_runtest_makereport(self, item: Any, call: Any) -> Any:
                report = yield
                if report.failed:
                    exc = call.excinfo.value if call.excinfo is not None else None
                    recorder.tests[report.nodeid + "@" + report.when] = {
                        "outcome": "failed",
                        "exception": _describe(exc) if exc is not None else None,
                        "recorded": recorder.is_recorded(exc),
                    }
                elif report.when == "call":
                    recorder.tests[report.nodeid] = {"outcome": report.outcome}
                return report

            def pytest_collectreport(self, report: Any) -> None:
                if report.failed:
                    recorder.tests[report.nodeid + "@collect"] = {
                        "outcome": "failed",
                        "exception": {"message": str(report.longrepr)[-1500:]},
                        "recorded": False,
                    }

        return Plugin()

    def result(self) -> dict[str, Any]:
        return {
            "submits": self.submits,
            "constructions": self.constructions,
            "runners": self.runners,
            "tests": self.tests,
            "requests": self.requests,
        }


# ---------------------------------------------------------------------- one case, forked


def _child(case: dict[str, Any], out_path: str, log_path: str) -> None:
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    root = os.path.realpath(case["dir"])
    os.chdir(root)
    os.environ.update(case.get("env", {}))
    recorder = Recorder(case)
    recorder.install()
    result: dict[str, Any] = {}
    try:
        if case["mode"] == "script":
            entry = os.path.join(root, case["entry"])
            sys.path.insert(0, os.path.dirname(entry))
            sys.argv = [entry, *case.get("argv", [])]
            try:
                runpy.run_path(entry, run_name="__main__")
            except SystemExit as exc:
                if exc.code not in (None, 0):
                    result["top_level"] = {"type": "SystemExit", "message": str(exc.code)}
            except BaseException as exc:
                result["top_level"] = {
                    **_describe(exc),
                    "recorded": recorder.is_recorded(exc),
                    "traceback": traceback.format_exc(limit=-4)[-2000:],
                }
        else:
            with tempfile.TemporaryDirectory() as scratch:
                ini = Path(scratch) / "pytest.ini"
                ini.write_text("[pytest]\n")
                code = pytest.main(
                    [
                        *(root, "-q", "-p", "no:cacheprovider", "-c", str(ini)),
                        *("--rootdir", root, "--confcutdir", root),
                    ],
                    plugins=[recorder.pytest_plugin()],
                )
            result["pytest_exit"] = int(code)
    finally:
        result.update(recorder.result())
        Path(out_path).write_text(json.dumps(result, default=repr))


class Child:
    """One case running in a forked child."""

    def __init__(self, case: dict[str, Any], scratch: Path) -> None:
        self.case = case
        self.out_path = scratch / "result.json"
        self.log_path = scratch / "log.txt"
        sys.stdout.flush()
        sys.stderr.flush()
        self.start = time.perf_counter()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the child
            code = 0
            try:
                _child(case, str(self.out_path), str(self.log_path))
            except BaseException:
                code = 3
            finally:
                os._exit(code)
        self.status: int | None = None

    def poll(self) -> bool:
        """True once the child has ended (killed after ``CASE_TIMEOUT_S``)."""
        if self.status is None:
            done, wait_status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = wait_status
            elif time.perf_counter() - self.start > CASE_TIMEOUT_S:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                self.status = -1
        return self.status is not None

    def result(self) -> dict[str, Any]:
        elapsed = round(time.perf_counter() - self.start, 3)
        log = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        if self.status != 0 or not self.out_path.exists():
            return {"crash": f"child status {self.status}", "log": log[-3000:], "seconds": elapsed}
        result = dict(json.loads(self.out_path.read_text()))
        result["seconds"] = elapsed
        result["log_tail"] = log[-1500:]
        return result


def run_cases(cases: list[dict[str, Any]], scratch: Path, jobs: int) -> dict[str, Any]:
    """Run the cases, ``jobs`` children at a time; results in the order of ``cases``."""
    pending = list(enumerate(cases))
    running: list[Child] = []
    results: dict[str, Any] = {}
    while pending or running:
        while pending and len(running) < jobs:
            index, case = pending.pop(0)
            folder = scratch / str(index)
            folder.mkdir()
            running.append(Child(case, folder))
        finished = [child for child in running if child.poll()]
        for child in finished:
            running.remove(child)
            results[child.case["id"]] = child.result()
        if not finished:
            time.sleep(0.01)
    return {case["id"]: results[case["id"]] for case in cases}


def _warm_up() -> None:
    """Import what the cases import, once, before forking (children start warm)."""
    import nemo_evaluator_sdk
    import nemo_evaluator_sdk.agent_eval.runtimes.callable_runtime
    import nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime  # noqa: F401
    import yaml  # noqa: F401
    from nemo_evaluator_sdk import ExactMatchMetric, FieldMapping, Model, RunConfig  # noqa: F401
    from nemo_platform import AsyncNeMoPlatform, NeMoPlatform

    os.environ.update(BASE_ENV)
    NeMoPlatform(workspace="oracle").evaluator  # noqa: B018 - loads the plugin entry points
    AsyncNeMoPlatform(workspace="oracle").evaluator  # noqa: B018


def main() -> None:
    request = json.loads(Path(sys.argv[1]).read_text())
    home = tempfile.mkdtemp(prefix="idiom-oracle-home-")
    os.environ["HOME"] = home  # no user config file is ever read
    start = time.perf_counter()
    _warm_up()
    warm = time.perf_counter() - start
    jobs = max(1, min(int(os.environ.get("IDIOM_ORACLE_JOBS", "2")), os.cpu_count() or 1))
    with tempfile.TemporaryDirectory() as scratch:
        results = run_cases(request["cases"], Path(scratch), jobs)
    report = {
        "sdk": {
            "python": sys.version.split()[0],
            "nemo_platform": metadata.version("nemo-platform"),
            "pydantic": pydantic.VERSION,
            "pytest": pytest.__version__,
        },
        "jobs": jobs,
        "import_seconds": round(warm, 3),
        "oracle_seconds": round(time.perf_counter() - start, 3),
        "cases": results,
    }
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
