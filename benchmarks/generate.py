"""Generate the benchmark corpus: realistic evaluator scripts full of submit() calls.

Layout (under ``--out``, default ``benchmarks/results/corpus``)::

    project/                  the LSP workspace folder (a "pyproject.toml" marks its root)
        runners.py            sibling module: shared configs, runner helpers, module-level runners
        job_500.py            ~500 lines   \
        job_5000.py           ~5,000 lines  > import from runners.py, submit in many shapes
        job_20000.py          ~20,000 lines/
    tree/                     1,000 files for the CLI: 100 packages of a runners.py + 9 jobs
    realrepo/                 1,000 files, 1 in 20 uses the SDK (a monorepo): 25 packages of a
                              runners.py, a job and 38 ordinary modules (stdlib + siblings)
    small/plain.py            a small file that does not use the SDK (start-up row)
    small/job.py              a small job script that does (start-up row)

Everything is deterministic (seeded), so every run measures the same text.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SIZES = {"500": 500, "5000": 5_000, "20000": 20_000}
TREE_PACKAGES = 100
TREE_JOBS_PER_PACKAGE = 9  # + runners.py = 10 files per package -> 1,000 files
REAL_PACKAGES = 25
REAL_PLAIN_PER_PACKAGE = 38  # + runners.py + one job = 40 files per package -> 1,000 files

HEADER = '''"""Nightly and ad-hoc evaluations of the {team} agents (generated, {n} lines)."""

from __future__ import annotations

import os
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, F1Metric, Model, RunConfig, RunConfigOnlineModel
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from runners import BASE, SMOKE_RUNNER, make_config, nightly_runner

WORKSPACE = os.environ.get("NMP_WORKSPACE", "{team}")
client = NeMoPlatform(base_url="http://localhost:8080", workspace=WORKSPACE)
evaluator = client.evaluator
em = ExactMatchMetric(reference="{{{{item.answer}}}}", candidate="{{{{item.prediction}}}}")
'''

RUNNERS = '''"""Runner definitions shared by the job scripts of this folder (generated)."""

import nemo_evaluator_sdk.agent_eval.runtimes.gym as gym

BASE = {{
    "agent": "simple_agent",
    "agent_config": "configs/simple_agent.yaml",
    "resources_server": "{server}",
}}


def make_config(concurrency: int = 8, **extra: object) -> gym.GymRuntimeConfig:
    return gym.GymRuntimeConfig(**BASE, concurrency=concurrency, **extra)


def nightly_runner() -> gym.GymAgentTaskRunner:
    config = gym.GymRuntimeConfig(**BASE, concurrency=16, env_vars={{"HF_HOME": "/models/hf"}})
    return gym.GymAgentTaskRunner(config=config)


SMOKE_RUNNER = gym.GymAgentTaskRunner(
    config=gym.GymRuntimeConfig(**BASE, num_repeats=2, hydra_params={{"temperature": 0.1}})
)
'''

AGENTS = ["simple_agent", "react_agent", "tool_agent", "planner"]
SERVERS = ["mcqa", "math", "code_exec", "search", "browser"]
TASKSETS = ["mcqa-nightly", "smoke", "math-hard", "code-lite", "search-qa", "long-context"]


def _block_config_fn(i: int, r: random.Random) -> str:
    return f'''

def build_config_{i}(concurrency: int = {r.choice([4, 8, 16, 32])}) -> GymRuntimeConfig:
    return GymRuntimeConfig(
        agent="{r.choice(AGENTS)}",
        agent_config="configs/agent_{i}.yaml",
        resources_server="{r.choice(SERVERS)}",
        concurrency=concurrency,
        startup_timeout_s={r.choice([60, 120, 300])},
        env_vars={{"HF_HOME": str(Path("/models/hf")), "LOG_LEVEL": "info", "RUN": "r{i}"}},
        hydra_params={{"temperature": {r.choice([0.0, 0.2, 0.7])}, "max_turns": {r.randint(2, 12)},
                      "seeds": [s * {r.randint(2, 9)} for s in range({r.randint(2, 6)})]}},
    )


def make_runner_{i}() -> GymAgentTaskRunner:
    return GymAgentTaskRunner(config=build_config_{i}())
'''


def _block_submit_fn(i: int, r: random.Random) -> str:
    taskset = r.choice(TASKSETS)
    return f"""

def submit_{i}(revision: str = "v{r.randint(1, 9)}") -> None:
    runner = make_runner_{i}()
    job = client.evaluator.submit(tasks=TasksetRef(f"{{WORKSPACE}}/{taskset}"), target=runner)
    print("submitted", job.name)
    client.evaluator.submit(tasks=f"{{WORKSPACE}}/{taskset}#{{revision}}", target=runner,
                            config=None)
    client.evaluator.submit(tasks=TasksetRef("qa/{taskset}"), target=nightly_runner())
    job.wait_until_done(poll_interval_seconds={r.choice([10.0, 30.0, 60.0])})
"""


def _block_module_runner(i: int, r: random.Random) -> str:
    return f'''

RUNNER_{i} = GymAgentTaskRunner(
    config=make_config(
        concurrency={r.choice([2, 4, 8])},
        num_repeats={r.randint(1, 4)},
        env_vars={{"STAGE": "{r.choice(["dev", "prod", "ci"])}", "SHARD": "{i}"}},
    )
)
CONFIG_{i} = GymRuntimeConfig(**BASE, concurrency={r.randint(1, 64)}, startup_timeout_s=90)
evaluator.submit(tasks=TasksetRef("qa/{r.choice(TASKSETS)}"), target=RUNNER_{i})
evaluator.submit(tasks=TasksetRef("qa/smoke"), target=SMOKE_RUNNER)
'''


def _block_rows(i: int, r: random.Random) -> str:
    return f'''

rows_{i} = [
    {{"question": "{r.randint(1, 99)}+{r.randint(1, 99)}?", "answer": "{r.randint(2, 198)}"}},
    {{"question": "Capital of France?", "answer": "Paris", "prediction": "Paris"}},
]
f1_{i} = F1Metric(reference="{{{{item.answer}}}}", candidate="{{{{item.prediction}}}}")
evaluator.submit(metric=em, dataset=rows_{i})
evaluator.submit(metric=f1_{i}, dataset=Path("data/answers_{i}.jsonl"),
                 config=RunConfig(parallelism={r.choice([4, 8, 16])}))
llama_{i} = Model(url="http://nim:8000/v1", name="meta/llama-3.1-8b-instruct")
evaluator.submit(
    metric=em,
    dataset=rows_{i},
    target=llama_{i},
    config=RunConfigOnlineModel(parallelism={r.choice([2, 8])}, system_prompt="Answer briefly."),
    prompt_template="{{{{item.question}}}}",
)
'''


def _block_loop(i: int, r: random.Random) -> str:
    names = ", ".join(f'"qa/{t}"' for t in r.sample(TASKSETS, 3))
    return f'''

def sweep_{i}() -> list[str]:
    """Submit the same runner against several tasksets, with per-run settings."""
    names = []
    for ref in ({names}):
        runner = GymAgentTaskRunner(
            config=GymRuntimeConfig(
                **BASE,
                concurrency={r.choice([4, 8])},
                env_vars={{"REF": ref, "ATTEMPT": "{i}"}},
            )
        )
        job = evaluator.submit(tasks=TasksetRef(ref), target=runner)
        names.append(job.name)
    return names
'''


def _block_suite_class(i: int) -> str:
    """A class that submits from its methods, as test suites and services do (the typing trace
    of ``edits.py`` edits inside one)."""
    return f'''

class NightlySuite{i}:
    """The nightly evaluations of one agent, submitted from methods."""

    taskset = "qa/mcqa-nightly"

    def __init__(self, concurrency: int = 8) -> None:
        self.concurrency = concurrency
        self.runner = GymAgentTaskRunner(config=build_config_{i}(concurrency))

    def submit(self, revision: str = "v1") -> str:
        ref = TasksetRef(f"{{self.taskset}}#{{revision}}")
        job = evaluator.submit(tasks=ref, target=self.runner)
        return job.name

    def resubmit(self) -> list[str]:
        return [self.submit(revision) for revision in ("v1", "v2")]
'''


def _block_mistake(i: int, r: random.Random) -> str:
    """A planted mistake now and then, as in real code under edit."""
    kind = r.choice(["row_option", "no_shape", "mixed"])
    if kind == "row_option":
        return f"""

def pinned_{i}() -> None:
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=SMOKE_RUNNER,
                            config=RunConfig(parallelism={r.choice([2, 4])}))
"""
    if kind == "no_shape":
        return f"""

def forgot_tasks_{i}() -> None:
    evaluator.submit(target=make_runner_{i}())
"""
    return f"""

def both_shapes_{i}() -> None:
    evaluator.submit(tasks=TasksetRef("qa/smoke"), target=SMOKE_RUNNER, metric=em)
"""


PLAIN_HEADER = '''"""{doc} (generated ordinary module, no SDK)."""

from __future__ import annotations

import json
import logging
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

{siblings}
log = logging.getLogger(__name__)
PATTERN = re.compile(r"^(?P<key>[a-z_]+)=(?P<value>.*)$")
'''


def _plain_block(i: int, r: random.Random, siblings: list[str]) -> str:
    helper = f"{r.choice(siblings)}.transform_{r.randint(0, 2)}" if siblings else "str"
    return f"""

@dataclass
class Record{i}:
    name: str
    size: int = {r.randint(0, 100)}
    tags: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        return f"{{self.name}}:{{self.size}}"

    def merge(self, other: Record{i}) -> Record{i}:
        tags = sorted(set(self.tags) | set(other.tags))
        extra = {{**self.extra, **other.extra}}
        return Record{i}(self.name, max(self.size, other.size), tags, extra)


def transform_{i % 3}_{i}(values: list[str], limit: int = {r.randint(5, 50)}) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for value in values[:limit]:
        match = PATTERN.match(value)
        if match is None:
            log.debug("skipped %r", value)
            continue
        counts[match.group("key")] += len(match.group("value"))
    return dict(counts)


def load_{i}(path: Path) -> list[Record{i}]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        log.warning("cannot read %s: %s", path, error)
        return []
    records = [Record{i}(str(item.get("name")), int(item.get("size", 0))) for item in data]
    return [r for r in records if r.size > {r.randint(0, 10)}]


def summarise_{i}(records: list[Record{i}]) -> str:
    total = sum(r.size for r in records)
    names = ", ".join(sorted({{r.name for r in records}}))
    return {helper}(f"{{len(records)}} records, {{total}} bytes: {{names}}")
"""


def plain_source(index: int, *, seed: int, package: str, siblings: list[str]) -> str:
    """An ordinary module of ~150-350 lines importing the standard library and siblings."""
    r = random.Random(seed)
    imports = "".join(f"from {package} import {s}\n" for s in siblings)
    parts = [PLAIN_HEADER.format(doc=f"Module {index} of {package}", siblings=imports)]
    for i in range(r.randint(3, 7)):
        parts.append(_plain_block(i, r, siblings))
    parts.append(
        "\n\ndef transform_0(text: str) -> str:\n    return text.strip()\n"
        "\n\ndef transform_1(text: str) -> str:\n    return text.lower()\n"
        "\n\ndef transform_2(text: str) -> str:\n    return os.path.basename(text)\n"
    )
    return "".join(parts)


def job_source(lines: int, *, seed: int, team: str = "qa") -> str:
    """A job script of about ``lines`` lines."""
    r = random.Random(seed)
    parts = [HEADER.format(team=team, n=lines)]
    total = parts[0].count("\n")
    i = 0
    while total < lines - 10:
        block = _block_config_fn(i, r) + _block_submit_fn(i, r)
        extra = r.choice([_block_module_runner, _block_rows, _block_loop])
        block += extra(i, r)
        if r.random() < 0.15:
            block += _block_mistake(i, r)
        if i % 10 == 5:  # its own decision: the random stream, so every other block, is as before
            block += _block_suite_class(i)
        parts.append(block)
        total += block.count("\n")
        i += 1
    parts.append('\n\nif __name__ == "__main__":\n    submit_0()\n')
    return "".join(parts)


def runners_source(server: str = "mcqa") -> str:
    return RUNNERS.format(server=server)


def generate(out: Path, *, tree: bool = True) -> dict[str, Path]:
    """Write the corpus; returns the paths of the job files by size key, plus 'tree'."""
    project = out / "project"
    project.mkdir(parents=True, exist_ok=True)
    _write(project / "pyproject.toml", '[project]\nname = "bench-project"\nversion = "0"\n')
    # The corpus lives in the repo's ignored benchmarks/results/: each root is the top of a
    # repository of its own (an empty .git folder, as a nested clone has), else the walkers
    # (evalsubmit's, ruff's) apply the repo's .gitignore above it and skip everything.
    _root(project)
    _write(project / "runners.py", runners_source())
    paths: dict[str, Path] = {}
    for key, lines in SIZES.items():
        paths[key] = project / f"job_{key}.py"
        _write(paths[key], job_source(lines, seed=lines))
    if tree:
        root = out / "tree"
        _write(root / "pyproject.toml", '[project]\nname = "bench-tree"\nversion = "0"\n')
        _root(root)
        r = random.Random(7)
        for p in range(TREE_PACKAGES):
            pkg = root / f"team_{p:03d}"
            _write(pkg / "runners.py", runners_source(r.choice(SERVERS)))
            for j in range(TREE_JOBS_PER_PACKAGE):
                size = r.choice([60, 120, 200, 350])
                _write(pkg / f"job_{j}.py", job_source(size, seed=p * 100 + j, team=f"t{p}"))
        paths["tree"] = root
        paths["realrepo"] = _real_repo(out / "realrepo")
        small = out / "small"
        _write(small / "pyproject.toml", '[project]\nname = "bench-small"\nversion = "0"\n')
        _root(small)
        _write(small / "plain.py", plain_source(0, seed=1, package="small", siblings=[]))
        _write(small / "runners.py", runners_source())
        _write(small / "job.py", job_source(60, seed=60))
        paths["small_plain"] = small / "plain.py"
        paths["small_job"] = small / "job.py"
    return paths


def _real_repo(root: Path) -> Path:
    """1,000 files where 1 in 20 uses the SDK: per package a runners.py and a job that do, and
    ordinary modules that import the standard library and each other, never those two."""
    _write(root / "pyproject.toml", '[project]\nname = "bench-realrepo"\nversion = "0"\n')
    _root(root)
    r = random.Random(20)
    for p in range(REAL_PACKAGES):
        package = f"service_{p:02d}"
        pkg = root / package
        _write(pkg / "__init__.py", "")
        _write(pkg / "runners.py", runners_source(r.choice(SERVERS)))
        _write(pkg / "nightly_job.py", job_source(r.choice([120, 200, 350]), seed=p, team=f"s{p}"))
        names = [f"mod_{m:02d}" for m in range(REAL_PLAIN_PER_PACKAGE - 1)]
        for m, name in enumerate(names):
            earlier = names[:m]
            siblings = r.sample(earlier, min(len(earlier), r.randint(0, 3)))
            text = plain_source(m, seed=p * 100 + m, package=package, siblings=siblings)
            _write(pkg / f"{name}.py", text)
    return root


def _root(folder: Path) -> None:
    _write(folder / ".gitignore", "# benchmark corpus: nothing ignored\n")
    (folder / ".git").mkdir(exist_ok=True)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parent / "results" / "corpus"
    parser.add_argument("--out", type=Path, default=default)
    args = parser.parse_args()
    paths = generate(args.out)
    for key, path in paths.items():
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            print(f"{key:>6}: {path} ({text.count(chr(10))} lines, {len(text) / 1024:.0f} KiB)")
        else:
            print(f"{key:>6}: {path} ({sum(1 for _ in path.rglob('*.py'))} files)")


if __name__ == "__main__":
    main()
