"""The incremental path must always agree with a fresh analysis, and must actually reuse work."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from evalsubmit.analysis import DocumentAnalyzer, ModuleReport, Project, analyze_source

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SNIPPETS = [
    "x",
    ")",
    "(",
    ",",
    '"',
    "\n",
    "\n    ",
    "#",
    "lambda: 0",
    "metric=m, ",
    'tasks="a b", ',
    "config=None, ",
    "range(3)",
    "    ",
    "def f():\n",
    '"""',
    "\f",
    "\r",
    "\u2028",
    "\x0c# evalsubmit: ignore\n",
    ".append(lambda: 0)",
    'del hp["seed"]\n',
    'hp.pop("seed")\n',
    "hp |= {'cb': print}\n",
    # paths that end: what follows them is no longer checked, and again once they go
    "raise SystemExit(1)\n",
    "import sys; sys.exit()\n",
    "return None\n",
    "if hp is None:\n    raise ValueError\n",
]


def outcome(report: ModuleReport) -> tuple[object, ...]:
    return (
        report.skipped,
        [(f.code, f.span, f.message, f.fixes) for f in report.findings],
        sorted(
            (p.span, p.target == p.target and str(p.target), p.problems, p.unknowns)
            for p in report.runners
        ),
        [
            (s.span, s.shape, s.tasks, s.has_errors, s.target and s.target.rendered)
            for s in report.submits
        ],
    )


def mutate(text: str, rng: random.Random) -> str:
    if not text:
        return rng.choice(SNIPPETS)
    at = rng.randrange(len(text) + 1)
    roll = rng.random()
    if roll < 0.45:
        return text[:at] + rng.choice(SNIPPETS) + text[at:]
    if roll < 0.75:
        return text[:at] + text[at + rng.randint(1, 4) :]
    lines = text.splitlines(keepends=True)
    index = rng.randrange(len(lines))
    if roll < 0.88:
        lines.insert(index, lines[index])
    else:
        del lines[index]
    return "".join(lines)


@pytest.mark.parametrize(
    "name",
    [
        "nightly_eval.py",
        "hydra_params.py",
        "env_and_config.py",
        "wrong_targets.py",
        "async_eval.py",
    ],
)
def test_random_edit_sequence_matches_fresh_analysis(name: str) -> None:
    path = EXAMPLES / name
    project = Project(EXAMPLES)
    text = path.read_text(encoding="utf-8")
    rng = random.Random(name)
    analyzer = DocumentAnalyzer(path, project)
    for step in range(150):
        text = mutate(text, rng) if step else text
        incremental = analyzer.analyze(text)
        fresh = analyze_source(text, path=path, project=project)
        assert outcome(incremental) == outcome(fresh), f"step {step}:\n{text}"


def test_edit_inside_one_function_rewalks_only_that_function() -> None:
    path = EXAMPLES / "nightly_eval.py"
    text = path.read_text(encoding="utf-8")
    functions = [i for i, line in enumerate(text.splitlines()) if line.startswith("def ")]
    assert len(functions) >= 2
    analyzer = DocumentAnalyzer(path, Project(EXAMPLES))
    first = analyzer.analyze(text)
    assert analyzer.caches.reused == 0 and analyzer.caches.walked >= 2
    lines = text.splitlines(keepends=True)
    body_line = functions[-1] + 1  # first line of the last function's body
    lines[body_line] = lines[body_line].rstrip("\n") + "  # edited\n"
    second = analyzer.analyze("".join(lines))
    # Re-walked: the edited definition (its statement and its body) and the one statement that
    # calls it (`if __name__ == "__main__": main()`); everything else comes from the cache.
    assert analyzer.caches.walked == 3
    assert analyzer.caches.reused == first_groups(analyzer) - 3
    assert analyzer.caches.chunks.misses >= 1
    assert [f.code for f in second.findings] == [f.code for f in first.findings]


def first_groups(analyzer: DocumentAnalyzer) -> int:
    return analyzer.caches.walked + analyzer.caches.reused


def test_changed_sibling_module_invalidates_cached_bodies(tmp_path: Path) -> None:
    (tmp_path / "runners.py").write_text(
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner as R\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig as C\n"
        "RUNNER = R(config=C(agent='a', agent_config='a.yaml', resources_server='m'))\n",
        encoding="utf-8",
    )
    main = tmp_path / "main.py"
    text = (
        "from nemo_platform import NeMoPlatform\n"
        "from runners import RUNNER\n"
        "def go(client: NeMoPlatform):\n"
        "    client.evaluator.submit(tasks='qa/s', target=RUNNER, metric=1)\n"
    )
    project = Project(tmp_path)
    analyzer = DocumentAnalyzer(main, project)
    assert [f.code for f in analyzer.analyze(text).findings] == ["ES101"]
    project.set_overlay(tmp_path / "runners.py", "RUNNER = 'not a runner'\n")
    incremental = analyzer.analyze(text)
    fresh = analyze_source(text, path=main, project=project)
    assert outcome(incremental) == outcome(fresh)
    assert analyzer.caches.reused == 0  # every cached result depends on the sibling's text


MUTATION = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
client = NeMoPlatform(workspace="qa")
PARAMS = {"a": 1}
def add_hook():
    PARAMS["cb"] = HOOK
HOOK = lambda: 0
add_hook()
cfg = GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m", hydra_params=PARAMS)
def go():
    client.evaluator.submit(tasks="qa/s", target=GymAgentTaskRunner(config=cfg))
"""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("HOOK = lambda: 0", "HOOK = 0       "),  # a value read through a helper's mutation
        ('PARAMS["cb"] = HOOK', 'PARAMS["cb"] = 1   '),  # the helper that mutates
        ("\nadd_hook()\n", "\npass      \n"),  # the call that runs the mutation
    ],
)
def test_changes_that_reach_a_submit_only_indirectly_invalidate_it(old: str, new: str) -> None:
    analyzer = DocumentAnalyzer(None, None)
    assert [f.code for f in analyzer.analyze(MUTATION).findings] == ["ES107"]
    edited = MUTATION.replace(old, new)
    assert analyzer.analyze(edited).findings == ()
    assert outcome(analyzer.analyze(edited)) == outcome(analyze_source(edited))
