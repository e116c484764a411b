"""What the CLI loads before it needs it: which modules are imported, never how long it took
(timings are the benchmark's job, ``benchmarks/run.py``, measured against a baseline in the same
run). Each case runs in a fresh interpreter, so nothing imported by the test session counts."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from evalsubmit.workspace.config import CONFIG_NAMES

HEAVY = ("pydantic", "pydantic_core", "httpx", "pygls", "lsprotocol", "yaml")
"""Never imported by ``import evalsubmit.cli``, ``--version`` or a check that needs none."""

RUNNER = textwrap.dedent("""\
    import sys
    from evalsubmit.cli import main
    code = main(sys.argv[1:])
    modules = sorted(sys.modules)  # before json, imported to report them
    import json
    print(json.dumps({"code": code, "modules": modules}), file=sys.stderr)
    """)

ROW_ONLY = textwrap.dedent("""\
    from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
    from nemo_platform import NeMoPlatform

    client = NeMoPlatform(workspace="qa")
    em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{item.prediction}}")
    client.evaluator.submit(metric=em, dataset="qa/data", config=RunConfig(parallelism=2))
    client.evaluator.submit(tasks="qa/x", metric=em, dataset="qa/data")
    """)


def run_fresh(runner: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``runner`` (a script driving ``evalsubmit ARGV``) in a fresh interpreter in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-c", runner, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def modules_after(*argv: str, cwd: Path) -> tuple[int, set[str]]:
    """Run ``evalsubmit ARGV`` in a fresh interpreter; its exit code and ``sys.modules``."""
    proc = run_fresh(RUNNER, *argv, cwd=cwd)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    return report["code"], set(report["modules"])


def checked_json(folder: Path) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    """``evalsubmit check --output-format json job.py`` in ``folder``: the run, its findings."""
    proc = subprocess.run(
        [sys.executable, "-m", "evalsubmit.cli", "check", "--output-format", "json", "job.py"],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=120,
        check=False,
    )
    return proc, json.loads(proc.stdout)["findings"]


def heads(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def imported_by(code: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """What a fresh interpreter running ``code`` imports (``-X importtime``), and its run."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return proc, imported


def test_importing_the_cli_loads_nothing_heavy() -> None:
    _, imported = imported_by("import evalsubmit.cli")
    assert "evalsubmit.cli" in imported
    assert not heads(imported) & set(HEAVY), sorted(heads(imported) & set(HEAVY))
    assert not {m for m in imported if m.startswith("evalsubmit.analysis")}


def test_version_loads_no_analysis(tmp_path: Path) -> None:
    code, modules = modules_after("--version", cwd=tmp_path)
    assert code == 0
    assert not {m for m in modules if m.startswith(("evalsubmit.analysis", "evalsubmit.sdk"))}
    assert not heads(modules) & set(HEAVY)


def test_version_imports_only_the_package() -> None:
    """``evalsubmit --version`` (what pre-commit and editors probe) imports neither typing nor
    re: they were a third of its time."""
    proc, imported = imported_by("from evalsubmit.cli import main; main(['--version'])")
    assert proc.stdout.startswith("evalsubmit ")
    assert {"evalsubmit.cli.main"} <= imported
    assert not {"typing", "re", "enum", "contextlib", "argparse", "pathlib"} & imported


def test_a_file_that_cannot_reach_the_sdk_loads_no_analysis(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "tool.py").write_text("import os\n\nprint(os.getcwd())\n")
    code, modules = modules_after("check", str(tmp_path / "tool.py"), cwd=tmp_path)
    assert code == 0
    assert "evalsubmit.analysis.engine.analyze" not in modules
    assert "evalsubmit.analysis.rules" not in modules  # the registry loads every rule
    assert not {"pathspec", "asyncio"} & heads(modules)
    assert not heads(modules) & set(HEAVY)


def test_a_check_without_the_sdk_loads_no_dataclasses(tmp_path: Path) -> None:
    """Every class a check loads outside the analysis's values is a ``core.records.Record``
    written out: ``dataclasses`` (and the ``inspect`` it imports) stay unloaded."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "tool.py").write_text("import os\n\nprint(os.getcwd())\n")
    code, modules = modules_after("check", "--no-cache", str(tmp_path / "tool.py"), cwd=tmp_path)
    assert code == 0
    assert "evalsubmit.workspace.config_values" in modules  # a configuration was looked for
    assert not {"dataclasses", "inspect"} & modules, sorted({"dataclasses", "inspect"} & modules)


def test_a_valid_configuration_table_loads_no_pydantic_nor_the_rules(tmp_path: Path) -> None:
    """A valid table is read by ``workspace.config_plain`` against ``analysis.rule_codes``:
    pydantic (the model) and the rule registry (every rule, the interpreter) stay unloaded."""
    (tmp_path / "pyproject.toml").write_text(
        "[tool.evalsubmit]\nignore = ['ES101']\nexclude = ['build/']\nsdk-version = '0.6.0'\n"
        "per-file-ignores = {'tests/**' = ['ES110']}\n"
    )
    (tmp_path / "tool.py").write_text("import os\n\nprint(os.getcwd())\n")
    code, modules = modules_after("check", "--no-cache", str(tmp_path / "tool.py"), cwd=tmp_path)
    assert code == 0
    assert "evalsubmit.workspace.config_plain" in modules  # the table was read
    assert not heads(modules) & set(HEAVY), sorted(heads(modules) & set(HEAVY))
    assert "evalsubmit.workspace.config_model" not in modules
    assert not {m for m in modules if m.startswith("evalsubmit.analysis.rules")}
    assert not {"dataclasses", "inspect"} & modules, sorted({"dataclasses", "inspect"} & modules)


def test_an_invalid_configuration_table_is_judged_by_the_model(tmp_path: Path) -> None:
    """The other side: a table in error is validated by the pydantic model, which says why."""
    (tmp_path / "pyproject.toml").write_text("[tool.evalsubmit]\nignore = ['ES999']\n")
    (tmp_path / "tool.py").write_text("import os\n")
    code, modules = modules_after("check", "--no-cache", str(tmp_path / "tool.py"), cwd=tmp_path)
    assert code == 2
    assert {"evalsubmit.workspace.config_model", "pydantic"} <= modules


DATACLASSES_RUNNER = textwrap.dedent("""\
    import dataclasses, json, sys
    process = dataclasses._process_class
    built = []

    def recording(cls, *args):
        built.append(f"{cls.__module__}.{cls.__qualname__}")
        return process(cls, *args)

    dataclasses._process_class = recording
    from evalsubmit.cli import main
    code = main(sys.argv[1:])
    print(json.dumps({"code": code, "built": built}), file=sys.stderr)
    """)

STILL_DATACLASSES = {"evalsubmit.analysis.interp.frames.Frame"}
"""The classes a check of an SDK job still builds with ``dataclasses`` (each compiles its
methods from source when its module loads), besides the abstract values' (``VALUES``)."""


def test_a_check_of_a_job_builds_no_other_dataclass(tmp_path: Path) -> None:
    """A record on a check's path is written as a ``core.records.Record``: a new ``@record``
    or ``@dataclass`` there fails this test (move it off the path, or write it out)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "gym.py").write_text(GYM_JOB.replace("NUM_REPEATS", "0"))
    argv = ("check", "--no-cache", str(tmp_path / "gym.py"))
    proc = run_fresh(DATACLASSES_RUNNER, *argv, cwd=tmp_path)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["code"] == 1
    built = {name for name in report["built"] if not name.startswith(VALUES)}
    assert built == STILL_DATACLASSES


VALUES = ("evalsubmit.analysis.values.domain.", "evalsubmit.analysis.values.objects.")


def test_a_check_without_findings_loads_no_finding_classes(tmp_path: Path) -> None:
    """A run that analyses nothing renders no finding: the findings' classes and the
    suppression grammar are loaded by the analysis (or by a file spelling ``ignore-file``)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "tool.py").write_text("import os\n\nprint(os.getcwd())\n")
    for fmt in ("concise", "json"):
        argv = ("check", "--no-cache", "--output-format", fmt, str(tmp_path / "tool.py"))
        code, modules = modules_after(*argv, cwd=tmp_path)
        assert code == 0
        assert not {"evalsubmit.core.findings", "evalsubmit.core.suppression"} & modules
        assert "evalsubmit.cli.add_noqa" not in modules  # what --add-noqa runs


def test_a_check_without_a_runner_config_loads_no_pydantic(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "rows.py").write_text(ROW_ONLY)
    code, modules = modules_after("check", str(tmp_path / "rows.py"), cwd=tmp_path)
    assert code == 1  # the ES101 of the second call: the file was analysed
    assert "evalsubmit.analysis.engine.analyze" in modules
    assert not heads(modules) & set(HEAVY), sorted(heads(modules) & set(HEAVY))
    assert not INCREMENTAL & modules, sorted(INCREMENTAL & modules)
    assert not PIECEWISE_PARSE & modules, sorted(PIECEWISE_PARSE & modules)
    assert "tomllib" in modules  # any configuration file is read with tomllib, whatever it holds


def test_a_check_without_a_configuration_file_loads_no_tomllib(tmp_path: Path) -> None:
    """``tomllib`` (with ``datetime`` and ``string``) is imported where a configuration file is
    read: a project without one never pays for it."""
    project = tmp_path / "tool"
    project.mkdir()
    (project / "rows.py").write_text(ROW_ONLY)
    assert not any((d / name).exists() for d in project.parents for name in CONFIG_NAMES)
    code, modules = modules_after("check", str(project / "rows.py"), cwd=project)
    assert code == 1  # the ES101 of the second call: the file was analysed
    assert "evalsubmit.analysis.engine.analyze" in modules
    assert not {"tomllib", "datetime"} & modules, sorted({"tomllib", "datetime"} & modules)


INCREMENTAL = {
    "evalsubmit.analysis.engine.caches",
    "evalsubmit.analysis.engine.keys",
    "evalsubmit.analysis.engine.key_state",
    "evalsubmit.analysis.interp.effects",
    "evalsubmit.analysis.interp.mutation",
    "evalsubmit.analysis.engine.summaries",
    "evalsubmit.analysis.engine.crossfile",
}
"""The editor's incremental re-analysis (``DocumentAnalyzer``), previews and lenses, and the
findings other modules place in a file (a check gathers those itself): a check uses none."""


PIECEWISE_PARSE = {
    "evalsubmit.analysis.source.chunks",
    "evalsubmit.analysis.source.piece_lines",
    "evalsubmit.analysis.source.blank_lines",
    "evalsubmit.analysis.source.cuts",
    "evalsubmit.analysis.source.repair",
}
"""The parse one top-level statement at a time (the editor's chunk cache, broken text) and the
repair of broken text: a check of a file that parses whole uses none."""


GYM_JOB = textwrap.dedent("""\
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    client = NeMoPlatform(workspace="qa")
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="configs/agent.yaml",
        resources_server="mcqa",
        num_repeats=NUM_REPEATS,
        startup_timeout_s=60,
        env_vars={"HF_HOME": "/models/hf"},
        hydra_params={"temperature": 0.2, "seeds": [1, 2, 3], "nested": {"k": (1, "x")}},
    )
    runner = GymAgentTaskRunner(config=config)
    client.evaluator.submit(tasks="qa/math", target=runner)
    """)


def test_a_check_of_a_valid_runner_config_loads_no_pydantic(tmp_path: Path) -> None:
    """A GymRuntimeConfig of literals is validated, and its target JSON derived, by the plain
    tables (``evalsubmit.sdk.constraints``): neither pydantic nor the mirrors are loaded."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "gym.py").write_text(GYM_JOB.replace("NUM_REPEATS", "2"))
    code, modules = modules_after("check", str(tmp_path / "gym.py"), cwd=tmp_path)
    assert code == 0
    assert "evalsubmit.sdk.constraints" in modules
    assert "evalsubmit.analysis.target.gym_config" in modules
    assert "evalsubmit.sdk.models" not in modules
    assert not heads(modules) & set(HEAVY), sorted(heads(modules) & set(HEAVY))
    assert not INCREMENTAL & modules, sorted(INCREMENTAL & modules)
    assert not PIECEWISE_PARSE & modules, sorted(PIECEWISE_PARSE & modules)
    # the fixes of suppression comments: loaded for a module holding one of ours
    assert "evalsubmit.analysis.rules.suppression_edits" not in modules
    # loaded when a literal constructor or a digest needs them, not with the models
    assert not {"uuid", "decimal", "fractions", "hashlib", "_hashlib"} & modules


def test_a_check_of_an_invalid_runner_config_loads_no_pydantic(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "gym.py").write_text(GYM_JOB.replace("NUM_REPEATS", "0"))
    code, modules = modules_after("check", str(tmp_path / "gym.py"), cwd=tmp_path)
    assert code == 1  # ES109: num_repeats must be >= 1
    assert "evalsubmit.sdk.models" not in modules
    assert not heads(modules) & set(HEAVY), sorted(heads(modules) & set(HEAVY))


def test_a_value_outside_the_tables_loads_the_mirrors(tmp_path: Path) -> None:
    """The other side: a value the tables do not decide (a Decimal) is validated by the
    pydantic mirror, so the verdict stays pydantic's."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "gym.py").write_text(
        "from decimal import Decimal\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig\n"
        "cfg = GymRuntimeConfig(agent='a', agent_config='c.yaml', resources_server='m', "
        "startup_timeout_s=Decimal('0'))\n"
    )
    code, modules = modules_after("check", str(tmp_path / "gym.py"), cwd=tmp_path)
    assert code == 1
    assert "evalsubmit.sdk.models" in modules and "pydantic" in modules
    assert not heads(modules) & {"httpx", "pygls", "lsprotocol", "yaml"}


LAZY_CONSTRUCTORS = textwrap.dedent("""\
    import uuid
    from decimal import Decimal
    from fractions import Fraction

    from nemo_evaluator.api.schemas import TasksetRef
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    client = NeMoPlatform(workspace="qa")
    T = TasksetRef("qa/smoke")
    r0 = GymAgentTaskRunner(config=GymRuntimeConfig(
        agent="a", agent_config="c.yaml", resources_server="m", num_repeats=int(Decimal("0")),
        hydra_params={"u": uuid.UUID(int=1), "f": Fraction(1, 3), "d": Decimal("1.5")},
    ))
    client.evaluator.submit(tasks=T, target=r0)
    r1 = GymAgentTaskRunner(config=GymRuntimeConfig(
        agent="a", agent_config="c.yaml", resources_server="m",
        hydra_params={"d": Decimal("not a number"), "f": Fraction("not a number")},
    ))
    client.evaluator.submit(tasks=T, target=r1)
    """)


def test_constructors_whose_modules_load_late_give_the_same_findings(tmp_path: Path) -> None:
    """uuid, fractions and decimal are imported on the first call the models run: a fresh
    interpreter (none loaded) reports what this process (all loaded) does."""
    import decimal
    import fractions
    import uuid

    from evalsubmit.analysis import analyze_source

    assert decimal and fractions and uuid  # loaded in this process
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "job.py").write_text(LAZY_CONSTRUCTORS)
    here = analyze_source(LAZY_CONSTRUCTORS, path=tmp_path / "job.py").findings
    expected = sorted((f.span.line, f.code) for f in here)
    # int(Decimal("0")) is known (Decimal's type found once decimal is loaded); the constructors'
    # errors (decimal's own InvalidOperation) make unknown values, not internal errors
    assert expected == [(12, "ES109")]
    proc, findings = checked_json(tmp_path)
    assert sorted((f["line"], f["code"]) for f in findings) == expected
    assert proc.returncode == 1 and not proc.stderr


DOCLESS_RUNNER = textwrap.dedent("""\
    import dataclasses, json, sys
    process = dataclasses._process_class
    docless = []

    def recording(cls, *args):
        if not cls.__doc__:
            docless.append(f"{cls.__module__}.{cls.__qualname__}")
        return process(cls, *args)

    dataclasses._process_class = recording
    from evalsubmit.cli import main
    code = main(sys.argv[1:])
    print(json.dumps({"code": code, "docless": docless}), file=sys.stderr)
    """)


def test_the_dataclasses_a_check_loads_have_docstrings(tmp_path: Path) -> None:
    """``dataclasses`` writes a docstring for a class without one, with ``inspect.signature``:
    ~50 µs a class, ~2 ms of a check's start-up for the 38 that had none."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "gym.py").write_text(GYM_JOB.replace("NUM_REPEATS", "0"))
    proc = run_fresh(DOCLESS_RUNNER, "check", str(tmp_path / "gym.py"), cwd=tmp_path)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["code"] == 1
    assert report["docless"] == []


def test_a_broken_file_loads_the_piecewise_parse(tmp_path: Path) -> None:
    """The other side: a file that does not parse whole is parsed a statement at a time, its
    broken statement blanked, and the rest analysed as before."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "rows.py").write_text(ROW_ONLY + "def broken(:\n")
    code, modules = modules_after("check", "--no-cache", str(tmp_path / "rows.py"), cwd=tmp_path)
    assert code == 1
    assert {"evalsubmit.analysis.source.chunks", "evalsubmit.analysis.source.repair"} <= modules


def test_a_pyproject_with_the_table_is_parsed(tmp_path: Path) -> None:
    """The other side: the table is read with ``tomllib`` (and applied: ES101 ignored)."""
    (tmp_path / "pyproject.toml").write_text("[tool.evalsubmit]\nignore = ['ES101']\n")
    (tmp_path / "rows.py").write_text(ROW_ONLY)
    code, modules = modules_after("check", str(tmp_path / "rows.py"), cwd=tmp_path)
    assert code == 0
    assert "tomllib" in modules


LOADED_NAMES_JOB = textwrap.dedent("""\
    import copy
    import datetime
    import dis
    import importlib.machinery
    import inspect
    import json
    import linecache
    import string
    import tomllib
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    client = NeMoPlatform(workspace="qa")
    config = GymRuntimeConfig(
        agent="a", agent_config="c.yaml", resources_server="m",
        hydra_params={"f": string.capwords, "g": tomllib.loads, "h": string.Template,
                      "j": json.dumps, "c": copy.deepcopy, "d": dis.dis,
                      "i": inspect.signature, "l": linecache.getline,
                      "m": importlib.machinery.ModuleSpec, "t": datetime.timedelta},
    )
    client.evaluator.submit(tasks="qa/math", target=GymAgentTaskRunner(config=config))
    """)


def test_names_of_modules_no_longer_loaded_at_start_up_are_still_known(tmp_path: Path) -> None:
    """What a standard-library name is, the JSON rule reads from the standard library's files
    (``models/stdlib_kinds``), whatever the process has loaded: names of modules every check
    loaded until it stopped needing them (``tomllib``, ``string``, ``json``, ``datetime``,
    ``copy``, ``inspect`` and what it imports) are found as before (one finding per entry)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "job.py").write_text(LOADED_NAMES_JOB)
    _, findings = checked_json(tmp_path)
    assert [(f["code"], f["line"], f["column"]) for f in findings] == [
        ("ES107", 16, 19),
        ("ES107", 16, 41),
        ("ES107", 16, 61),
        ("ES107", 17, 19),
        ("ES107", 17, 36),
        ("ES107", 17, 56),
        ("ES107", 18, 19),
        ("ES107", 18, 43),
        ("ES107", 19, 19),
        ("ES107", 19, 56),
    ]


def test_a_check_without_the_result_cache_notes_nothing_for_it(tmp_path: Path) -> None:
    """With ``--no-cache`` nothing is kept, so what the analysis stood on is not noted."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "rows.py").write_text(ROW_ONLY)
    code, modules = modules_after("check", "--no-cache", str(tmp_path / "rows.py"), cwd=tmp_path)
    assert code == 1
    assert "evalsubmit.cli.result_cache" not in modules
    assert "json" not in modules  # imported when a result is kept
    code, modules = modules_after("check", str(tmp_path / "rows.py"), cwd=tmp_path)
    assert code == 1
    assert "evalsubmit.cli.result_cache" in modules


STORES_RUNNER = textwrap.dedent("""\
    import sys
    from evalsubmit.cli import main
    code = main(sys.argv[1:])
    from evalsubmit.analysis.interp import store_text
    print(store_text._compiled.cache_info().currsize, file=sys.stderr)
    """)


def test_the_rarer_store_patterns_are_compiled_when_a_text_needs_them(tmp_path: Path) -> None:
    """A job reading a project module's setting asks whether a file stores into it: the
    patterns of the rarer stores (``setattr``, target lists, star imports) are compiled when a
    text needs them (here, for ``settings.REPEATS``), not with the module."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "settings.py").write_text("REPEATS = 2\nLIMITS = {'a': 1}\n")

    def compiled(text: str, *, attribute: bool = False) -> int:
        """How many of the patterns a check compiled, ``settings.py`` holding ``text``."""
        if attribute:  # settings.REPEATS: a store into it is looked for by `.REPEATS`
            job = "import settings\n" + GYM_JOB.replace("NUM_REPEATS", "settings.REPEATS")
        else:
            job = "from settings import REPEATS\n" + GYM_JOB.replace("NUM_REPEATS", "REPEATS")
        (tmp_path / "gym.py").write_text(job)
        (tmp_path / "settings.py").write_text(text)
        proc = run_fresh(
            STORES_RUNNER, "check", "--no-cache", str(tmp_path / "gym.py"), cwd=tmp_path
        )
        assert proc.returncode == 0, proc.stderr
        return int(proc.stderr.strip().splitlines()[-1])

    assert compiled("REPEATS = 2\n") == 0
    assert compiled("REPEATS = 2\n", attribute=True) > 0  # the other side: compiled when needed
