"""The standard-library names the models know, grouped by what calling or reading each gives.

Tables only: a name that is a one-shot iterator, an object the JSON rule refuses, a value whose
type (never content) is known, a constructor that may be run on literal arguments... The code
that turns a call into a value from these tables is :mod:`.stdlib`; keeping the lists apart lets
a new modelled name be a one-line change that is easy to review.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

ONE_SHOT = {
    "builtins.map": "a map() iterator",
    "builtins.zip": "a zip() iterator",
    "builtins.filter": "a filter() iterator",
    "builtins.iter": "an iter() iterator",
    "builtins.reversed": "a reversed() iterator",
    "builtins.enumerate": "an enumerate() iterator",
    "builtins.open": "an open file handle",
    "io.open": "an open file handle",
    "io.StringIO": "an io.StringIO stream",
    "io.BytesIO": "an io.BytesIO stream",
    "itertools.count": "an itertools iterator",
    "itertools.cycle": "an itertools iterator",
    "itertools.chain": "an itertools iterator",
    "itertools.islice": "an itertools iterator",
    "itertools.repeat": "an itertools iterator",
    "itertools.product": "an itertools iterator",
}

REFUSED_CALLS = {
    "builtins.object": ("a plain object()", None),
    "builtins.slice": ("a slice object", None),
    "builtins.memoryview": ("a memoryview", None),
    "threading.Lock": ("a threading.Lock", None),
    "threading.RLock": ("a threading.RLock", None),
    "threading.Event": ("a threading.Event", None),
    "threading.Semaphore": ("a threading.Semaphore", None),
    "threading.Condition": ("a threading.Condition", None),
    "threading.BoundedSemaphore": ("a threading.BoundedSemaphore", None),
    "threading.Barrier": ("a threading.Barrier", None),
    "multiprocessing.Lock": ("a multiprocessing.Lock", None),
    "asyncio.Lock": ("an asyncio.Lock", None),
    "asyncio.Event": ("an asyncio.Event", None),
    "asyncio.Semaphore": ("an asyncio.Semaphore", None),
    "asyncio.BoundedSemaphore": ("an asyncio.BoundedSemaphore", None),
    "asyncio.Condition": ("an asyncio.Condition", None),
    "asyncio.Queue": ("an asyncio.Queue", None),
    "asyncio.LifoQueue": ("an asyncio.LifoQueue", None),
    "asyncio.PriorityQueue": ("an asyncio.PriorityQueue", None),
    "functools.partial": ("a functools.partial", None),
    "types.SimpleNamespace": ("a types.SimpleNamespace", None),
    "types.MappingProxyType": ("a types.MappingProxyType", None),
    "collections.UserDict": ("a collections.UserDict", None),
    "collections.UserList": ("a collections.UserList", "list"),
    "collections.UserString": ("a collections.UserString", "str"),
    "collections.ChainMap": ("a collections.ChainMap", "dict"),
    "array.array": ("an array.array", None),
    "pathlib.PurePosixPath": ("a pathlib.PurePosixPath (only concrete Path serialises)", "str"),
    "pathlib.PureWindowsPath": ("a pathlib.PureWindowsPath (only concrete Path serialises)", "str"),
    "pathlib.PurePath": ("a pathlib.PurePath (only concrete Path serialises)", "str"),
    "datetime.timezone": ("a datetime.timezone", None),
    "logging.getLogger": ("a logging.Logger", None),
    "random.Random": ("a random.Random", None),
    "argparse.Namespace": ("an argparse.Namespace", None),
    "random.SystemRandom": ("a random.SystemRandom", None),
    "logging.Logger": ("a logging.Logger", None),
}

MAPPINGS = frozenset({"collections.ChainMap", "collections.UserDict", "types.MappingProxyType"})
"""Refused classes that are a ``Mapping``: pydantic validates one given as a whole ``dict``
field into a dict (only inside ``hydra_params`` is it kept, and refused, as it is)."""

REFUSED_CALL_CLASSES = {"logging.getLogger": "logging.Logger"}
"""The class of what a :data:`REFUSED_CALLS` function returns (a class name is its own)."""

REFUSED_NAMES = {
    "builtins.Ellipsis": "Ellipsis",
    "builtins.NotImplemented": "NotImplemented",
    "os.environ": "os.environ itself (an os._Environ mapping)",
    "sys.stdout": "a stream (sys.stdout)",
    "sys.stderr": "a stream (sys.stderr)",
    "sys.stdin": "a stream (sys.stdin)",
}

REFUSED_NAME_CLASSES = {
    "sys.stdout": "io.TextIOWrapper",
    "sys.stderr": "io.TextIOWrapper",
    "sys.stdin": "io.TextIOWrapper",
}
"""The class of a :data:`REFUSED_NAMES` object, when one is sure (its methods are bound
methods; an attribute of an object of no known class is unknown)."""

MATERIALIZING = {
    "builtins.list": list,
    "builtins.tuple": tuple,
    "builtins.set": set,
    "builtins.frozenset": frozenset,
}

LITERAL_CONSTRUCTORS = frozenset(
    {
        "pathlib.Path",
        "pathlib.PosixPath",
        "datetime.datetime",
        "datetime.date",
        "datetime.time",
        "datetime.timedelta",
        "decimal.Decimal",
        "uuid.UUID",
        "builtins.complex",
        "fractions.Fraction",
        "ipaddress.ip_address",
        "ipaddress.ip_network",
        "ipaddress.ip_interface",
        "ipaddress.IPv4Address",
        "ipaddress.IPv6Address",
        "ipaddress.IPv4Network",
        "re.compile",
        "builtins.bytes",
        "builtins.bytearray",
    }
)
"""Callables run on literal arguments; each name is its module and attribute, imported when
first called (uuid, decimal and fractions cost milliseconds to import, and most files never
call them: :func:`literal_constructor`)."""


def literal_constructor(qualname: str) -> Callable[..., Any]:
    """The callable of a :data:`LITERAL_CONSTRUCTORS` name."""
    module, _, attribute = qualname.rpartition(".")
    found: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
    return found


CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "builtins.str": str,
    "builtins.int": int,
    "builtins.float": float,
    "builtins.bool": bool,
}


TYPED_RESULTS: dict[str, tuple[str, str]] = {
    "os.cpu_count": ("the number of CPUs", "int|None"),
    "os.getpid": ("a process id", "int"),
    "uuid.uuid1": ("a fresh UUID", "UUID"),
    "uuid.uuid4": ("a fresh UUID", "UUID"),
    "datetime.datetime.now": ("the current time", "datetime"),
    "datetime.datetime.utcnow": ("the current time", "datetime"),
    "datetime.datetime.today": ("the current time", "datetime"),
    "datetime.date.today": ("today's date", "date"),
    "time.time": ("the current time", "float"),
    "pathlib.Path.home": ("the home folder", "PosixPath"),
    "pathlib.Path.cwd": ("the current folder", "PosixPath"),
    "tempfile.mkdtemp": ("a temporary folder", "str"),
    "tempfile.gettempdir": ("the temporary folder", "str"),
    "socket.gethostname": ("the host name", "str"),
    "getpass.getuser": ("the user name", "str"),
    "platform.node": ("the host name", "str"),
}
"""Callables whose result's type is known, never its value."""

DICT_LIKE = {"collections.OrderedDict"}
STR_FUNCTIONS = {"os.path.join", "os.path.expanduser", "os.path.abspath", "os.getcwd", "json.dumps"}


MODELLED_MODULES = {
    "builtins",
    "threading",
    "pathlib",
    "datetime",
    "functools",
    "types",
    "collections",
    "array",
    "logging",
    "io",
    "itertools",
    "os",
    "sys",
    "math",
    "decimal",
    "uuid",
    "asyncio",
    "multiprocessing",
    "json",
    "enum",
    "dataclasses",
    "fractions",
    "re",
    "ipaddress",
    "typing",
    "pydantic",
    "random",
    "argparse",
    "tempfile",
    "socket",
    "getpass",
    "platform",
    "time",
}


NAMEDTUPLE = "<namedtuple class>"
ARGUMENT_PARSER = "argparse.ArgumentParser"
NAMESPACE = "argparse.Namespace"
PARSE_METHODS = frozenset(
    {"parse_args", "parse_known_args", "parse_intermixed_args", "add_argument"}
)
