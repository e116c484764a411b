"""From what the SDK did (the oracle's records) to the findings a case must carry.

Each SDK behaviour of a case is classified into a diagnostic kind (reference §8) and placed on
its anchor line, using the case's source (``ast``) and the call sites the oracle recorded:

============  ================================================  ==================================
code          SDK behaviour (real, recorded)                    anchor line
============  ================================================  ==================================
ES101         ``TypeError`` "... not both"                       the callee token of the call that
                                                                 reached ``submit`` (``.submit``,
                                                                 an alias, a ``partial``)
ES102         ``TypeError`` "does not use <options>"             per option: its keyword in that
                                                                 call; via ``**kw``/``partial``:
                                                                 where the key is written
ES103         ``TypeError`` "neither was supplied"; async:       the callee token
              unexpected ``tasks`` / missing ``metric``/
              ``dataset``
ES104         ``TypeError`` "must be an AgentTaskRunner"         ``target`` as for ES102; the
                                                                 callee token when absent
ES105         ``TypeError`` "is an agent runner"; async:         ``target`` as for ES102
              ``AttributeError`` ``model_dump`` on a runner
ES106         ``UnsubmittableRunnerError`` "no target spec"      ``target`` as for ES102
ES107         ``UnsubmittableRunnerError`` "no JSON form", or    where the offending entry is
              a one-shot iterator sent as ``[]``                 written (its innermost ``str`` key:
                                                                 dict literal key, ``k=`` keyword,
                                                                 ``d["k"] = ...``)
ES108         ``TasksetRef`` construction ``ValidationError``;   the offending string literal
              a plain-string ``tasks=`` refused by
              ``AgentEvalInputSpec``
ES109         ``GymRuntimeConfig`` construction                  the field's keyword in the
              ``ValidationError`` (per error); re-validation     construction (the dict entry for a
              as ``GymRunnerTarget`` at submit (unvalidated      nested key); where the key is
              config: ``model_construct``, ``model_copy``,       written otherwise; the
              assignment); a runner whose ``config`` is not a    ``GymRuntimeConfig(`` line for a
              config (``AttributeError`` at submit)              missing field; the runner's
                                                                 ``config=``
============  ================================================  ==================================

Where the anchor is "where the key/literal is written" and the case writes it in several places,
the candidates are narrowed to the ones carrying a marker of that code; still ambiguous, the case
must be rewritten. One finding per (line, code, subject): a value reached by several calls is
reported once (§8). Anything else the oracle saw (an exception of no kind, a test that failed for
another reason, a ``submit`` call the run never reached) is a problem of the case.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiom_corpus import IdiomCase, Key

Site = dict[str, Any]
Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True)
class Behaviour:
    code: str
    subject: str
    anchor: tuple[Any, ...]
    what: str


# ---------------------------------------------------------------------- the case's source


class Source:
    """The case's files, parsed, with the lookups the anchors need."""

    def __init__(self, case: IdiomCase) -> None:
        self.case = case
        self.trees: dict[str, ast.Module] = {
            case.rel(p): ast.parse(p.read_text(encoding="utf-8"), filename=str(p))
            for p in case.files
        }

    def call_at(self, site: Site | None) -> tuple[str, ast.Call] | None:
        """The call whose instruction the oracle recorded: it ends where the instruction ends and
        starts at or before it (a method call's instruction starts at the method name); for
        ``await call(...)`` the instruction is the ``await``, which starts before the call."""
        if site is None or site["file"] not in self.trees:
            return None
        start = (site["line"], site["col"])
        ending = [
            node
            for node in ast.walk(self.trees[site["file"]])
            if isinstance(node, ast.Call)
            and (node.end_lineno, node.end_col_offset) == (site["end_line"], site["end_col"])
        ]
        before = [n for n in ending if (n.lineno, n.col_offset) <= start]
        after = [n for n in ending if (n.lineno, n.col_offset) > start]
        if before:
            return site["file"], max(before, key=lambda n: (n.lineno, n.col_offset))
        if after:
            return site["file"], min(after, key=lambda n: (n.lineno, n.col_offset))
        return None

    def function_at(self, frame: Site) -> Function | None:
        """The definition of the frame's function (``co_firstlineno`` is its first decorator)."""
        tree = self.trees.get(frame["file"])
        name = frame["function"].rsplit(".", 1)[-1]
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                if first == frame["first_line"]:
                    return node
            elif (
                isinstance(node, ast.Lambda)
                and name == "<lambda>"
                and node.lineno == frame["first_line"]
            ):
                return node
        return None

    @staticmethod
    def _reassigned(func: Function, name: str) -> bool:
        body: list[ast.AST] = [*func.body] if isinstance(func.body, list) else [func.body]
        return any(
            isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
            for statement in body
            for node in ast.walk(statement)
        )

    @staticmethod
    def _annotated(func: Function, name: str) -> bool:
        args = func.args
        return any(
            a.arg == name and a.annotation is not None
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]
        )

    @staticmethod
    def _default(func: Function, name: str) -> ast.expr | None:
        args = func.args
        positional = [a.arg for a in [*args.posonlyargs, *args.args]]
        with_defaults = positional[len(positional) - len(args.defaults) :]
        defaults = dict(zip(with_defaults, args.defaults, strict=True))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
            if default is not None:
                defaults[arg.arg] = default
        return defaults.get(name)

    def follow(self, file: str, expr: ast.expr, line: int, frame: Site) -> tuple[str, int]:
        """Where the value of ``expr`` (written at ``file:line``) was written: an unannotated
        parameter of a helper called from the case's own code is followed to the argument of that
        call (its default when the call omits it), recursively, so that a helper called from
        several places is reported at the call that passes the wrong value. An annotated
        parameter declares the type in the helper itself (a wrong type is the helper's mistake,
        whoever calls it): it stays where it is used. So do the parameters of test functions and
        fixtures, which pytest calls, not the case."""
        callers = frame.get("callers") or []
        if not isinstance(expr, ast.Name) or not callers:
            return file, line
        name = expr.id
        if name not in frame["params"] and name not in frame["kwonly"]:
            return file, line
        func = self.function_at(frame)
        if func is None or self._reassigned(func, name) or self._annotated(func, name):
            return file, line
        caller = {**callers[0], "callers": callers[1:]}
        located = self.call_at(caller)
        if located is None:
            return file, line
        caller_file, call = located
        for keyword in call.keywords:
            if keyword.arg == name:
                return self.follow(caller_file, keyword.value, keyword.lineno, caller)
        if any(k.arg is None for k in call.keywords) or any(
            isinstance(a, ast.Starred) for a in call.args
        ):
            return file, line
        params = frame["params"]
        shift = 1 if params and params[0] in ("self", "cls") else 0
        if name in params and 0 <= params.index(name) - shift < len(call.args):
            argument = call.args[params.index(name) - shift]
            return self.follow(caller_file, argument, argument.lineno, caller)
        default = self._default(func, name)
        return (frame["file"], default.lineno) if default is not None else (file, line)

    @staticmethod
    def callee_line(call: ast.Call) -> int:
        func = call.func
        if isinstance(func, ast.Name):
            return func.lineno
        return func.end_lineno or func.lineno

    def key_writes(self, name: str, exclude: set[int]) -> set[tuple[str, int]]:
        """Lines where the key ``name`` is written: ``name=`` keywords (outside the calls in
        ``exclude``), dict literal keys, ``x["name"] = ...``, ``x.name = ...``, class fields."""
        found: set[tuple[str, int]] = set()
        for file, tree in self.trees.items():
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and id(node) not in exclude:
                    found.update((file, kw.lineno) for kw in node.keywords if kw.arg == name)
                elif isinstance(node, ast.Dict):
                    found.update(
                        (file, key.lineno)
                        for key in node.keys
                        if isinstance(key, ast.Constant) and key.value == name
                    )
                elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if (
                            isinstance(target, ast.Subscript)
                            and isinstance(target.slice, ast.Constant)
                            and target.slice.value == name
                        ) or (isinstance(target, ast.Attribute) and target.attr == name):
                            found.add((file, target.lineno))
                elif isinstance(node, ast.ClassDef):
                    for statement in node.body:
                        names: list[ast.expr] = (
                            [statement.target]
                            if isinstance(statement, ast.AnnAssign)
                            else statement.targets
                            if isinstance(statement, ast.Assign)
                            else []
                        )
                        if any(isinstance(t, ast.Name) and t.id == name for t in names):
                            found.add((file, statement.lineno))
        return found

    def literals(self, value: str) -> set[tuple[str, int]]:
        return {
            (file, node.lineno)
            for file, tree in self.trees.items()
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value == value
        }

    def evaluator_submit_calls(self) -> list[tuple[str, ast.Call]]:
        """Syntactic ``<...>evaluator.submit(...)`` calls (the oracle must see each one run)."""
        calls = []
        for file, tree in self.trees.items():
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "submit"
                    and ast.unparse(node.func.value).lower().endswith("evaluator")
                ):
                    calls.append((file, node))
        return calls


# ---------------------------------------------------------------------- classification

_OPTIONS = re.compile(r"does not use (.+?) — ")
CONVERSION_CODES = {"ES106", "ES107", "ES108", "ES109"}


def _where(site: Site | None) -> str:
    return "?" if site is None else f"{site['file']}:{site['line']}"


def _deepest_key(loc: list[Any]) -> str | None:
    for part in reversed(loc):
        if isinstance(part, str):
            return part
    return None


def _conversion(
    exc: dict[str, Any], record: dict[str, Any], runners: list[dict[str, Any]], what: str
) -> list[Behaviour] | None:
    """Failures of the executor's conversion (runner -> wire target, tasks validation)."""
    message = exc["message"]
    if exc["type"] == "UnsubmittableRunnerError" and "has no target spec" in message:
        return [Behaviour("ES106", "target", ("key", record["site"], "target"), what)]
    if exc["type"] == "UnsubmittableRunnerError" and "no JSON form" in message:
        refused = record.get("refused") or []
        if not refused:
            return None
        return [
            Behaviour("ES107", repr(path), ("hydra", path), f"{what} (hydra_params at {path})")
            for path in refused
        ]
    if exc["type"] == "ValidationError" and exc.get("title") == "AgentEvalInputSpec":
        if record.get("tasks_str") is not None and all(
            e["loc"][:1] == ["tasks"] for e in exc["errors"]
        ):
            value = record["tasks_str"]
            return [Behaviour("ES108", f"tasks={value!r}", ("literal", value), what)]
        return None
    if exc["type"] == "ValidationError" and exc.get("title") == "GymRunnerTarget":
        return [
            Behaviour("ES109", repr(e["loc"]), ("loc", None, e["loc"]), f"{what} ({e['type']})")
            for e in exc["errors"]
        ]
    if (
        exc["type"] == "AttributeError"
        and "has no attribute 'model_dump'" in message
        and "target_runner" in record
        and runners[record["target_runner"]]["config_type"] != "GymRuntimeConfig"
    ):
        runner_site = runners[record["target_runner"]]["site"]
        return [Behaviour("ES109", "config", ("key", runner_site, "config"), what)]
    return None


def _sent_iterators(record: dict[str, Any], sent: list[Any] | None, what: str) -> list[Behaviour]:
    found = []
    for path, value in zip(record.get("iterators") or [], sent or [], strict=False):
        if value == []:
            found.append(Behaviour("ES107", repr(path), ("hydra", path), f"{what}: {path} sent []"))
    return found


def classify_submit(
    record: dict[str, Any], runners: list[dict[str, Any]]
) -> tuple[list[Behaviour], list[str]]:
    site = record["site"]
    call = ("call", site)
    target = ("key", site, "target") if "target" in record["keys"] else call
    outcome = record.get("outcome")
    where = _where(site)
    if outcome == "sent":
        what = f"submit at {where} sent"
        found = _sent_iterators(record, record.get("iterators_sent"), what)
        wrong = len(found) != len(record.get("iterators") or [])
        return found, [f"{what}: an iterator was not sent as []"] if wrong else []
    if outcome == "accepted":
        emulated = record.get("emulated")
        if emulated is None:
            return [], []
        what = f"submit at {where} (executor {record['executor']}; SDK conversion run by oracle)"
        if emulated["outcome"] == "sent":
            return _sent_iterators(record, emulated.get("iterators_sent"), what), []
        found_or_none = _conversion(emulated["exception"], record, runners, what)
        if found_or_none is None:
            return [], [f"{what}: unexplained {emulated['exception']}"]
        return found_or_none, []
    if outcome != "raised":
        return [], [f"submit at {where}: no outcome recorded ({outcome})"]
    exc = record["exception"]
    message = exc["message"]
    what = f"submit at {where} raised {exc['type']}: {message[:90]}"
    if record["api"] == "async":
        if exc["type"] == "TypeError" and (
            "unexpected keyword argument 'tasks'" in message
            or "required keyword-only argument" in message
        ):
            return [Behaviour("ES103", "call", call, what)], []
        if (
            exc["type"] == "AttributeError"
            and "has no attribute 'model_dump'" in message
            and record.get("target_is_runner")
        ):
            return [Behaviour("ES105", "target", target, what)], []
        return [], [f"unexplained: {what}"]
    if exc["type"] == "TypeError" and "not both" in message:
        return [Behaviour("ES101", "call", call, what)], []
    if exc["type"] == "TypeError" and "must be an AgentTaskRunner" in message:
        return [Behaviour("ES104", "target", target, what)], []
    if exc["type"] == "TypeError" and "does not use" in message:
        match = _OPTIONS.search(message)
        options = match.group(1).split(", ") if match else []
        return [Behaviour("ES102", o, ("key", site, o), what) for o in options], []
    if exc["type"] == "TypeError" and "neither was supplied" in message:
        return [Behaviour("ES103", "call", call, what)], []
    if exc["type"] == "TypeError" and "is an agent runner" in message:
        return [Behaviour("ES105", "target", target, what)], []
    conversion = _conversion(exc, record, runners, what)
    if conversion is None:
        return [], [f"unexplained: {what}"]
    if record.get("tainted"):
        return [], []  # a consequence of a construction failure already recorded
    return conversion, []


def classify_construction(record: dict[str, Any]) -> tuple[list[Behaviour], list[str]]:
    exc = record["exception"]
    site = record["site"]
    what = f"{record['what']}.{record['how']} at {_where(site)} raised ValidationError"
    if record["what"] == "TasksetRef":
        value = record.get("value")
        if not isinstance(value, str):
            return [], [f"unexplained: {what} for a non-string"]
        return [Behaviour("ES108", f"TasksetRef({value!r})", ("literal", value), what)], []
    found = []
    for error in exc["errors"]:
        loc = error["loc"]
        if error["type"] == "missing":
            anchor: tuple[Any, ...] = ("callee", site)
        else:
            anchor = ("loc", site, loc)
        subject = f"{_where(site)} {loc!r}"
        found.append(Behaviour("ES109", subject, anchor, f"{what} ({error['type']} at {loc})"))
    return found, []


def classify(result: dict[str, Any]) -> tuple[list[Behaviour], list[str]]:
    """Every SDK behaviour of a case, and the problems (what no kind explains)."""
    behaviours: list[Behaviour] = []
    problems: list[str] = []
    if "crash" in result:
        return [], [f"oracle child crashed: {result['crash']}: {result.get('log', '')[-800:]}"]
    for record in result["submits"]:
        found, issues = classify_submit(record, result["runners"])
        behaviours += found
        problems += issues
    for record in result["constructions"]:
        found, issues = classify_construction(record)
        behaviours += found
        problems += issues
    top = result.get("top_level")
    if top is not None:
        problems.append(f"the script raised {top.get('type')}: {top.get('message')}")
    for test, report in result.get("tests", {}).items():
        if report["outcome"] == "failed" and not report.get("recorded"):
            exc = report.get("exception") or {}
            problems.append(f"test {test} failed: {exc.get('type')}: {exc.get('message')}")
    if result.get("pytest_exit", 0) not in (0, 1):
        problems.append(f"pytest exit code {result['pytest_exit']}")
    return behaviours, problems


# ---------------------------------------------------------------------- placement


def _place(
    behaviour: Behaviour, source: Source, exclude: set[int], markers: Counter[Key]
) -> tuple[set[tuple[str, int]], str]:
    """Candidate anchor lines of a behaviour (an empty set and a reason when none)."""
    kind = behaviour.anchor[0]
    if kind in ("call", "callee"):
        found = source.call_at(behaviour.anchor[1])
        if found is None:
            return set(), f"no call node at {behaviour.anchor[1]}"
        return {(found[0], Source.callee_line(found[1]))}, ""
    if kind == "key":
        _, site, name = behaviour.anchor
        found = source.call_at(site)
        if found is not None:
            keywords = [kw for kw in found[1].keywords if kw.arg == name]
            if keywords:
                return {source.follow(found[0], keywords[0].value, keywords[0].lineno, site)}, ""
        return source.key_writes(name, exclude), f"no written key {name!r}"
    if kind == "hydra":
        key = _deepest_key(behaviour.anchor[1])
        if key is None:
            return set(), "hydra path without a str key"
        return source.key_writes(key, set()), f"no written key {key!r}"
    if kind == "literal":
        return source.literals(behaviour.anchor[1]), f"no literal {behaviour.anchor[1]!r}"
    if kind == "loc":
        _, site, loc = behaviour.anchor
        key = _deepest_key(loc)
        found = source.call_at(site)
        if found is not None and loc:
            keywords = [kw for kw in found[1].keywords if kw.arg == loc[0]]
            if keywords and len(loc) == 1:
                return {source.follow(found[0], keywords[0].value, keywords[0].lineno, site)}, ""
            if keywords and key is not None:
                inner = {
                    (found[0], k.lineno)
                    for node in ast.walk(keywords[0].value)
                    if isinstance(node, ast.Dict)
                    for k in node.keys
                    if isinstance(k, ast.Constant) and k.value == key
                }
                if inner:
                    return inner, ""
        if key is None:
            return set(), f"no str key in {loc}"
        return source.key_writes(key, set()), f"no written key {key!r}"
    raise AssertionError(behaviour)


def expected_findings(
    case: IdiomCase, result: dict[str, Any]
) -> tuple[Counter[Key], list[str], list[Behaviour]]:
    """The findings the SDK's behaviour calls for, and every problem of the case."""
    source = Source(case)
    markers = case.markers()
    behaviours, problems = classify(result)
    exclude: set[int] = set()
    for record in [*result.get("submits", []), *result.get("runners", [])]:
        found = source.call_at(record["site"])
        if found is not None:
            exclude.add(id(found[1]))
    anchored: set[tuple[str, int, str, str]] = set()
    for behaviour in behaviours:
        candidates, reason = _place(behaviour, source, exclude, markers)
        if len(candidates) > 1:
            marked = {c for c in candidates if markers[(c[0], c[1], behaviour.code)]}
            candidates = marked if marked else candidates
        if len(candidates) != 1:
            lines = sorted(candidates)
            problems.append(
                f"{behaviour.code} for {behaviour.what}: "
                + (f"ambiguous anchor {lines}" if lines else f"no anchor ({reason})")
            )
            continue
        ((file, line),) = candidates
        anchored.add((file, line, behaviour.code, behaviour.subject))
    expected: Counter[Key] = Counter((file, line, code) for file, line, code, _ in anchored)
    seen = set()
    for record in result.get("submits", []):
        located = source.call_at(record["site"])
        if located is not None:
            seen.add(id(located[1]))
    for file, call in source.evaluator_submit_calls():
        if id(call) not in seen:
            problems.append(f"{file}:{call.lineno}: this submit call never ran under the oracle")
    return expected, problems, behaviours


def describe_counter(counter: Counter[Key]) -> list[str]:
    return [f"{file}:{line} {code}" for (file, line, code) in sorted(counter.elements())]


def sdk_behaviours_seen(results: dict[str, Any]) -> Counter[str]:
    """What the SDK did across cases (for the docs' figures)."""
    seen: Counter[str] = Counter()
    for result in results.values():
        for record in result.get("submits", []):
            outcome = record.get("outcome")
            if outcome == "raised":
                exc = record["exception"]
                seen[f"submit raised {exc['type']}"] += 1
            elif outcome == "sent":
                seen["submit sent (HTTP captured)"] += 1
                if record.get("iterators"):
                    seen["iterator sent as []"] += len(record["iterators"])
            elif outcome == "accepted":
                seen["submit accepted by a mocked executor"] += 1
        for record in result.get("constructions", []):
            seen[f"{record['what']} construction ValidationError"] += 1
    return seen


def relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()
