"""The contract corpus: Gym runner constructions checked against the real SDK.

Each case is a self-contained Python snippet with the real SDK import lines. It builds
``cfg = GymRuntimeConfig(...)`` (or ``GymRuntimeConfig(**settings)`` /
``GymRuntimeConfig.model_validate({...})``) and then ``runner = GymAgentTaskRunner(config=cfg)``
on its last line. ``expect`` is the verdict reference §6 predicts; the oracle
(``sdk_oracle.py``, run with the SDK venv's Python 3.12) records what the SDK really does.

Verdicts: ``valid`` (``runner_to_target`` works; JSON recorded), ``invalid`` (ValidationError at
construction), ``unserializable`` (``runner_to_target`` raises), ``iterator`` (a one-shot iterator
in ``hydra_params``: no error, but ``[]`` is sent).

This module must stay importable on Python 3.11 and 3.12 with no third-party imports.
"""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    id: str
    source: str
    expect: str


GYM = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig\n"
)
REQ = 'agent="simple_agent", agent_config="c.yaml", resources_server="mcqa"'
RUNNER = "runner = GymAgentTaskRunner(config=cfg)\n"

#: Appended by the end-to-end test so that runner-content findings (ES107) apply: reference §8
#: reports them only for a runner that reaches a sync taskset-shaped submit.
SUBMIT_SUFFIX = (
    "from nemo_platform import NeMoPlatform\n"
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    'client = NeMoPlatform(base_url="http://localhost:8080", workspace="default")\n'
    'job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'
)


def _kw(id: str, expect: str, kwargs: str, pre: str = "", imports: str = "") -> Case:
    """``cfg = GymRuntimeConfig(<required>, <kwargs>)`` after optional imports and set-up lines."""
    args = f"{REQ}, {kwargs}" if kwargs else REQ
    src = f"{imports}{GYM}{pre}cfg = GymRuntimeConfig({args})\n{RUNNER}"
    return Case(id, src, expect)


def _hp(id: str, expect: str, value: str, pre: str = "", imports: str = "") -> Case:
    """One value under ``hydra_params["k"]``."""
    return _kw(id, expect, f'hydra_params={{"k": {value}}}', pre, imports)


def _raw(id: str, expect: str, src: str) -> Case:
    return Case(id, src, expect)


CASES: list[Case] = [
    # ---------------------------------------------------------------- valid: fields, coercions
    _kw("defaults", "valid", ""),
    _raw(
        "every-field-set",
        "valid",
        GYM + "cfg = GymRuntimeConfig(\n"
        '    agent="simple_agent",\n'
        '    agent_config="configs/simple_agent.yaml",\n'
        '    resources_server="mcqa",\n'
        '    model_type="openai_model",\n'
        "    bind_resources_server=False,\n"
        '    hydra_params={"model": {"temperature": 0.7, "max_tokens": 512}, "tags": ["a", "b"]},\n'
        '    env_vars={"HF_HOME": "/models/hf", "CUDA_VISIBLE_DEVICES": "0"},\n'
        "    num_repeats=3,\n"
        "    concurrency=16,\n"
        "    startup_timeout_s=600.0,\n"
        "    collection_timeout_s=3600.5,\n"
        "    shutdown_grace_s=10.0,\n"
        '    reward_key="score",\n'
        ")\n" + RUNNER,
    ),
    _kw("coerce-int-from-str", "valid", 'num_repeats="3", concurrency=" 8 "'),
    _kw("coerce-int-from-float-and-bool", "valid", "num_repeats=2.0, concurrency=True"),
    _kw("coerce-bool-from-str-no", "valid", 'bind_resources_server="no"'),
    _kw("coerce-bool-from-int", "valid", "bind_resources_server=0"),
    _kw("coerce-bool-from-str-yes", "valid", 'bind_resources_server="yes"'),
    _kw(
        "coerce-float-from-int",
        "valid",
        "startup_timeout_s=120, collection_timeout_s=600, shutdown_grace_s=5",
    ),
    _kw("coerce-float-from-str", "valid", 'startup_timeout_s="30", shutdown_grace_s="1e1"'),
    _kw("float-inf-timeout", "valid", 'startup_timeout_s=float("inf")'),
    _kw("collection-timeout-explicit-none", "valid", "collection_timeout_s=None"),
    _raw(
        "bytes-coerced-to-str",
        "valid",
        GYM + 'cfg = GymRuntimeConfig(agent=b"simple_agent", agent_config=b"c.yaml",\n'
        '    resources_server=bytearray(b"mcqa"), env_vars={"TOKEN_FILE": b"/run/t"})\n' + RUNNER,
    ),
    _kw(
        "str-enum-coerced",
        "valid",
        'model_type=Mode.OPENAI, env_vars={"MODE": Mode.CHAT}, hydra_params={"mode": Mode.CHAT}',
        pre='class Mode(str, enum.Enum):\n    OPENAI = "openai_model"\n    CHAT = "chat"\n',
        imports="import enum\n",
    ),
    _raw(
        "empty-agent-and-free-model-type",
        "valid",
        GYM + 'cfg = GymRuntimeConfig(agent="", agent_config="", resources_server="mcqa",'
        ' model_type="anything-goes")\n' + RUNNER,
    ),
    _kw(
        "str-subclass-fstring-unicode",
        "valid",
        'reward_key=Name("rwd"), hydra_params={"greeting": f"héllo {n}", "jp": "日本"}',
        pre="class Name(str):\n    pass\nn = 3\n",
    ),
    _hp("big-int", "valid", "2**80"),
    # ---------------------------------------------------------------- valid: hydra_params values
    _hp(
        "paths",
        "valid",
        '{"root": Path("/data/run"), "rel": Path("out") / "x.json", "posix": PosixPath("/p")}',
        imports="from pathlib import Path, PosixPath\n",
    ),
    _hp("sets", "valid", '{"one": {3}, "fs": frozenset(["x"]), "empty": set()}'),
    _hp(
        "tuples-namedtuple-deque",
        "valid",
        '{"t": (1, "a", None), "nt": Point(1, 2), "dq": collections.deque([1, 2]), "e": ()}',
        pre="Point = collections.namedtuple('Point', 'x y')\n",
        imports="import collections\n",
    ),
    _hp(
        "enums",
        "valid",
        '{"color": Color.RED, "level": Level.HIGH, "flag": Perm.R}',
        pre="class Color(enum.Enum):\n    RED = 'red'\n"
        "class Level(enum.IntEnum):\n    HIGH = 3\n"
        "class Perm(enum.IntFlag):\n    R = 4\n",
        imports="import enum\n",
    ),
    _hp(
        "datetimes",
        "valid",
        '{"at": datetime.datetime(2026, 1, 2, 3, 4, 5), "day": datetime.date(2026, 1, 2),'
        ' "t": datetime.time(12, 30), "dt": datetime.timedelta(minutes=1, seconds=30),'
        ' "utc": datetime.datetime(2026, 1, 2, tzinfo=datetime.timezone.utc)}',
        imports="import datetime\n",
    ),
    _hp(
        "decimal-uuid-fraction-complex",
        "valid",
        '{"d": Decimal("1.10"), "u": uuid.UUID("12345678-1234-5678-1234-567812345678"),'
        ' "f": Fraction(1, 3), "c": 1 + 2j}',
        imports="import uuid\nfrom decimal import Decimal\nfrom fractions import Fraction\n",
    ),
    _hp(
        "pattern-ipaddress",
        "valid",
        '{"re": re.compile("a+b"), "ip": ipaddress.ip_address("10.0.0.1"),'
        ' "net": ipaddress.ip_network("10.0.0.0/8")}',
        imports="import ipaddress\nimport re\n",
    ),
    _hp(
        "nested-non-str-keys",
        "valid",
        '{1: "one", True: "yes", None: "none", (1, 2): "pair", 1.5: "f", "s": {2: [3, {4: 5}]}}',
    ),
    _hp("nan-inf-values", "valid", '[float("nan"), float("inf"), -float("inf"), 0.1]'),
    _hp(
        "dataclass-instance",
        "valid",
        "Sampling(temperature=0.2, stop=['\\n'])",
        pre="@dataclasses.dataclass\nclass Sampling:\n    temperature: float\n    stop: list\n",
        imports="import dataclasses\n",
    ),
    _hp(
        "pydantic-model-instance",
        "valid",
        'Opts(top_p=0.9, extra={"a": (1, 2)})',
        pre="class Opts(pydantic.BaseModel):\n    top_p: float\n    extra: dict\n",
        imports="import pydantic\n",
    ),
    _hp(
        "mapping-subclasses",
        "valid",
        '{"od": collections.OrderedDict(b=1, a=2), "dd": collections.defaultdict(list, x=[1]),'
        ' "ctr": collections.Counter("aab")}',
        imports="import collections\n",
    ),
    _hp("utf8-bytes-values", "valid", '[b"caf\\xc3\\xa9", bytearray(b"ok")]'),
    _hp(
        "materialized-forms",
        "valid",
        '{"seeds": list(s * 7 for s in range(4)), "r": list(range(3)),'
        ' "z": dict(zip(["a", "b"], [1, 2])), "srt": sorted({3, 1, 2}),'
        ' "joined": ",".join(str(i) for i in [1, 2]), "p": str(Path("/x"))}',
        imports="from pathlib import Path\n",
    ),
    _hp("deeply-nested", "valid", '{"a": [{"b": ({"c": [1, [2, [3, {"d": None}]]]},)}]}'),
    _raw(
        "kwargs-settings-dict",
        "valid",
        GYM + "settings = {\n"
        '    "agent": "simple_agent",\n'
        '    "agent_config": "c.yaml",\n'
        '    "resources_server": "mcqa",\n'
        '    "num_repeats": "2",\n'
        '    "hydra_params": {"model": {"temperature": 0}},\n'
        "}\n"
        'settings["concurrency"] = 2\n'
        "cfg = GymRuntimeConfig(**settings)\n" + RUNNER,
    ),
    _raw(
        "model-validate-dict",
        "valid",
        GYM + "cfg = GymRuntimeConfig.model_validate({\n"
        '    "agent": "simple_agent", "agent_config": "c.yaml", "resources_server": "mcqa",\n'
        '    "startup_timeout_s": 60, "env_vars": {"A": "1"},\n'
        "})\n" + RUNNER,
    ),
    _raw(
        "beta-alias-and-submodules",
        "valid",
        "from nemo_platform.beta.evaluator.agent_eval.runtimes.gym.config import GymRuntimeConfig"
        " as Cfg\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym.runtime import GymAgentTaskRunner\n"
        f"cfg = Cfg({REQ}, num_repeats=2)\n" + RUNNER,
    ),
    _raw(
        "module-alias",
        "valid",
        "import nemo_evaluator_sdk.agent_eval.runtimes.gym as gym\n"
        f"cfg = gym.GymRuntimeConfig({REQ}, concurrency=1)\n"
        "runner = gym.GymAgentTaskRunner(config=cfg)\n",
    ),
    _raw(
        "runner-subclass",
        "valid",
        GYM + "class MyGym(GymAgentTaskRunner):\n    pass\n"
        f"cfg = GymRuntimeConfig({REQ})\n"
        "runner = MyGym(config=cfg)\n",
    ),
    # ---------------------------------------------------------------- invalid: constraints
    _kw("num-repeats-zero", "invalid", "num_repeats=0"),
    _kw("concurrency-negative", "invalid", "concurrency=-1"),
    _kw("startup-timeout-zero", "invalid", "startup_timeout_s=0"),
    _kw("startup-timeout-nan", "invalid", 'startup_timeout_s=float("nan")'),
    _kw("collection-timeout-zero", "invalid", "collection_timeout_s=0"),
    _kw("shutdown-grace-negative", "invalid", "shutdown_grace_s=-1.5"),
    _kw("num-repeats-fractional", "invalid", "num_repeats=2.5"),
    _kw("num-repeats-none", "invalid", "num_repeats=None"),
    _kw("concurrency-word", "invalid", 'concurrency="four"'),
    _kw("startup-timeout-word", "invalid", 'startup_timeout_s="soon"'),
    _kw("bind-maybe", "invalid", 'bind_resources_server="maybe"'),
    _kw("bind-two", "invalid", "bind_resources_server=2"),
    _kw("bind-none", "invalid", "bind_resources_server=None"),
    _raw(
        "agent-int",
        "invalid",
        GYM + 'cfg = GymRuntimeConfig(agent=5, agent_config="c.yaml",'
        ' resources_server="mcqa")\n' + RUNNER,
    ),
    _raw(
        "agent-config-none",
        "invalid",
        GYM + 'cfg = GymRuntimeConfig(agent="a",'
        ' agent_config=None, resources_server="mcqa")\n' + RUNNER,
    ),
    _raw(
        "agent-config-path",
        "invalid",
        "from pathlib import Path\n" + GYM + 'cfg = GymRuntimeConfig(agent="a",'
        ' agent_config=Path("configs/a.yaml"), resources_server="mcqa")\n' + RUNNER,
    ),
    _kw("hydra-params-list", "invalid", 'hydra_params=["++a=1"]'),
    _kw("hydra-params-str", "invalid", 'hydra_params="a=1"'),
    _kw("hydra-params-none", "invalid", "hydra_params=None"),
    _kw("hydra-params-int-key", "invalid", 'hydra_params={1: "x", "ok": 2}'),
    _kw("env-vars-int", "invalid", 'env_vars={"CUDA_VISIBLE_DEVICES": 0}'),
    _kw("env-vars-bool-none", "invalid", 'env_vars={"DEBUG": True, "UNSET": None}'),
    _kw(
        "env-vars-path",
        "invalid",
        'env_vars={"HF_HOME": Path("/models/hf")}',
        imports="from pathlib import Path\n",
    ),
    _kw("env-vars-lambda", "invalid", 'env_vars={"CB": lambda: "x"}'),
    _kw("env-vars-generator", "invalid", 'env_vars={"G": (c for c in "ab")}'),
    _kw("env-vars-non-utf8-bytes", "invalid", 'env_vars={"B": b"\\xff\\xfe"}'),
    _kw("env-vars-int-key", "invalid", 'env_vars={1: "x"}'),
    _kw("env-vars-list", "invalid", 'env_vars=["A=1"]'),
    _kw("extra-env-secrets", "invalid", 'env_secrets={"API_KEY": "qa/api-key"}'),
    _kw("extra-environment", "invalid", 'environment="qa/gym-env"'),
    _kw("extra-agent-ref-name-and-kind", "invalid", 'agent_ref_name="x", kind="gym"'),
    _kw("typo-num-repeat", "invalid", "num_repeat=3"),
    _raw(
        "missing-agent",
        "invalid",
        GYM + 'cfg = GymRuntimeConfig(agent_config="c.yaml", resources_server="mcqa")\n' + RUNNER,
    ),
    _raw("missing-all-required", "invalid", GYM + "cfg = GymRuntimeConfig()\n" + RUNNER),
    _raw(
        "kwargs-settings-invalid",
        "invalid",
        GYM + 'settings = {"agent": "a", "agent_config": "c.yaml", "resources_server": "m",'
        ' "num_repeats": 0, "env_vars": {"N": 1}}\n'
        "cfg = GymRuntimeConfig(**settings)\n" + RUNNER,
    ),
    _raw(
        "model-validate-missing-and-extra",
        "invalid",
        GYM + 'cfg = GymRuntimeConfig.model_validate({"agent": "a", "resources_server": "m",'
        ' "reward": "r"})\n' + RUNNER,
    ),
    _kw("several-errors-at-once", "invalid", 'num_repeats=0, concurrency="x", env_vars={"A": 1}'),
    # ---------------------------------------------------------------- unserializable
    _hp("lambda", "unserializable", "lambda r: print(r)"),
    _hp("def-function", "unserializable", "on_done", pre="def on_done(x):\n    return x\n"),
    _hp("builtin-print", "unserializable", "print"),
    _hp(
        "bound-method", "unserializable", "logging.getLogger('x').info", imports="import logging\n"
    ),
    _hp(
        "functools-partial",
        "unserializable",
        "functools.partial(max, 1)",
        imports="import functools\n",
    ),
    _hp("class-object", "unserializable", "float"),
    _hp(
        "enum-class",
        "unserializable",
        "Color",
        pre="class Color(enum.Enum):\n    RED = 1\n",
        imports="import enum\n",
    ),
    _hp("user-instance", "unserializable", "Tok()", pre="class Tok:\n    pass\n"),
    _hp("object-instance", "unserializable", "object()"),
    _hp(
        "simple-namespace", "unserializable", "types.SimpleNamespace(a=1)", imports="import types\n"
    ),
    _hp("logger", "unserializable", "logging.getLogger('x')", imports="import logging\n"),
    _hp("exception", "unserializable", "ValueError('x')"),
    _hp("module", "unserializable", "math", imports="import math\n"),
    _hp("lock", "unserializable", "threading.Lock()", imports="import threading\n"),
    _hp(
        "rlock-event",
        "unserializable",
        "[threading.RLock(), threading.Event()]",
        imports="import threading\n",
    ),
    _hp("range", "unserializable", "range(4)"),
    _hp("dict-keys-view", "unserializable", '{"a": 1}.keys()'),
    _hp("slice-ellipsis", "unserializable", "[slice(1, 2), ...]"),
    _hp("os-environ", "unserializable", "os.environ", imports="import os\n"),
    _hp(
        "userdict-mappingproxy",
        "unserializable",
        "[collections.UserDict(a=1), types.MappingProxyType({'a': 1})]",
        imports="import collections\nimport types\n",
    ),
    _hp(
        "pure-posix-path",
        "unserializable",
        'PurePosixPath("/x")',
        imports="from pathlib import PurePosixPath\n",
    ),
    _hp(
        "pure-windows-path",
        "unserializable",
        'PureWindowsPath("c:/x")',
        imports="from pathlib import PureWindowsPath\n",
    ),
    _hp("timezone", "unserializable", "datetime.timezone.utc", imports="import datetime\n"),
    _hp(
        "array-memoryview",
        "unserializable",
        "[array.array('i', [1]), memoryview(b'ab')]",
        imports="import array\n",
    ),
    _hp("non-utf8-bytes", "unserializable", 'b"\\xff\\xfe"'),
    _hp("nested-lambda", "unserializable", '{"hooks": [1, {"cb": lambda: 0}]}'),
    _hp(
        "dataclass-holding-lambda",
        "unserializable",
        "Hook(fn=lambda: 0)",
        pre="@dataclasses.dataclass\nclass Hook:\n    fn: object\n",
        imports="import dataclasses\n",
    ),
    _hp("frozenset-dict-key", "unserializable", '{frozenset([1]): "x"}'),
    _hp(
        "write-only-file",
        "unserializable",
        'open(os.path.join(tempfile.mkdtemp(), "out.txt"), "w")',
        imports="import os\nimport tempfile\n",
    ),
    # ---------------------------------------------------------------- iterators (sent as [])
    _hp("generator-expression", "iterator", "(s * 7 for s in range(4))"),
    _hp("generator-function", "iterator", "gen()", pre="def gen():\n    yield 1\n    yield 2\n"),
    _hp("map", "iterator", "map(str, [1, 2])"),
    _hp("zip", "iterator", 'zip("ab", [1, 2])'),
    _hp("filter-iter", "iterator", "[filter(None, [0, 1]), iter([1, 2])]"),
    _hp(
        "open-file-readable",
        "iterator",
        'open(os.path.join(tempfile.mkdtemp(), "seeds.txt"), "w+")',
        imports="import os\nimport tempfile\n",
    ),
    _hp("stringio", "iterator", 'io.StringIO("1\\n2\\n")', imports="import io\n"),
    _hp("nested-generator", "iterator", '{"a": [1, (c for c in "xy")]}'),
]


# ---------------------------------------------------------------------------------------------
# The wire target itself: ``GymRunnerTarget(...)`` built directly, for the fields a live config
# cannot express (``environment``, ``agent_ref_name``, ``env_secrets``) and the model validator.
# Each snippet binds ``target``; verdict ``valid`` (JSON recorded) or ``invalid``.

TARGET = "from nemo_evaluator.jobs.agent_spec import GymRunnerTarget\n"
TREQ = 'agent="simple_agent", resources_server="mcqa"'


def _t(id: str, expect: str, kwargs: str, imports: str = "") -> Case:
    args = f"{TREQ}, {kwargs}" if kwargs else TREQ
    return Case(id, f"{imports}{TARGET}target = GymRunnerTarget({args})\n", expect)


TARGET_CASES: list[Case] = [
    _t("target-agent-config", "valid", 'agent_config="c.yaml"'),
    _t("target-no-agent-config-no-environment", "invalid", ""),
    _t("target-environment-only", "valid", 'environment="qa/gym-env"'),
    _t("target-environment-bare-name", "valid", 'environment="gym-env"'),
    _t("target-environment-url", "valid", 'environment="fileset://qa/gym-env"'),
    _t("target-environment-leading-slash", "valid", 'environment="/qa/gym-env"'),
    _t("target-environment-empty-fragment", "valid", 'environment="qa/gym-env#"'),
    _t("target-environment-fragment", "invalid", 'environment="qa/gym-env#pkg/env.yaml"'),
    _t("target-environment-legacy-path", "invalid", 'environment="qa/gym-env/sub/file"'),
    _t("target-environment-empty", "invalid", 'environment=""'),
    _t("target-environment-no-name", "invalid", 'environment="qa/"'),
    _t("target-environment-only-fragment", "invalid", 'environment="#x"'),
    _t(
        "target-environment-filesetref",
        "valid",
        'environment=FilesetRef("qa/gym-env"), agent_config="c.yaml"',
        imports="from nemo_evaluator.filesets import FilesetRef\n",
    ),
    _t("target-environment-int", "invalid", "environment=5"),
    _t(
        "target-wire-only-fields",
        "valid",
        'agent_config="c.yaml", agent_ref_name="mcqa_simple_agent",'
        ' env_secrets={"API_KEY": "qa/api-key", "OTHER": "NVIDIA_API_KEY"}',
    ),
    _t("target-env-secret-three-parts", "invalid", 'agent_config="c", env_secrets={"K": "a/b/c"}'),
    _t("target-env-secret-space", "invalid", 'agent_config="c", env_secrets={"K": "my secret"}'),
    _t("target-env-secret-non-str", "invalid", 'agent_config="c", env_secrets={"K": 1}'),
    _t("target-kind-harbor", "invalid", 'agent_config="c", kind="harbor"'),
    _t("target-kind-gym-explicit", "valid", 'agent_config="c", kind="gym"'),
    _t("target-extra-field", "invalid", 'agent_config="c", jobs_dir="runs"'),
    _t("target-agent-config-none-with-env", "valid", 'agent_config=None, environment="qa/e"'),
]
