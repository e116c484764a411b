"""Test code: which functions are pytest tests and fixtures, and what their parameters are.

A test function (``test*``, at module level or in a ``Test*`` class or a ``unittest.TestCase``)
and a fixture receive fixtures by parameter name: a fixture is looked up in the test's class,
its module, then the ``conftest.py`` files from the test's folder up to the project root
(pytest's order), and its value is what it returns or first yields (evaluated with its own
fixtures). What the test's marks make of it (one walk per ``parametrize`` case, none for a
test or case surely skipped) is :mod:`.pytest_marks`'. What cannot be known (a fixture not
found, ``request.param`` of a fixture not parametrized indirectly by a known case) stays
unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from evalsubmit.analysis.interp.bodies import fixture_value
from evalsubmit.analysis.interp.frames import FunctionNode
from evalsubmit.analysis.interp.pytest_marks import (
    INDIRECT,
    PYTEST_REQUEST,
    Case,
    parametrize_cases,
    surely_skipped,
)
from evalsubmit.analysis.interp.spelling import spelled_name
from evalsubmit.analysis.values.domain import Instance, Unknown, Value
from evalsubmit.analysis.values.env import Env, ModuleScope
from evalsubmit.analysis.values.objects import CallArgs, ClassRef, ClassValue, FunctionValue
from evalsubmit.core.records import Record

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


MAX_FIXTURE_DEPTH = 4


class ConftestReader(Protocol):
    def conftests(self, importer: Path | None, dependencies: set[Path]) -> list[ModuleScope]:
        """The ``conftest.py`` modules that apply to ``importer``, nearest first."""
        ...


class TestPlan(Record):
    """How to walk a test or fixture body: fixture values, and one walk per case."""

    __slots__ = ("cases", "fixtures")
    fixtures: Final[dict[str, Value]]
    cases: Final[list[Case]]

    def __init__(self, fixtures: dict[str, Value], cases: list[Case]) -> None:
        self.fixtures = fixtures
        self.cases = cases


class TestCode:
    def __init__(self, interp: Interpreter, conftests: ConftestReader | None) -> None:
        self.interp = interp
        self._conftests = conftests
        self._fixture_values: dict[int, Value] = {}

    def forget_new(self) -> Callable[[], None]:
        """A function that forgets the fixture values computed from now on (pytest builds a
        function-scoped fixture anew for each test)."""
        before = set(self._fixture_values)

        def forget() -> None:
            for key in set(self._fixture_values) - before:
                del self._fixture_values[key]

        return forget

    def plan(self, function: FunctionNode, cls: ClassValue | None) -> TestPlan | None:
        """None when ``function`` is neither a test nor a fixture."""
        fixture = is_fixture(function)
        if not (fixture or _is_test(function, cls)):
            return None
        if not fixture and surely_skipped(self.interp, function, cls):
            return TestPlan({}, [])  # pytest reports it skipped: its body never runs
        parameters = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
        parameters += [a.arg for a in function.args.kwonlyargs]
        if cls is not None and parameters:
            parameters = parameters[1:]
        cases = parametrize_cases(self.interp, function)
        if cases is not None:
            cases = self._with_indirect_fixtures(cases, cls)
        if cases is None:  # not parametrized (or its cases are not known): one walk
            cases = [(None, {})]
        given = {name for _, values in cases for name in values}
        fixtures: dict[str, Value] = {}
        for name in parameters:
            if name not in given:
                found = self.fixture(name, cls, 0)
                if found is not None:
                    fixtures[name] = found
        return TestPlan(fixtures, cases)

    # ----- fixtures ------------------------------------------------------------------------

    def fixture(self, name: str, cls: ClassValue | None, depth: int) -> Value | None:
        function = self._find(name, cls)
        if function is None or not isinstance(function.node, ast.FunctionDef):
            return None
        key = id(function)
        if key in self._fixture_values:
            return self._fixture_values[key]
        self._fixture_values[key] = Unknown("a fixture being evaluated")  # no cycles
        node = function.node
        values: dict[str, Value] = {}
        parameters = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        if cls is not None and function.bound_self is not None and parameters:
            parameters = parameters[1:]
        if depth < MAX_FIXTURE_DEPTH:
            for parameter in parameters:
                found = self.fixture(parameter, cls, depth + 1)
                if found is not None:
                    values[parameter] = found
        value = fixture_value(self.interp, function, values)
        self._fixture_values[key] = value
        return value

    def _with_indirect_fixtures(
        self, cases: list[Case], cls: ClassValue | None
    ) -> list[Case] | None:
        """Each case with its ``indirect`` parameters' fixtures evaluated for it, their
        ``request.param`` the case's value; None when such a fixture is not found."""
        resolved: list[Case] = []
        for walk, values in cases:
            case: dict[str, Value] = {}
            for key, value in values.items():
                if not key.startswith(INDIRECT):
                    case[key] = value
                    continue
                name = key.removeprefix(INDIRECT)
                found = self._fixture_given(name, cls, value)
                if found is None:
                    return None
                case[name] = found
            resolved.append((walk, case))
        return resolved

    def _fixture_given(self, name: str, cls: ClassValue | None, param: Value) -> Value | None:
        """The value of fixture ``name`` whose ``request.param`` is ``param`` (evaluated anew:
        pytest builds one per parameter); its other fixtures as for any fixture."""
        function = self._find(name, cls)
        if function is None or not isinstance(function.node, ast.FunctionDef):
            return None
        node = function.node
        parameters = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        if cls is not None and function.bound_self is not None and parameters:
            parameters = parameters[1:]
        values: dict[str, Value] = {}
        for parameter in parameters:
            if parameter == "request":
                request = ClassRef(PYTEST_REQUEST)
                values[parameter] = Instance(request, CallArgs(), attributes={"param": param})
                continue
            found = self.fixture(parameter, cls, 1)
            if found is not None:
                values[parameter] = found
        return fixture_value(self.interp, function, values)

    def _find(self, name: str, cls: ClassValue | None) -> FunctionValue | None:
        if cls is not None and cls.ref.user is not None:
            for method in cls.ref.user.methods.values():
                if fixture_name(method) == name:
                    return method
        found = _in_env(self.interp.module_env, name)
        if found is not None:
            return found
        if self._conftests is None:
            return None
        for scope in self._conftests.conftests(self.interp.source.path, self.interp.dependencies):
            found = _in_env(scope.env, name)
            if found is not None:
                return found
        return None


def is_fixture(function: FunctionNode) -> bool:
    return any(spelled_name(d) == "fixture" for d in function.decorator_list)


def fixture_name(function: FunctionValue) -> str | None:
    """The name a fixture is requested by (``@pytest.fixture(name=...)`` or its own)."""
    node = function.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not is_fixture(node):
        return None
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call):
            for keyword in decorator.keywords:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value)
    return node.name


def _in_env(env: Env, name: str) -> FunctionValue | None:
    for value in env.bindings.values():
        if isinstance(value, FunctionValue) and fixture_name(value) == name:
            return value
    return None


def _is_test(function: FunctionNode, cls: ClassValue | None) -> bool:
    if not function.name.startswith("test"):
        return False
    if cls is None:
        return True
    user = cls.ref.user
    if user is None:
        return False
    if user.name.startswith("Test"):
        return True
    return any(
        isinstance(b, ClassValue) and b.ref.qualname.endswith("TestCase") for b in user.bases
    )
