"""The refusal table's inputs: standard-library (and common user-defined) values placed where the
SDK serialises them, as whole programs that build a Gym runner and submit it.

No evalsubmit imports and no third-party imports: the SDK oracle (``refusal_oracle.py``) loads
this file in the SDK's own venv and runs every program for real (HTTP stopped at the transport);
the contract test (``test_refusal_table.py``) gives the same programs to the static engine.

A case is one :data:`VALUES` entry in one :data:`PLACES` entry: ``hydra_params={"k": v}``, the
value nested in a list, a dict and a tuple under ``hydra_params``, ``env_vars={"K": v}``,
``TasksetRef(v)`` and ``submit(tasks=v)``. Its id is ``<place>/<value id>``.
"""

from __future__ import annotations

from typing import NamedTuple


class Value(NamedTuple):
    id: str
    expr: str
    pre: str = ""
    """Definitions the expression needs (written before the config, as user code would)."""


IMPORTS = (
    "import asyncio\n"
    "import collections\n"
    "import dataclasses\n"
    "import datetime\n"
    "import decimal\n"
    "import enum\n"
    "import fractions\n"
    "import functools\n"
    "import io\n"
    "import pathlib\n"
    "import re\n"
    "import threading\n"
    "import types\n"
    "import typing\n"
    "import uuid\n"
    "\n"
    "import pydantic\n"
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig\n"
    "from nemo_platform import NeMoPlatform\n"
    "\n"
)

_POINT = 'Point = collections.namedtuple("Point", ["x", "y"])\n'
_PAIR = "class Pair(typing.NamedTuple):\n    left: int\n    right: str\n"
_COLOR = 'class Color(enum.Enum):\n    RED = "red"\n'
_LEVEL = "class Level(enum.IntEnum):\n    LOW = 1\n"
_MODE = 'class Mode(enum.StrEnum):\n    FAST = "fast"\n'
_SAMPLING = (
    "@dataclasses.dataclass\n"
    "class Sampling:\n    temperature: float = 0.2\n    top_p: float = 0.9\n"
)
_LIMITS = "class Limits(pydantic.BaseModel):\n    max_tokens: int = 512\n"
_PLAIN = "class Settings:\n    def __init__(self):\n        self.depth = 2\n"
_GEN = "def seeds():\n    yield 1\n    yield 2\n"

VALUES: tuple[Value, ...] = (
    # controls: plain JSON
    Value("str", '"qa/smoke"'),
    Value("int", "3"),
    Value("list", "[1, 2]"),
    Value("dict", '{"a": 1}'),
    # collections
    Value("OrderedDict", "collections.OrderedDict(a=1)"),
    Value("defaultdict", "collections.defaultdict(list, a=[1])"),
    Value("Counter", 'collections.Counter("aab")'),
    Value("deque", "collections.deque([1, 2])"),
    Value("ChainMap", 'collections.ChainMap({"a": 1})'),
    Value("namedtuple", "Point(1, 2)", _POINT),
    Value("UserDict", 'collections.UserDict({"a": 1})'),
    Value("UserList", "collections.UserList([1, 2])"),
    Value("UserString", 'collections.UserString("qa/smoke")'),
    # asyncio and threading
    Value("asyncio.Semaphore", "asyncio.Semaphore(4)"),
    Value("asyncio.Lock", "asyncio.Lock()"),
    Value("asyncio.Event", "asyncio.Event()"),
    Value("asyncio.Queue", "asyncio.Queue()"),
    Value("asyncio.BoundedSemaphore", "asyncio.BoundedSemaphore(2)"),
    Value("asyncio.Condition", "asyncio.Condition()"),
    Value("asyncio.LifoQueue", "asyncio.LifoQueue()"),
    Value("asyncio.PriorityQueue", "asyncio.PriorityQueue()"),
    Value("threading.Lock", "threading.Lock()"),
    Value("threading.RLock", "threading.RLock()"),
    Value("threading.Event", "threading.Event()"),
    Value("threading.Semaphore", "threading.Semaphore(2)"),
    Value("threading.BoundedSemaphore", "threading.BoundedSemaphore(2)"),
    Value("threading.Condition", "threading.Condition()"),
    Value("threading.Barrier", "threading.Barrier(2)"),
    # pathlib
    Value("Path", 'pathlib.Path("qa/smoke")'),
    Value("PurePosixPath", 'pathlib.PurePosixPath("qa/smoke")'),
    Value("PureWindowsPath", 'pathlib.PureWindowsPath("qa/smoke")'),
    # functools, types
    Value("partial", "functools.partial(max, 0)"),
    Value("SimpleNamespace", "types.SimpleNamespace(depth=2)"),
    Value("MappingProxyType", 'types.MappingProxyType({"a": 1})'),
    # enum members
    Value("Enum", "Color.RED", _COLOR),
    Value("IntEnum", "Level.LOW", _LEVEL),
    Value("StrEnum", "Mode.FAST", _MODE),
    # numbers and text-like
    Value("Decimal", 'decimal.Decimal("1.5")'),
    Value("Fraction", "fractions.Fraction(1, 2)"),
    Value("complex", "complex(1, 2)"),
    Value("re.Pattern", 're.compile("a+")'),
    Value("bytes", 'b"qa/smoke"'),
    Value("bytes-non-utf8", 'b"\\xff"'),
    Value("bytearray", 'bytearray(b"qa/smoke")'),
    # datetime, uuid
    Value("datetime", "datetime.datetime(2024, 1, 1, 12, 30)"),
    Value("date", "datetime.date(2024, 1, 1)"),
    Value("time", "datetime.time(12, 30)"),
    Value("timedelta", "datetime.timedelta(minutes=5)"),
    Value("timezone", "datetime.timezone(datetime.timedelta(hours=1))"),
    Value("timezone.utc", "datetime.timezone.utc"),
    Value("UUID", 'uuid.UUID("12345678-1234-5678-1234-567812345678")'),
    # user-defined records
    Value("NamedTuple", 'Pair(1, "x")', _PAIR),
    Value("dataclass", "Sampling()", _SAMPLING),
    Value("pydantic", "Limits()", _LIMITS),
    Value("plain-object", "Settings()", _PLAIN),
    # sets, ranges
    Value("set", "{1, 2}"),
    Value("frozenset", "frozenset({1, 2})"),
    Value("range", "range(3)"),
    # one-shot iterators and files
    Value("genexpr", "(s * 7 for s in range(3))"),
    Value("generator", "seeds()", _GEN),
    Value("iter", "iter([1, 2])"),
    Value("map", "map(str, [1, 2])"),
    Value("zip", 'zip("ab", [1, 2])'),
    Value("enumerate", 'enumerate("ab")'),
    Value("open", 'open("/dev/null")'),
    Value("StringIO", 'io.StringIO("x")'),
    # callables and classes
    Value("function", "print"),
    Value("lambda", "lambda x: x"),
    Value("class", "float"),
)


class Place(NamedTuple):
    id: str
    hydra: str | None = None
    """``hydra_params=`` with ``{v}`` where the value goes (None: the default)."""
    env: str | None = None
    tasks: str = 'TasksetRef("qa/smoke")'


PLACES: tuple[Place, ...] = (
    Place("hydra", hydra='{{"k": {v}}}'),
    Place("hydra-list", hydra='{{"seeds": [1, {v}]}}'),
    Place("hydra-dict", hydra='{{"sampling": {{"inner": {v}}}}}'),
    Place("hydra-tuple", hydra='{{"pair": ("a", {v})}}'),
    Place("env", env='{{"HF_HOME": "/hf", "K": {v}}}'),
    Place("taskset-ref", tasks="TasksetRef({v})"),
    Place("tasks", tasks="{v}"),
)


def program(place: Place, value: Value) -> str:
    """The whole program of one case: imports, definitions, config, runner, client, submit."""
    args = ['agent="simple_agent"', 'agent_config="configs/a.yaml"', 'resources_server="mcqa"']
    if place.hydra is not None:
        args.append("hydra_params=" + place.hydra.format(v=value.expr))
    if place.env is not None:
        args.append("env_vars=" + place.env.format(v=value.expr))
    config = "cfg = GymRuntimeConfig(\n" + "".join(f"    {a},\n" for a in args) + ")\n"
    tasks = place.tasks.format(v=value.expr)
    return (
        IMPORTS
        + (value.pre + "\n" if value.pre else "")
        + config
        + "runner = GymAgentTaskRunner(config=cfg)\n"
        + 'client = NeMoPlatform(base_url="http://localhost:8080", workspace="default")\n'
        + f"job = client.evaluator.submit(tasks={tasks}, target=runner)\n"
    )


def cases() -> list[tuple[str, str]]:
    """``(case id, program)`` for every place and value, ids unique."""
    return [(f"{p.id}/{v.id}", program(p, v)) for p in PLACES for v in VALUES]


LABELS: dict[str, str] = {
    "str": "str",
    "int": "int",
    "list": "list",
    "dict": "dict",
    "OrderedDict": "collections.OrderedDict",
    "defaultdict": "collections.defaultdict",
    "Counter": "collections.Counter",
    "deque": "collections.deque",
    "ChainMap": "collections.ChainMap",
    "namedtuple": "collections.namedtuple",
    "UserDict": "collections.UserDict",
    "UserList": "collections.UserList",
    "UserString": "collections.UserString",
    "Path": "pathlib.Path",
    "PurePosixPath": "pathlib.PurePosixPath",
    "PureWindowsPath": "pathlib.PureWindowsPath",
    "partial": "functools.partial",
    "SimpleNamespace": "types.SimpleNamespace",
    "MappingProxyType": "types.MappingProxyType",
    "Enum": "enum.Enum member",
    "IntEnum": "enum.IntEnum member",
    "StrEnum": "enum.StrEnum member",
    "Decimal": "decimal.Decimal",
    "Fraction": "fractions.Fraction",
    "bytes": "bytes (UTF-8)",
    "bytes-non-utf8": "bytes (not UTF-8)",
    "bytearray": "bytearray (UTF-8)",
    "datetime": "datetime.datetime",
    "date": "datetime.date",
    "time": "datetime.time",
    "timedelta": "datetime.timedelta",
    "timezone": "datetime.timezone",
    "timezone.utc": "datetime.timezone.utc",
    "UUID": "uuid.UUID",
    "NamedTuple": "typing.NamedTuple",
    "dataclass": "@dataclass instance",
    "pydantic": "pydantic model",
    "plain-object": "plain class instance",
    "genexpr": "generator expression",
    "generator": "generator",
    "iter": "iter(...)",
    "map": "map(...)",
    "zip": "zip(...)",
    "enumerate": "enumerate(...)",
    "open": "open(...)",
    "StringIO": "io.StringIO",
    "function": "function",
    "lambda": "lambda",
    "class": "class",
}
"""How ES107's docs name each value (the contract test holds the docs to the table)."""


def label(value_id: str) -> str:
    return LABELS.get(value_id, value_id)
