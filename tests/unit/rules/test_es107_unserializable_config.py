"""ES107 unserializable-config: a submitted Gym runner whose `hydra_params` hold, at any depth, a
value with no JSON form or a one-shot iterator (reference §6.4, mistakes M6 and M7)."""

from __future__ import annotations

import textwrap

import pytest
from rule_support import Result, analyse, assert_fix, results


def submitted(value: str, setup: str = "") -> tuple[str, int]:
    """A snippet submitting a runner with ``hydra_params={"k": <value>}``, and the entry line."""
    setup = textwrap.dedent(setup).strip("\n")
    head = setup + "\n" if setup else ""
    body = (
        "r = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
        '    agent="a", agent_config="a.yaml", resources_server="m",\n'
        f'    hydra_params={{"k": {value}}},\n'
        "))\n"
        "client.evaluator.submit(tasks=T, target=r)\n"
    )
    return head + body, head.count("\n") + 3


PLAIN_CLASS = "class Tok:\n    pass"
ENUM = "import enum\nclass Color(enum.Enum):\n    RED = 'red'"
FUNCTION = "def hook(rollout):\n    return rollout"

# (id, setup, value) — refused at submit (UnsubmittableRunnerError) or non-UTF-8 bytes.
REFUSED: list[tuple[str, str, str]] = [
    ("lambda", "", "lambda r: print(r)"),
    ("function", FUNCTION, "hook"),
    ("builtin print", "", "print"),
    ("builtin len", "", "len"),
    ("bound method of a logger", "", 'logging.getLogger("x").info'),
    ("bound method of a str", "", '"x".upper'),
    ("functools.partial", "", "functools.partial(print, end='')"),
    ("a builtin type", "", "float"),
    ("a standard-library function", "import os", "os.getcwd"),
    ("a standard-library class", "", "collections.OrderedDict"),
    ("a user class", PLAIN_CLASS, "Tok"),
    ("an Enum class", ENUM, "Color"),
    ("an ordinary user instance", PLAIN_CLASS, "Tok()"),
    ("object()", "", "object()"),
    ("SimpleNamespace", "", "types.SimpleNamespace(a=1)"),
    ("a Logger", "", 'logging.getLogger("x")'),
    ("an exception", "", 'ValueError("x")'),
    ("a module", "", "os"),
    ("threading.Lock", "", "threading.Lock()"),
    ("threading.RLock", "", "threading.RLock()"),
    ("threading.Event", "", "threading.Event()"),
    ("range", "", "range(4)"),
    ("dict.keys()", "", '{"a": 1}.keys()'),
    ("dict.values()", "", '{"a": 1}.values()'),
    ("dict.items()", "", '{"a": 1}.items()'),
    ("slice", "", "slice(1, 2)"),
    ("Ellipsis", "", "..."),
    ("NotImplemented", "", "NotImplemented"),
    ("array.array", "import array", 'array.array("i", [1, 2])'),
    ("memoryview", "", 'memoryview(b"x")'),
    ("os.environ itself", "", "os.environ"),
    ("UserDict", "", "collections.UserDict()"),
    ("MappingProxyType", "", "types.MappingProxyType({})"),
    ("PurePosixPath", "", 'PurePosixPath("/x")'),
    ("PureWindowsPath", "from pathlib import PureWindowsPath", 'PureWindowsPath("c:/x")'),
    ("a PurePosixPath joined with a str", "", 'PurePosixPath("/mnt") / "runs" / "smoke"'),
    ("a PurePosixPath joined with a path", "", 'PurePosixPath("/mnt") / Path("runs")'),
    ("a timezone", "", "datetime.timezone.utc"),
    ("non-UTF-8 bytes", "", 'b"\\xff\\xfe"'),
    # one-shot iterators: silently sent as []
    ("generator expression (M7)", "", "(s * 7 for s in range(4))"),
    ("generator function call", "def gen():\n    yield 1", "gen()"),
    ("map", "", "map(str, [1, 2])"),
    ("zip", "", "zip([1], [2])"),
    ("filter", "", "filter(None, [0, 1])"),
    ("iter", "", "iter([1, 2])"),
    ("open file handle", "", 'open("prompts.txt")'),
    ("StringIO", "", 'io.StringIO("x")'),
    # nesting
    ("nested in a list", "", "[1, 2, print]"),
    ("nested in a tuple", "", "(1, lambda: 1)"),
    ("nested in a dict on the same line", "", '{"inner": [{"hook": print}]}'),
    ("nested generator", "", "[(x for x in [1])]"),
]

# (id, setup, value) — serialized fine; must not be flagged.
FINE: list[tuple[str, str, str]] = [
    ("str", "", '"x"'),
    ("str() of a joined PurePosixPath", "", 'str(PurePosixPath("/mnt") / "cache")'),
    ("f-string", "", 'f"run-{1}"'),
    ("os.environ lookup", "", 'os.environ["HOME"]'),
    ("os.environ.get", "", 'os.environ.get("HOME", "/root")'),
    ("int", "", "42"),
    ("huge int", "", "1000000000000000000000000000000"),
    ("float", "", "0.5"),
    ("bool", "", "True"),
    ("None", "", "None"),
    ("nan", "", 'float("nan")'),
    ("inf", "", 'float("inf")'),
    ("dict", "", '{"a": 1}'),
    ("nested non-str keys", "", '{1: "a", True: "b", None: "c", (1, 2): "d"}'),
    ("OrderedDict", "", "collections.OrderedDict(a=1)"),
    ("defaultdict", "", "collections.defaultdict(list)"),
    ("Counter", "", 'collections.Counter("abc")'),
    ("list", "", "[1, 2]"),
    ("tuple", "", "(1, 2)"),
    ("set", "", '{"train", "test"}'),
    ("frozenset", "", "frozenset({1})"),
    ("deque", "", "collections.deque([1])"),
    ("NamedTuple", "from typing import NamedTuple\nclass P(NamedTuple):\n    x: int", "P(1)"),
    ("Path", "", 'Path("/data/mcqa")'),
    ("datetime", "", "datetime.datetime(2026, 1, 1)"),
    ("date", "", "datetime.date(2026, 1, 1)"),
    ("time", "", "datetime.time(12, 0)"),
    ("timedelta", "", "datetime.timedelta(minutes=1, seconds=30)"),
    ("Enum member", ENUM, "Color.RED"),
    ("IntEnum member", "import enum\nclass Lvl(enum.IntEnum):\n    HIGH = 2", "Lvl.HIGH"),
    ("UTF-8 bytes", "", 'b"ok"'),
    ("bytearray", "", 'bytearray(b"ok")'),
    ("Decimal", "from decimal import Decimal", 'Decimal("1.5")'),
    ("UUID", "import uuid", "uuid.UUID(int=1)"),
    ("Fraction", "from fractions import Fraction", "Fraction(1, 3)"),
    ("complex", "", "complex(1, 2)"),
    ("re.Pattern", "import re", 're.compile("x+")'),
    ("ip address", "import ipaddress", 'ipaddress.ip_address("10.0.0.1")'),
    (
        "dataclass instance",
        "from dataclasses import dataclass\n@dataclass\nclass S:\n    t: float = 0.2",
        "S()",
    ),
    ("pydantic model instance", "", "RunConfig(parallelism=2)"),
    ("list comprehension (M7 fine)", "", "[s * 7 for s in range(4)]"),
    ("dict comprehension", "", '{k: v for k, v in [("a", 1)]}'),
    ("list(range())", "", "list(range(4))"),
    ("list(generator)", "", "list(s for s in range(4))"),
    ("tuple(map())", "", "tuple(map(str, [1, 2]))"),
    ("join over a generator", "", '",".join(str(i) for i in range(4))'),
    ("dict(zip())", "", 'dict(zip(["a", "b"], [1, 2]))'),
    ("sorted(set)", "", "sorted({3, 1})"),
    ("str(Path)", "", 'str(Path("/x"))'),
    ("read from a file: unknown", "", 'open("prompt.txt").read()'),
    ("a string constant of os", "import os", "os.sep"),
    ("os.linesep, os.name", "import os", "[os.linesep, os.name]"),
    ("an attribute of an unread package: unknown", "import teamlib", "teamlib.SETTINGS"),
]


@pytest.mark.parametrize(("setup", "value"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_es107_refused_or_iterator_value(setup: str, value: str) -> None:
    source, line = submitted(value, setup)
    assert results(source) == [(line, "ES107")]


@pytest.mark.parametrize(("setup", "value"), [c[1:] for c in FINE], ids=[c[0] for c in FINE])
def test_es107_serializable_value(setup: str, value: str) -> None:
    source, _ = submitted(value, setup)
    assert results(source) == []


CASES: list[tuple[str, str, Result]] = [
    (
        "M6: a lambda and a lock, one finding per entry",
        """
        cfg6 = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="m",
            hydra_params={"on_rollout": lambda r: print(r),
                          "guard": threading.Lock()})
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg6))
        """,
        [(2, "ES107"), (3, "ES107")],
    ),
    (
        "M7: a generator is flagged, the list comprehension is not",
        """
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={
                "seeds": (s * 7 for s in range(4)),
                "fine": [s * 7 for s in range(4)],
            }))
        client.evaluator.submit(tasks=T, target=r)
        """,
        [(4, "ES107")],
    ),
    (
        "a value bound elsewhere: anchored on the dict entry",
        """
        seeds = (s * 7 for s in range(4))
        hp = {"lr": 0.1,
              "seeds": seeds}
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", hydra_params=hp))
        client.evaluator.submit(tasks=T, target=r)
        """,
        [(3, "ES107")],
    ),
    (
        "params['k'] = v before the config: anchored on the assignment",
        """
        params = {"temperature": 0.2}
        params["callback"] = print
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", hydra_params=params))
        client.evaluator.submit(tasks=T, target=r)
        """,
        [(2, "ES107")],
    ),
    (
        "nested dict over several lines: the innermost entry",
        """
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={
                "outer": {
                    "hook": print,
                },
            }))
        client.evaluator.submit(tasks=T, target=r)
        """,
        [(5, "ES107")],
    ),
    (
        "reported once however often the runner is submitted",
        """
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": print}))
        client.evaluator.submit(tasks=T, target=r)
        client.evaluator.submit(tasks=TasksetRef("qa/other"), target=r)
        """,
        [(3, "ES107")],
    ),
    (
        "one bad dict shared by two submitted runners: reported once",
        """
        hp = {"hook": print}
        r1 = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", hydra_params=hp))
        r2 = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="b", agent_config="b.yaml", resources_server="m", hydra_params=hp))
        client.evaluator.submit(tasks=T, target=r1)
        client.evaluator.submit(tasks=T, target=r2)
        """,
        [(1, "ES107")],
    ),
    (
        "through a helper that returns the runner",
        """
        def make_runner():
            return GymAgentTaskRunner(config=GymRuntimeConfig(
                agent="a", agent_config="a.yaml", resources_server="m",
                hydra_params={"hook": print}))
        client.evaluator.submit(tasks=T, target=make_runner())
        """,
        [(4, "ES107")],
    ),
    (
        "GymRuntimeConfig(**settings) with a dict literal",
        """
        settings = {
            "agent": "a", "agent_config": "a.yaml", "resources_server": "m",
            "hydra_params": {"hook": print},
        }
        r = GymAgentTaskRunner(config=GymRuntimeConfig(**settings))
        client.evaluator.submit(tasks=T, target=r)
        """,
        [(3, "ES107")],
    ),
    (
        "GymRuntimeConfig.model_validate({...})",
        """
        c = GymRuntimeConfig.model_validate({
            "agent": "a", "agent_config": "a.yaml", "resources_server": "m",
            "hydra_params": {"seeds": map(str, range(3))},
        })
        client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=c))
        """,
        [(3, "ES107")],
    ),
    (
        "non-mistake: never submitted",
        """
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": print}))
        """,
        [],
    ),
    (
        "non-mistake: a runner with a lambda that is only run locally",
        """
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"on_rollout": lambda r: print(r)}))
        result = AgentEvaluator().run_sync(tasks=[], target=r)
        """,
        [],
    ),
    (
        "not checked when the call fails a shape check",
        """
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": print}))
        client.evaluator.submit(tasks=T, target=r, config=RunConfig())
        """,
        [(4, "ES102")],
    ),
    (
        "an unknown value (a parameter) is not diagnosed",
        """
        def build(callback):
            r = GymAgentTaskRunner(config=GymRuntimeConfig(
                agent="a", agent_config="a.yaml", resources_server="m",
                hydra_params={"hook": callback}))
            client.evaluator.submit(tasks=T, target=r)
        """,
        [],
    ),
    (
        "hydra_params read from a file are unknown",
        """
        import json
        with open("hydra.json") as fh:
            hp = json.load(fh)
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", hydra_params=hp))
        client.evaluator.submit(tasks=T, target=r)
        """,
        [],
    ),
    (
        "a name rebound to a list before the config is built",
        """
        seeds = (s for s in range(4))
        seeds = list(seeds)
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"seeds": seeds}))
        client.evaluator.submit(tasks=T, target=r)
        """,
        [],
    ),
    (
        "suppressed on the entry line",
        """
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": breakpoint}))  # evalsubmit: ignore[ES107]
        client.evaluator.submit(tasks=T, target=r)
        """,
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es107(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es107_kind_and_message() -> None:
    source, _ = submitted("lambda r: r")
    (finding,) = analyse(source)
    assert finding.kind == "unserializable-config"
    assert finding.message.strip()


@pytest.mark.parametrize(
    ("setup", "value", "held"),
    [
        ("import datetime", "datetime.timezone.utc", "a timezone object"),
        ("import json", "json", "the module json"),
        ("import threading", "threading.Lock()", "a threading.Lock"),
    ],
)
def test_es107_message_says_once_what_has_no_json_form(setup: str, value: str, held: str) -> None:
    source, _ = submitted(value, setup)
    (finding,) = analyse(source)
    assert finding.message.startswith(f"hydra_params holds {held}, which has no JSON form")
    assert finding.message.count("no JSON form") == 1


FIXES = [
    ("generator expression", "(s * 7 for s in range(4))", "list(s * 7 for s in range(4))"),
    ("map", "map(str, range(8))", "list(map(str, range(8)))"),
    ("range", "range(100)", "list(range(100))"),
    ("zip", 'zip(["a"], [1])', 'list(zip(["a"], [1]))'),
    ("filter", "filter(None, [0, 1])", "list(filter(None, [0, 1]))"),
]


@pytest.mark.parametrize(("value", "fixed"), [c[1:] for c in FIXES], ids=[c[0] for c in FIXES])
def test_es107_fix_wraps_in_list(value: str, fixed: str) -> None:
    source, _ = submitted(value)
    expected, _ = submitted(fixed)
    assert_fix(source, "ES107", expected)
