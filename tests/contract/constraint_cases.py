"""Generated ``GymRuntimeConfig`` inputs for the constraint-table contract (no evalsubmit imports:
the SDK oracle, ``constraint_oracle.py``, loads this file in the SDK's own venv).

Every case is the source text of the mapping given to ``GymRuntimeConfig.model_validate``,
evaluated after :data:`PREAMBLE` in both processes: every field with every value of
:data:`VALUES` (plus :data:`MAPPING_VALUES` for the two dict fields), missing fields, unknown and
wire-only keywords, and several errors at once (their order is part of the contract). Values
with an address in their ``repr`` are compared with the address blanked.
"""

from __future__ import annotations

PREAMBLE = '''
import collections, collections.abc, datetime, decimal, enum, fractions, pathlib, types, uuid


class Opaque:
    def __repr__(self):
        return "Opaque()"


class Stand:
    """Like the evaluator's stand-in for an unknown value."""

    def __repr__(self):
        return "…"


class Floaty:
    def __float__(self):
        return 1.0

    def __repr__(self):
        return "Floaty()"


class Mapish(collections.abc.Mapping):
    def __getitem__(self, key):
        return {"a": "1"}[key]

    def __iter__(self):
        return iter(["a"])

    def __len__(self):
        return 1

    def __repr__(self):
        return "Mapish()"


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    ONE = 1


class Text(str, enum.Enum):
    A = "a"


class StrSub(str):
    pass


class IntSub(int):
    pass


REQ = {"agent": "simple_agent", "agent_config": "configs/a.yaml", "resources_server": "mcqa"}
'''

FIELDS = (
    "agent",
    "agent_config",
    "resources_server",
    "model_type",
    "bind_resources_server",
    "hydra_params",
    "env_vars",
    "num_repeats",
    "concurrency",
    "startup_timeout_s",
    "collection_timeout_s",
    "shutdown_grace_s",
    "reward_key",
)

VALUES: tuple[str, ...] = (
    # booleans and integers, bounds, the 62/63/64-bit edges
    "True", "False", "0", "1", "2", "-1", "3", "2**62 - 1", "2**62", "2**63 - 1", "2**63",
    "-(2**63)", "10**20", "10**400",
    # floats
    "1.0", "2.0", "-1.0", "0.5", "2.5", "0.0", "-0.0", "1e-300", "1e300", "9.2e18", "1e19",
    "float('inf')", "float('-inf')", "float('nan')",
    # strings: numeric, boolean words, odd spellings
    "'3'", "' 3 '", "'+3'", "'-3'", "'007'", "'3.0'", "'3.5'", "'.5'", "'1e3'", "'1_0'",
    "'0x10'", "'inf'", "'Infinity'", "'INF'", "'NaN'", "'-inf'", "''", "' '", "'abc'", "'e'",
    "'E'", "'yes'", "'no'", "'TRUE'", "'oFf'", "' true'", "'1'", "'0'", "'00'", "'on'", "'t'",
    "'f'", "'y'", "'n'", "'ÿes'", "'é'", "'\\u0663'", "'9' * 18", "'9' * 19", "'9' * 30",
    "'\\ud800'", "'x' * 200",
    # None and containers
    "None", "[]", "[1]", "['a', 'b']", "{}", "{'a': 1}", "{'a': '1'}", "()", "(1,)", "set()",
    "{1}", "frozenset()", "[('a', 1)]",
    # other types: decided (paths, plain objects) and left to pydantic
    "pathlib.Path('x')", "pathlib.PurePosixPath('x')", "Opaque()", "Stand()", "Floaty()",
    "Mapish()", "b'3'", "b'\\xff'", "bytearray(b'x')", "decimal.Decimal('1')",
    "decimal.Decimal('0')", "fractions.Fraction(1, 2)", "complex(1, 0)", "Color.RED",
    "Level.ONE", "Text.A", "StrSub('x')", "IntSub(3)", "datetime.date(2024, 1, 1)",
    "uuid.UUID(int=1)", "range(3)", "print", "object", "collections.ChainMap({'a': '1'})",
    "types.MappingProxyType({'a': '1'})", "collections.defaultdict(str, a='1')",
)  # fmt: skip

MAPPING_VALUES: tuple[str, ...] = (
    "{'a': 1, 'b': 'x'}", "{'a': '1', 'b': 'x'}", "{1: 'x'}", "{1: 2, 'a': 3, 'b': 'x'}",
    "{-5: 'x', 'a': None}", "{2.5: 'x'}", "{True: 'x'}", "{None: 'x'}", "{(1, 2): 'x'}",
    "{b'k': 'x'}", "{StrSub('k'): 'x'}", "{'a': None}", "{'a': True}", "{'a': 1.5}",
    "{'a': b'x'}", "{'a': bytearray(b'x')}", "{'a': pathlib.Path('p')}", "{'a': Opaque()}",
    "{'a': Stand()}", "{'a': Color.RED}", "{'a': Text.A}", "{'a': StrSub('x')}",
    "{'a': [1, 'x']}", "{'a': {'b': 'c'}}", "{'a': (1, 2.5, None, True)}",
    "{'a': [[1, [2, (3, {'x': 'y'})]]]}", "{'a': float('nan')}", "{'a': float('inf')}",
    "{'a': '\\ud800'}", "{'\\ud800': 'x'}", "{'a': 10**30}", "{'a': -(2**62)}",
    "{'a': {1: 'x'}}", "{'a': {1, 2}}", "{'a': decimal.Decimal('1.5')}",
    "{'a': datetime.date(2024, 1, 1)}", "{'é': 'ü', 'HF_HOME': '/models/hf'}",
    "{'a': '', 'b': ' '}", "{'a': 'x', 'b': 2, 'c': None, 'd': ['x']}",
)  # fmt: skip

SPECIAL: tuple[tuple[str, str], ...] = (
    ("empty", "{}"),
    ("only-agent", "{'agent': 'a'}"),
    ("no-agent", "{k: v for k, v in REQ.items() if k != 'agent'}"),
    ("no-agent-config", "{k: v for k, v in REQ.items() if k != 'agent_config'}"),
    ("no-resources-server", "{k: v for k, v in REQ.items() if k != 'resources_server'}"),
    ("required-none", "{'agent': None, 'agent_config': None, 'resources_server': None}"),
    ("typo", "{**REQ, 'num_repeat': 3}"),
    ("typo-far", "{**REQ, 'zzz_unrelated': 3}"),
    ("wire-kind", "{**REQ, 'kind': 'gym'}"),
    ("wire-environment", "{**REQ, 'environment': 'ws/env'}"),
    ("wire-agent-ref-name", "{**REQ, 'agent_ref_name': 'x'}"),
    ("wire-env-secrets", "{**REQ, 'env_secrets': {}}"),
    ("two-extras", "{**REQ, 'zz': 1, 'yy': 2}"),
    ("error-order", "{'zz': 1, 'num_repeats': 0, 'agent': 1}"),
    (
        "many-errors",
        "{'env_vars': {1: 2, 'A': 3}, 'agent': None, 'concurrency': 'x', 'hydra_params': [],"
        " 'extra': 1, 'startup_timeout_s': 0, 'bind_resources_server': 'maybe',"
        " 'collection_timeout_s': -1, 'reward_key': 5, 'shutdown_grace_s': None}",
    ),
    (
        "everything-set",
        "{**REQ, 'model_type': 'openai_model', 'bind_resources_server': 'no',"
        " 'hydra_params': {'t': 0.2, 'seeds': [1, 2], 'n': {'k': ('x', None)}},"
        " 'env_vars': {'HF_HOME': '/hf'}, 'num_repeats': '3', 'concurrency': 8.0,"
        " 'startup_timeout_s': 60, 'collection_timeout_s': '600', 'shutdown_grace_s': True,"
        " 'reward_key': 'score'}",
    ),
    ("defaults", "dict(REQ)"),
    ("order-reversed", "dict(reversed(list({**REQ, 'num_repeats': 2}.items())))"),
)


def cases() -> list[tuple[str, str]]:
    """``(case id, source of the mapping)``, ids unique."""
    out = [(case_id, source) for case_id, source in SPECIAL]
    for field in FIELDS:
        values = VALUES + (MAPPING_VALUES if field in {"hydra_params", "env_vars"} else ())
        for index, value in enumerate(values):
            out.append((f"{field}-{index}", f"{{**REQ, {field!r}: {value}}}"))
    return out
