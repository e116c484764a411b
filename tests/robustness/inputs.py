"""Inputs for fuzzing the analysis core, shared by the short test and the long run.

Every strategy yields ``Case(kind, text, path)``; ``analyse`` runs the engine on one case,
times it and checks the report's invariants. Kinds:

* ``python``: generated Python, from hypothesmith's grammar (prefixed with the SDK imports so
  the engine does not skip it as irrelevant);
* ``sdk``: our own SDK-shaped grammar (runners, configs, ``submit()`` calls with random
  arguments inside random control flow);
* ``mutation``: an example with characters and lines deleted, duplicated, swapped or inserted;
* ``bytes``: random bytes decoded with replacement (half of them after the SDK imports);
* ``encoding``: an example with a BOM, CRLF or CR line ends, lone surrogates, NUL bytes, tabs,
  form feeds, line separators, mojibake or a coding cookie;
* ``decoded``: an example as bytes (a BOM, a PEP 263 cookie in its codec, a wrong, unknown or
  late cookie, UTF-16, stray bytes), decoded the way the CLI and the server read files.
"""

from __future__ import annotations

import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from evalsubmit.analysis import Finding, ModuleReport, Project, analyze_source
from evalsubmit.core.sourcefile import UnreadableSource, decode_source

# hypothesis cannot see that the extend functions below use their argument (inside closures).
warnings.filterwarnings("ignore", message=".*can't actually recurse")

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

TARGET_S = 1.0
"""The issue's bound on the time of one input."""

SDK_HEADER = """\
import dataclasses
import functools
import os
import unittest

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import AsyncNeMoPlatform, NeMoPlatform

client = NeMoPlatform(workspace="qa")
"""


@dataclass(frozen=True, slots=True)
class Case:
    kind: str
    text: str
    path: Path | None = None

    def describe(self, limit: int = 160) -> str:
        shown = self.text if len(self.text) <= limit else self.text[:limit] + "…"
        where = f" (from {self.path.relative_to(REPO)})" if self.path else ""
        return f"{self.kind}{where}, {len(self.text)} chars: {shown!r}"


@dataclass
class Stats:
    """Counts and the slowest input of a fuzz run."""

    count: int = 0
    total_s: float = 0.0
    max_s: float = 0.0
    slowest: Case | None = None
    kinds: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    findings: int = 0
    over_target: int = 0
    """Inputs slower than ``TARGET_S``."""

    def add(self, case: Case, seconds: float, report: ModuleReport) -> None:
        self.count += 1
        self.total_s += seconds
        self.kinds[case.kind] += 1
        self.findings += len(report.findings)
        if seconds > TARGET_S:
            self.over_target += 1
        if report.skipped:
            self.skipped[report.skipped] += 1
        if seconds > self.max_s:
            self.max_s, self.slowest = seconds, case

    def merge(self, other: Stats) -> None:
        self.count += other.count
        self.total_s += other.total_s
        self.kinds.update(other.kinds)
        self.skipped.update(other.skipped)
        self.findings += other.findings
        self.over_target += other.over_target
        if other.max_s > self.max_s:
            self.max_s, self.slowest = other.max_s, other.slowest

    def summary(self) -> str:
        mean_ms = 1000 * self.total_s / self.count if self.count else 0.0
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
        lines = [
            f"inputs analysed: {self.count} ({kinds})",
            f"findings reported: {self.findings}; skipped: {dict(self.skipped)}",
            f"mean per input: {mean_ms:.1f} ms; slowest: {1000 * self.max_s:.1f} ms; "
            f"over {TARGET_S:g} s: {self.over_target}",
        ]
        if self.slowest is not None:
            lines.append(f"slowest input: {self.slowest.describe()}")
        return "\n".join(lines)


@cache
def example_files() -> tuple[Path, ...]:
    return tuple(sorted(p for p in EXAMPLES.rglob("*.py") if "__pycache__" not in p.parts))


@cache
def example_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@cache
def project_for(path: Path | None) -> Project:
    if path is None:
        return Project(None)
    rel = path.relative_to(EXAMPLES)
    return Project(EXAMPLES if len(rel.parts) == 1 else EXAMPLES / rel.parts[0])


def analyse(case: Case, stats: Stats | None = None) -> ModuleReport:
    """Run the engine on one input; fails (AssertionError) if the report is malformed.

    Exceptions of the engine propagate: the caller's test fails on them.
    """
    start = time.perf_counter()
    report = analyze_source(case.text, path=case.path, project=project_for(case.path))
    seconds = time.perf_counter() - start
    check_report(report)
    if stats is not None:
        stats.add(case, seconds, report)
    return report


def check_report(report: ModuleReport) -> None:
    assert isinstance(report, ModuleReport), type(report)
    assert report.skipped is None or isinstance(report.skipped, str)
    for finding in report.findings:
        assert isinstance(finding, Finding)
        assert finding.code.startswith("ES"), finding
        assert finding.message, finding
        span = finding.span
        assert 1 <= span.line <= span.end_line, finding


# -- mutations of the examples ----------------------------------------------------------------

INSERTABLE = "()[]{}:,.'\"\\#=*@\n\t \r\x00\ufeff\xe9\U0001d518"
CHAR_OPS = ("delete", "duplicate", "swap", "insert")
LINE_OPS = ("delete_line", "duplicate_line", "swap_lines")


def mutate_chars(text: str, op: str, at: int, length: int, insert: str) -> str:
    if not text:
        return insert
    at %= len(text)
    end = min(len(text), at + length)
    if op == "delete":
        return text[:at] + text[end:]
    if op == "duplicate":
        return text[:end] + text[at:end] + text[end:]
    if op == "swap":
        other = (at + length) % len(text)
        chars = list(text)
        chars[at], chars[other] = chars[other], chars[at]
        return "".join(chars)
    return text[:at] + insert + text[at:]


def mutate_lines(text: str, op: str, at: int, other: int) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    at %= len(lines)
    other %= len(lines)
    if op == "delete_line":
        del lines[at]
    elif op == "duplicate_line":
        lines.insert(at, lines[at])
    else:
        lines[at], lines[other] = lines[other], lines[at]
    return "".join(lines)


@st.composite
def mutated_examples(draw: st.DrawFn) -> Case:
    path = draw(st.sampled_from(example_files()))
    text = example_text(path)
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            text = mutate_chars(
                text,
                draw(st.sampled_from(CHAR_OPS)),
                draw(st.integers(0, 10**6)),
                draw(st.integers(1, 40)),
                draw(st.text(st.sampled_from(INSERTABLE), min_size=1, max_size=4)),
            )
        else:
            text = mutate_lines(
                text,
                draw(st.sampled_from(LINE_OPS)),
                draw(st.integers(0, 10**6)),
                draw(st.integers(0, 10**6)),
            )
    if draw(st.integers(0, 9)) == 0:  # sometimes also truncated
        text = text[: draw(st.integers(0, len(text)))]
    return Case("mutation", text, path)


def truncations(path: Path) -> list[Case]:
    """The example cut at every offset (0 .. len), as one case each."""
    text = example_text(path)
    return [Case("truncation", text[:cut], path) for cut in range(len(text) + 1)]


# -- random bytes -----------------------------------------------------------------------------


@st.composite
def random_bytes(draw: st.DrawFn) -> Case:
    raw = draw(st.binary(max_size=3000))
    codec = draw(st.sampled_from(("utf-8", "utf-8", "latin-1", "utf-16")))
    text = raw.decode(codec, errors="replace")
    if draw(st.booleans()):
        text = SDK_HEADER + text
    return Case("bytes", text)


# -- odd encodings ----------------------------------------------------------------------------


def _bom(text: str, at: int) -> str:
    return "\ufeff" + text


def _crlf(text: str, at: int) -> str:
    return text.replace("\n", "\r\n")


def _cr(text: str, at: int) -> str:
    return text.replace("\n", "\r")


def _mixed_line_ends(text: str, at: int) -> str:
    lines = text.split("\n")
    ends = ("\n", "\r\n", "\r", "\u2028", "\x0c\n", "\x1a\n")
    return "".join(line + ends[(i + at) % len(ends)] for i, line in enumerate(lines))


def _surrogates(text: str, at: int) -> str:
    """Invalid UTF-8 bytes decoded with surrogateescape: lone surrogates in the text."""
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for k in range(1 + at % 5):
        data[(at * (k + 7)) % len(data)] = 0x80 + (at + k) % 0x40
    return bytes(data).decode("utf-8", errors="surrogateescape")


def _lone_surrogate_literal(text: str, at: int) -> str:
    cut = at % len(text)
    return text[:cut] + "\ud800" + text[cut:]


def _nul(text: str, at: int) -> str:
    cut = at % len(text)
    return text[:cut] + "\x00" + text[cut:] + "\x00"


def _tabs(text: str, at: int) -> str:
    out = []
    for i, line in enumerate(text.splitlines(keepends=True)):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        # all tabs, or tabs on some lines only (inconsistent: a TabError for Python)
        use_tabs = at % 2 == 0 or i % 3 == 0
        lead = "\t" * (indent // 4) + " " * (indent % 4) if use_tabs else " " * indent
        out.append(lead + stripped)
    return "".join(out)


def _mojibake(text: str, at: int) -> str:
    return text.encode("utf-8", "surrogatepass").decode("latin-1")


def _cookie(text: str, at: int) -> str:
    cookies = (
        "# -*- coding: latin-1 -*-\n",
        "# coding: utf-16\n",
        "# vim: set fileencoding=bogus :\n",
    )
    return cookies[at % len(cookies)] + text


def _wide(text: str, at: int) -> str:
    return text.replace('"', '"\U0001d518\U0001f600\xe9\u200b', 1 + at % 7)


def _form_feed(text: str, at: int) -> str:
    return text.replace("\n    ", "\n\x0c    ", 1 + at % 5)


ENCODING_OPS = {
    f.__name__.lstrip("_"): f
    for f in (
        _bom,
        _crlf,
        _cr,
        _mixed_line_ends,
        _surrogates,
        _lone_surrogate_literal,
        _nul,
        _tabs,
        _mojibake,
        _cookie,
        _wide,
        _form_feed,
    )
}


@st.composite
def odd_encodings(draw: st.DrawFn) -> Case:
    path = draw(st.sampled_from(example_files()))
    text = example_text(path)
    names = draw(st.lists(st.sampled_from(sorted(ENCODING_OPS)), min_size=1, max_size=3))
    for name in names:
        text = ENCODING_OPS[name](text, draw(st.integers(0, 10**6)))
    return Case("encoding", text, path)


# -- files as bytes, decoded like Python ---------------------------------------------------------

_ENCODED: dict[str, tuple[bytes, str]] = {
    # form -> (prefix, codec of the body)
    "utf-8": (b"", "utf-8"),
    "bom": (b"\xef\xbb\xbf", "utf-8"),
    "bom + cookie": (b"\xef\xbb\xbf# -*- coding: utf-8 -*-\n", "utf-8"),
    "bom + latin-1 cookie": (b"\xef\xbb\xbf# coding: latin-1\n", "utf-8"),  # Python refuses
    "latin-1 cookie": (b"# -*- coding: latin-1 -*-\n", "latin-1"),
    "cp1252 after a shebang": (b"#!/usr/bin/env python\n# vim: fileencoding=cp1252\n", "cp1252"),
    "late cookie": (b"\n\n# coding: latin-1\n", "latin-1"),  # line 3: not a cookie
    "wrong cookie": (b"# coding: ascii\n", "utf-8"),
    "unknown cookie": (b"# coding: klingon\n", "utf-8"),
    "utf-16 cookie": (b"# coding: utf-16\n", "utf-8"),
    "utf-16 with its BOM": (b"", "utf-16"),
}


@st.composite
def decoded_files(draw: st.DrawFn) -> Case:
    path = draw(st.sampled_from(example_files()))
    form = draw(st.sampled_from(sorted(_ENCODED)))
    prefix, codec = _ENCODED[form]
    text = example_text(path).replace('"', '"café ', draw(st.integers(0, 3)))
    data = bytearray(prefix + text.encode(codec, errors="replace"))
    for _ in range(draw(st.integers(0, 3))):  # stray bytes anywhere
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0x80, 0xFF))
    try:
        decoded, _ = decode_source(path, bytes(data))
    except UnreadableSource:
        decoded = ""  # refused with a reason, as Python refuses it: nothing to analyse
    return Case("decoded", decoded, path)


# -- generated Python -------------------------------------------------------------------------


def hypothesmith_available() -> bool:
    try:
        import hypothesmith  # noqa: F401
    except ImportError:
        return False
    return True


def generated_python() -> st.SearchStrategy[Case]:
    """hypothesmith's grammar-based programs when it is installed, else our SDK grammar."""
    if not hypothesmith_available():
        return sdk_programs()
    import hypothesmith

    return hypothesmith.from_grammar(auto_target=False).map(
        lambda code: Case("python", SDK_HEADER + code)
    )


# -- our own SDK-shaped grammar ---------------------------------------------------------------

NAMES = ("cfg", "runner", "client", "metric", "tasks", "x", "NIGHTLY", "os.environ", "self")
CONFIG_KEYS = (
    "agent",
    "agent_config",
    "resources_server",
    "concurrency",
    "startup_timeout_s",
    "env_vars",
    "hydra_params",
    "env_secrets",
    "num_repeats",
    "model_type",
    "environment",
    "reward_key",
    "bogus",
)
SUBMIT_KEYS = (
    "tasks",
    "target",
    "metric",
    "dataset",
    "config",
    "prompt_template",
    "field_mapping",
    "name",
)
CALLABLES = (
    "GymRuntimeConfig",
    "GymAgentTaskRunner",
    "TasksetRef",
    "RunConfig",
    "ExactMatchMetric",
    "NeMoPlatform",
    "dict",
    "str",
    "os.environ.get",
    "os.getenv",
    "Path",
    "f",
)

_literals = st.one_of(
    st.integers(-(2**70), 2**70).map(repr),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(("float('nan')", "float('inf')", "None", "True", "False", "...", "b'x'")),
    st.text(max_size=30).map(repr),
    st.sampled_from(('"qa/smoke"', '"qa/mcqa#v3"', '"bad ref!"', '"sk-ABCDEF0123456789abcd"')),
)
_names = st.sampled_from(NAMES)


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    keyword = st.sampled_from(CONFIG_KEYS + SUBMIT_KEYS)
    kwargs = st.lists(st.tuples(keyword, inner), max_size=4).map(
        lambda pairs: ", ".join(f"{k}={v}" for k, v in pairs)
    )
    return st.one_of(
        st.tuples(st.sampled_from(CALLABLES), st.lists(inner, max_size=2), kwargs).map(
            lambda t: f"{t[0]}({', '.join([*t[1], t[2]] if t[2] else t[1])})"
        ),
        st.lists(inner, max_size=4).map(lambda xs: f"[{', '.join(xs)}]"),
        st.lists(inner, max_size=3).map(lambda xs: f"({', '.join(xs)},)"),
        st.lists(st.tuples(inner, inner), max_size=3).map(
            lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"
        ),
        st.tuples(inner, st.sampled_from("+-*/%|&"), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, st.sampled_from(("config", "agent", "model_copy", "evaluator", "x"))).map(
            lambda t: f"{t[0]}.{t[1]}"
        ),
        inner.map(lambda v: f'f"{{{v}}}-x"'),
        inner.map(lambda v: f"[s for s in range(3) if {v}]"),
        inner.map(lambda v: f"(lambda: {v})()"),
        inner.map(lambda v: f"{{**{v}}}"),
        inner.map(lambda v: f"(*{v},)"),
        inner.map(lambda v: f"(y := {v})"),
        inner.map(lambda v: f"await {v}"),
    )


expressions: st.SearchStrategy[str] = st.recursive(
    st.one_of(_literals, _names), _extend, max_leaves=8
)


def _submit(args: list[tuple[str, str]], star: bool, is_async: bool) -> str:
    parts = [f"{k}={v}" for k, v in args] + (["**extra"] if star else [])
    call = f"client.evaluator.submit({', '.join(parts)})"
    return f"await {call}" if is_async else call


_submit_calls = st.builds(
    _submit,
    st.lists(st.tuples(st.sampled_from(SUBMIT_KEYS), expressions), max_size=5),
    st.booleans(),
    st.booleans(),
)


def _splat_submit(args: list[tuple[str, str]], how: int) -> str:
    """submit() with its keywords passed indirectly (issue 11's idioms, issue 15's crash)."""
    pairs = ", ".join(f"{k!r}: {v}" for k, v in args)
    keywords = ", ".join(f"{k}={v}" for k, v in args)
    forms = (
        f"client.evaluator.submit(**{{{pairs}}})",
        f"client.evaluator.submit(**dict({keywords}))",
        f"functools.partial(client.evaluator.submit, {keywords})()",
        f"send = client.evaluator.submit\nsend({keywords})",
        f"kw = {{}}\nkw[{args[0][0]!r}] = {args[0][1]}\nclient.evaluator.submit(**kw, **extra)"
        if args
        else "client.evaluator.submit(**kw)",
    )
    return forms[how % len(forms)]


_indirect_submits = st.builds(
    _splat_submit,
    st.lists(st.tuples(st.sampled_from(SUBMIT_KEYS), expressions), max_size=4),
    st.integers(0, 4),
)

_simple_statements = st.one_of(
    _indirect_submits,
    st.tuples(st.sampled_from(("cfg", "runner", "x", "tasks", "metric", "extra")), expressions).map(
        lambda t: f"{t[0]} = {t[1]}"
    ),
    _submit_calls,
    _submit_calls.map(lambda s: f"{s}  # evalsubmit: ignore[ES102]"),
    expressions,
    st.sampled_from(
        (
            "import nemo_platform as np",
            "from runners import *",
            "from .runners import SMOKE_RUNNER",
            "from nemo_evaluator_sdk.agent_eval.runtimes import gym",
            "del cfg",
            "global runner",
            "runner.config.agent = 'x'",
            "cfg.env_vars['A'] = os.environ['A']",
            "x += 1",
            "return runner",
            "yield cfg",
            "raise SystemExit",
            "pass",
            "break",
            "hp = {}\nhp['a'] = hp",
            "items = []\nitems.append(items)\nitems.append(runner)",
            "self.client = NeMoPlatform(workspace='qa')",
            "self.runner = runner",
            "self.client.evaluator.submit(tasks=tasks, target=self.runner)",
            "x = runner or {}",
        )
    ),
)


def _block(header: str, body: list[str], indent: str) -> str:
    inner = "".join(indent + "    " + line + "\n" for stmt in body for line in stmt.splitlines())
    return f"{header}\n{inner or indent + '    pass'}"


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    headers = st.one_of(
        expressions.map(lambda e: f"if {e}:"),
        expressions.map(lambda e: f"for item in {e}:"),
        expressions.map(lambda e: f"while {e}:"),
        expressions.map(lambda e: f"with {e} as ctx:"),
        st.sampled_from(
            (
                "def make(cfg=None, *args, **kwargs):",
                "async def main():",
                "class Job:",
                "try:",
                "else:",
                "except Exception as exc:",
                "match x:",
                "case {'a': 1}:",
                "class TestJob(unittest.TestCase):",
                "def setUp(self):",
                "def setup_method(self):",
                "@pytest.fixture\ndef runner():",
                "@pytest.mark.parametrize('runner', [runner, cfg, None])\ndef test_submit(runner):",
                "@dataclasses.dataclass\nclass Holder:",
                "for name, value in {'a': runner, 'b': cfg}.items():",
                "for item in [runner, cfg, {'k': lambda: 1}]:",
            )
        ),
    )
    return st.builds(
        lambda h, b: _block(h, b, ""), headers, st.lists(inner, min_size=1, max_size=4)
    )


statements: st.SearchStrategy[str] = st.recursive(_simple_statements, _compound, max_leaves=8)


@st.composite
def sdk_programs(draw: st.DrawFn) -> Case:
    body = draw(st.lists(statements, min_size=1, max_size=12))
    text = SDK_HEADER + "\n".join(body) + "\n"
    if draw(st.integers(0, 3)) == 0:  # a BOM, form feeds, other line ends, surrogates, ...
        name = draw(st.sampled_from(sorted(ENCODING_OPS)))
        text = ENCODING_OPS[name](text, draw(st.integers(0, 10**6)))
    return Case("sdk", text)


def all_cases() -> st.SearchStrategy[Case]:
    return st.one_of(
        generated_python(),
        sdk_programs(),
        mutated_examples(),
        random_bytes(),
        odd_encodings(),
        decoded_files(),
    )
