"""What a standard-library name is (a class, a function) is read from the standard library's
files, never from what the checking process has loaded (issue 25): the CLI, the server and the
library agree, and the answer is the one the running module would give."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from evalsubmit.analysis.models.stdlib_kinds import stdlib_kind

MODULES = (
    "json",
    "string",
    "datetime",
    "copy",
    "uuid",
    "os",
    "os.path",
    "math",
    "re",
    "collections",
    "functools",
    "itertools",
    "threading",
    "pathlib",
    "typing",
    "enum",
    "dataclasses",
    "decimal",
    "fractions",
    "io",
    "asyncio",
    "types",
    "random",
    "time",
    "shutil",
    "subprocess",
    "logging",
    "argparse",
    "textwrap",
    "hashlib",
    "base64",
    "csv",
    "tempfile",
    "glob",
    "fnmatch",
    "operator",
    "statistics",
    "heapq",
    "bisect",
    "contextlib",
    "abc",
    "numbers",
    "urllib.parse",
    "pickle",
    "struct",
    "zlib",
    "gzip",
    "secrets",
    "platform",
    "traceback",
    "warnings",
    "weakref",
    "queue",
    "calendar",
    "pprint",
    "ast",
    "tomllib",
    "configparser",
    "ipaddress",
    "html",
    "concurrent.futures",
)


def _runtime_kind(module: str, name: str) -> str | None:
    found = inspect.getattr_static(importlib.import_module(module), name)
    if isinstance(found, type):
        return "class"
    return "function" if callable(found) else None


def test_every_answer_is_what_the_imported_module_says() -> None:
    """Over every public name of 60 modules: never the wrong kind, and most classes and
    functions known (the rest, unknown, are never refused)."""
    known = callables = 0
    for module in MODULES:
        for name in dir(importlib.import_module(module)):
            if name.startswith("__"):
                continue
            try:
                truth = _runtime_kind(module, name)
            except AttributeError:
                continue
            said = stdlib_kind(f"{module}.{name}")
            if said is not None:
                assert said == truth, (module, name)
            if truth is not None:
                callables += 1
                known += said is not None
    assert callables > 1800
    assert known / callables > 0.9, (known, callables)


@pytest.mark.parametrize(
    ("qualname", "kind"),
    [
        ("uuid.uuid4", "function"),  # a module no check loads: known all the same
        ("string.capwords", "function"),
        ("string.Template", "class"),
        ("datetime.timedelta", "class"),
        ("threading.Lock", "function"),  # `Lock = _allocate_lock`, a C function
        ("os.getcwd", "function"),  # `from posix import *`
        ("uuid.bytes_", "class"),  # `bytes_ = bytes`
        ("collections.OrderedDict", "class"),
        ("enum.Enum", "class"),  # `Enum = None` first, then the class
        ("datetime.datetime.now", None),  # a classmethod
        ("math.pi", None),
        ("os.sep", None),
        ("antigravity.geohash", None),  # never imported: its import opens a browser
        ("requests.get", None),  # not the standard library
    ],
)
def test_known_names(qualname: str, kind: str | None) -> None:
    assert stdlib_kind(qualname) == kind


JOB = textwrap.dedent("""\
    import uuid
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    client = NeMoPlatform(workspace="qa")
    config = GymRuntimeConfig(
        agent="a", agent_config="c.yaml", resources_server="m",
        hydra_params={"make_id": uuid.uuid4},
    )
    client.evaluator.submit(tasks="qa/math", target=GymAgentTaskRunner(config=config))
    """)


@pytest.mark.parametrize("preload", ["", "import uuid"])
def test_the_answer_does_not_depend_on_what_the_process_loaded(
    tmp_path: Path, preload: str
) -> None:
    """``uuid.uuid4`` in ``hydra_params`` (the SDK refuses a function) is found whether or not
    the checking process had ``uuid`` loaded: before, the CLI missed it and a server that had
    loaded ``uuid`` found it."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "job.py").write_text(JOB)
    code = (
        f"{preload}\nimport sys\nfrom evalsubmit.cli import main\n"
        "sys.exit(main(['check', '--no-cache', '--output-format', 'json', 'job.py']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    findings = json.loads(done.stdout)["findings"]
    assert [(f["code"], f["line"]) for f in findings] == [("ES107", 8)], done.stderr
    assert "the function uuid4" in findings[0]["message"]
