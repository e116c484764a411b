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

A keyword whose value is an unannotated parameter of a helper called from the case's own code is
followed to the argument of the call that passed it (``Source.follow``). A key that arrives
through ``**kwargs`` / ``partial`` is looked for first inside the calls of the recorded call chain,
then anywhere in the case; among several writes, the one whose literal is the refused input wins.
The markers are never used to choose: an anchor still ambiguous means the case must be rewritten.
One finding per (line, code, subject): a value reached by several calls is
reported once (§8). Anything else the oracle saw (an exception of no kind, a test that failed for
another reason, a ``submit`` call the run never reached) is a problem of the case.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from idiom_corpus import IdiomCase, Key

Site = dict[str, Any]
_UNKNOWN: Any = object()


def _literal(node: ast.expr | None) -> Any:
    try:
        return _UNKNOWN if node is None else ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _UNKNOWN


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
        params = frame["params"]
        shift = 1 if params and params[0] in ("self", "cls") else 0
        index = params.index(name) - shift if name in params else -1
        starred = [i for i, a in enumerate(call.args) if isinstance(a, ast.Starred)]
        if 0 <= index < len(call.args) and not [i for i in starred if i <= index]:
            argument = call.args[index]
            return self.follow(caller_file, argument, argument.lineno, caller)
        if starred or any(k.arg is None for k in call.keywords):
            return file, line  # may come through *args / **kwargs: not followed
        default = self._default(func, name)
        return (frame["file"], default.lineno) if default is not None else (file, line)

    @staticmethod
    def callee_line(call: ast.Call) -> int:
        func = call.func
        if isinstance(func, ast.Name):
            return func.lineno
        return func.end_lineno or func.lineno

    @staticmethod
    def _writes(
        file: str, nodes: Iterable[ast.AST], name: str, exclude: set[int]
    ) -> Iterator[tuple[str, int, ast.expr | None]]:
        """``(file, line, value)`` of each place among ``nodes`` where the key ``name`` is
        written: ``name=`` keywords (outside the calls in ``exclude``), dict literal keys,
        ``x["name"] = ...``, ``x.name = ...``, class fields."""
        for node in nodes:
            if isinstance(node, ast.Call) and id(node) not in exclude:
                yield from ((file, k.lineno, k.value) for k in node.keywords if k.arg == name)
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == name:
                        yield file, key.lineno, value
            elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if (
                        isinstance(target, ast.Subscript)
                        and isinstance(target.slice, ast.Constant)
                        and target.slice.value == name
                    ) or (isinstance(target, ast.Attribute) and target.attr == name):
                        yield file, target.lineno, node.value
            elif isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if isinstance(statement, ast.AnnAssign | ast.Assign):
                        names = (
                            [statement.target]
                            if isinstance(statement, ast.AnnAssign)
                            else statement.targets
                        )
                        if any(isinstance(t, ast.Name) and t.id == name for t in names):
                            yield file, statement.lineno, statement.value

    @staticmethod
    def _select(
        writes: Iterable[tuple[str, int, ast.expr | None]], value: Any
    ) -> set[tuple[str, int]]:
        """The lines of ``writes``; with a known ``value`` (the input pydantic refused), only
        the writes whose expression is that literal, when any is."""
        writes = list(writes)
        if value is not _UNKNOWN:
            same = [w for w in writes if _literal(w[2]) == value]
            if same:
                writes = same
        return {(file, line) for file, line, _ in writes}

    def chain_writes(
        self, site: Site | None, name: str, exclude: set[int], value: Any = _UNKNOWN
    ) -> set[tuple[str, int]]:
        """The key ``name`` written inside the calls that led to ``site`` (the call itself, then
        each caller's call into the helper, innermost first): ``name=`` keywords and dict literal
        keys in that call's arguments. The innermost call that writes it wins."""
        if site is None:
            return set()
        frames = [site, *site.get("callers", [])]
        for index, frame in enumerate(frames):
            located = self.call_at({**frame, "callers": frames[index + 1 :]})
            if located is None:
                continue
            file, call = located
            nodes = [n for n in ast.walk(call) if isinstance(n, ast.Call | ast.Dict)]
            writes = list(self._writes(file, nodes, name, exclude - {id(call)}))
            if writes:
                return self._select(writes, value)
        return set()

    def key_writes(
        self, name: str, exclude: set[int], value: Any = _UNKNOWN
    ) -> set[tuple[str, int]]:
        """Every line of the case's files where the key ``name`` is written."""
        return self._select(
            (
                write
                for file, tree in self.trees.items()
                for write in self._writes(file, ast.walk(tree), name, exclude)
            ),
            value,
        )

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


def _input(error: dict[str, Any]) -> Any:
    return error.get("input", _UNKNOWN)


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
            Behaviour(
                "ES107",
                repr(path),
                ("hydra", path, record.get("config_site")),
                f"{what} (hydra_params at {path})",
            )
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
            Behaviour("ES109", repr(e["loc"]), ("loc", None, e["loc"], _input(e)), what)
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
            anchor = ("hydra", path, record.get("config_site"))
            found.append(Behaviour("ES107", repr(path), anchor, f"{what}: {path} sent []"))
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
            anchor = ("loc", site, loc, _input(error))
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
    behaviour: Behaviour, source: Source, exclude: set[int]
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
        written = source.chain_writes(site, name, exclude)
        return written or source.key_writes(name, exclude), f"no written key {name!r}"
    if kind == "hydra":
        _, path, config_site = behaviour.anchor
        key = _deepest_key(path)
        if key is None:
            return set(), "hydra path without a str key"
        written = source.chain_writes(config_site, key, set())
        return written or source.key_writes(key, set()), f"no written key {key!r}"
    if kind == "literal":
        return source.literals(behaviour.anchor[1]), f"no literal {behaviour.anchor[1]!r}"
    if kind == "loc":
        _, site, loc, value = behaviour.anchor
        key = _deepest_key(loc)
        found = source.call_at(site)
        if found is not None and loc:
            keywords = [kw for kw in found[1].keywords if kw.arg == loc[0]]
            if keywords and len(loc) == 1:
                return {source.follow(found[0], keywords[0].value, keywords[0].lineno, site)}, ""
            if keywords and key is not None:
                inner = source._select(
                    source._writes(found[0], ast.walk(keywords[0].value), key, set()), value
                )
                if inner:
                    return inner, ""
        if key is None:
            return set(), f"no str key in {loc}"
        written = source.chain_writes(site, key, exclude, value)
        return written or source.key_writes(key, set(), value), f"no written key {key!r}"
    raise AssertionError(behaviour)


def expected_findings(
    case: IdiomCase, result: dict[str, Any]
) -> tuple[Counter[Key], list[str], list[Behaviour]]:
    """The findings the SDK's behaviour calls for, and every problem of the case."""
    source = Source(case)
    behaviours, problems = classify(result)
    exclude: set[int] = set()
    for record in [*result.get("submits", []), *result.get("runners", [])]:
        found = source.call_at(record["site"])
        if found is not None:
            exclude.add(id(found[1]))
    anchored: set[tuple[str, int, str, str]] = set()
    for behaviour in behaviours:
        candidates, reason = _place(behaviour, source, exclude)
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
