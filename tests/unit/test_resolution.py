"""Resolution features of the engine (reference §1, §2, §8 "Resolution expectations"): names are
resolved by import origin, values are followed through code in flow order, across sibling
modules, and unknown values are never diagnosed. User code is never imported.

Each snippet is a complete module; expected lines are 1-based within it.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from evalsubmit.analysis import Project, Shape, analyze_source

Result = list[tuple[int, str]]

GYM = "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig"
REF = "from nemo_evaluator.api.schemas import TasksetRef"
CFG = 'GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m")'


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def results(text: str, *, path: Path | None = None, project: Project | None = None) -> Result:
    report = analyze_source(
        src(text), path=path or Path("snippet.py"), project=project or Project()
    )
    assert report.skipped is None, report.skipped
    return sorted((f.span.line, f.code) for f in report.findings)


def check(text: str, expected: Result) -> None:
    assert results(text) == expected


# --------------------------------------------------------------------------- imports and aliases


def test_import_as() -> None:
    check(
        f"""
        import nemo_platform as nmp
        {GYM}
        client = nmp.NeMoPlatform(workspace="qa")
        client.evaluator.submit(target=GymAgentTaskRunner(config={CFG}))
        """,
        [(4, "ES103")],
    )


def test_from_import_as() -> None:
    check(
        """
        from nemo_platform import NeMoPlatform as Platform
        from nemo_evaluator.api.schemas import TasksetRef as Ref
        from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig as Cfg
        Ref("qa team/smoke")
        Platform(workspace="qa").evaluator.submit(tasks=Ref("qa/smoke"), target=Cfg(
            agent="a", agent_config="a.yaml", resources_server="m"))
        """,
        [(4, "ES108"), (5, "ES104")],
    )


def test_module_alias() -> None:
    check(
        """
        import nemo_evaluator_sdk.agent_eval.runtimes.gym as gym
        from nemo_platform import NeMoPlatform
        runner = gym.GymAgentTaskRunner(config=gym.GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", num_repeats=0))
        NeMoPlatform().evaluator.submit(metric=object(), dataset=[{"a": 1}], target=runner)
        """,
        [(4, "ES109"), (5, "ES105")],
    )


def test_plain_dotted_import() -> None:
    check(
        """
        import nemo_evaluator_sdk.agent_eval.runtimes.gym
        import nemo_platform
        import nemo_evaluator.api.schemas
        r = nemo_evaluator_sdk.agent_eval.runtimes.gym.GymAgentTaskRunner(
            config=nemo_evaluator_sdk.agent_eval.runtimes.gym.GymRuntimeConfig(
                agent="a", agent_config="a.yaml", resources_server="m"))
        c = nemo_platform.NeMoPlatform()
        c.evaluator.submit(tasks=nemo_evaluator.api.schemas.TasksetRef("a/b/c"), target=r)
        """,
        [(8, "ES108")],
    )


def test_definition_submodules() -> None:
    check(
        f"""
        from nemo_evaluator_sdk.agent_eval.runtimes.gym.runtime import GymAgentTaskRunner
        from nemo_evaluator_sdk.agent_eval.runtimes.gym.config import GymRuntimeConfig
        from nemo_evaluator.api.fields import TasksetRef
        from nemo_platform import NeMoPlatform
        r = GymAgentTaskRunner(config={CFG})
        NeMoPlatform().evaluator.submit(tasks=TasksetRef("a b"), target=r, config=1)
        """,
        [(6, "ES102"), (6, "ES108")],
    )


def test_beta_evaluator_is_an_alias_of_the_sdk() -> None:
    check(
        """
        from nemo_platform.beta.evaluator.agent_eval.runtimes.gym import (
            GymAgentTaskRunner,
            GymRuntimeConfig,
        )
        from nemo_platform.beta.evaluator.agent_eval.runtimes.harbor_runtime import (
            HarborAgentTaskRunner,
            HarborRuntimeConfig,
        )
        import nemo_platform.beta.evaluator.agent_eval.runtimes.gym as bgym
        from nemo_platform import NeMoPlatform
        from nemo_evaluator.api.schemas import TasksetRef
        client = NeMoPlatform(workspace="qa")
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": lambda x: x}))
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=r)
        h = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir="runs"))
        client.evaluator.submit(tasks=TasksetRef("qa/s"),
                                target=h)
        bgym.GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                              env_vars={"N": 1})
        """,
        [(15, "ES107"), (19, "ES106"), (21, "ES109")],
    )


def test_no_nemo_platform_alias_for_the_plugin() -> None:
    """`nemo_platform.beta.evaluator.Evaluator` is the standalone SDK evaluator (§1.2, §1.3)."""
    check(
        f"""
        from nemo_platform.beta.evaluator import Evaluator
        {GYM}
        Evaluator().submit(target=GymAgentTaskRunner(config={CFG}))
        """,
        [],
    )


# --------------------------------------------------------------------------- obtaining evaluators


def test_evaluator_attribute_stored_in_a_variable() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        ev = NeMoPlatform(workspace="qa").evaluator
        ev.submit(target=GymAgentTaskRunner(config={CFG}))
        """,
        [(4, "ES103")],
    )


def test_client_as_context_manager() -> None:
    check(
        """
        from nemo_platform import NeMoPlatform
        with NeMoPlatform(workspace="qa") as client:
            client.evaluator.submit(metric=None, dataset=[{"a": 1}])
        """,
        [(3, "ES103")],
    )


def test_async_client_follows_async_rules() -> None:
    check(
        f"""
        from nemo_platform import AsyncNeMoPlatform
        {GYM}
        {REF}
        runner = GymAgentTaskRunner(config={CFG})
        async def main():
            aev = AsyncNeMoPlatform(workspace="qa").evaluator
            await aev.submit(tasks=TasksetRef("qa/s"), target=runner)
            await aev.submit(metric=object(), dataset=[{{"a": 1}}], target=runner)
            await aev.submit(metric=object(), dataset=[{{"a": 1}}])
        """,
        [(7, "ES103"), (8, "ES105")],
    )


def test_async_context_manager() -> None:
    check(
        f"""
        from nemo_platform import AsyncNeMoPlatform
        {GYM}
        {REF}
        async def main():
            async with AsyncNeMoPlatform(workspace="qa") as aclient:
                await aclient.evaluator.submit(tasks=TasksetRef("qa/s"),
                                               target=GymAgentTaskRunner(config={CFG}))
        """,
        [(6, "ES103")],
    )


def test_from_sdk() -> None:
    check(
        f"""
        from nemo_platform import AsyncNeMoPlatform, NeMoPlatform
        from nemo_evaluator.sdk import AsyncEvaluator, Evaluator
        {GYM}
        {REF}
        r = GymAgentTaskRunner(config={CFG})
        ev = Evaluator.from_sdk(NeMoPlatform(workspace="qa"))
        ev.submit(tasks=TasksetRef("qa/s"), target=r)
        ev.submit(target=r)
        async def main():
            aev = AsyncEvaluator.from_sdk(AsyncNeMoPlatform(workspace="qa"))
            await aev.submit(tasks=TasksetRef("qa/s"), target=r)
        """,
        [(8, "ES103"), (11, "ES103")],
    )


def test_evaluator_from_resources_module() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        from nemo_evaluator.sdk.resources import Evaluator
        {GYM}
        Evaluator.from_sdk(NeMoPlatform()).submit(target=GymAgentTaskRunner(config={CFG}))
        """,
        [(4, "ES103")],
    )


def test_evaluator_over_typed_client() -> None:
    check(
        f"""
        from nemo_evaluator.sdk import AsyncEvaluator, Evaluator
        from nemo_platform_plugin.evaluator.client import AsyncEvaluatorClient, EvaluatorClient
        {GYM}
        {REF}
        r = GymAgentTaskRunner(config={CFG})
        ev = Evaluator(EvaluatorClient(base_url="http://localhost:8080", workspace="qa"))
        ev.submit(tasks=TasksetRef("qa/s"), target=r, metric=object())
        async def main():
            aev = AsyncEvaluator(AsyncEvaluatorClient(base_url="http://localhost:8080"))
            await aev.submit(tasks=TasksetRef("qa/s"), target=r)
        """,
        [(7, "ES101"), (10, "ES103")],
    )


def test_parameter_annotations() -> None:
    check(
        f"""
        from nemo_platform import AsyncNeMoPlatform, NeMoPlatform
        from nemo_evaluator.sdk import Evaluator
        {GYM}
        r = GymAgentTaskRunner(config={CFG})
        def run(client: NeMoPlatform) -> None:
            client.evaluator.submit(target=r)
        def run_ev(ev: Evaluator) -> None:
            ev.submit(target=r)
        async def run_async(aclient: AsyncNeMoPlatform) -> None:
            await aclient.evaluator.submit(tasks="qa/s", target=r)
        """,
        [(6, "ES103"), (8, "ES103"), (10, "ES103")],
    )


def test_return_annotation_of_a_helper() -> None:
    check(
        f"""
        import os
        from nemo_platform import NeMoPlatform
        {GYM}
        def make() -> NeMoPlatform:
            return NeMoPlatform(workspace=os.environ["WS"])
        r = GymAgentTaskRunner(config={CFG})
        make().evaluator.submit(target=r)
        client = make()
        client.evaluator.submit(target=r)
        """,
        [(7, "ES103"), (9, "ES103")],
    )


# --------------------------------------------------------------------------- following values


def test_rebinding_after_the_submit_does_not_count() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        client = NeMoPlatform()
        target = GymAgentTaskRunner(config={CFG})
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=target)
        target = {CFG}
        """,
        [],
    )


def test_rebinding_before_the_submit_counts() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        client = NeMoPlatform()
        target = GymAgentTaskRunner(config={CFG})
        target = {CFG}
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=target)
        """,
        [(7, "ES104")],
    )


def test_rebinding_the_client_before_the_submit_counts() -> None:
    check(
        f"""
        from concurrent.futures import ThreadPoolExecutor
        from nemo_platform import NeMoPlatform
        {GYM}
        ev = NeMoPlatform().evaluator
        ev = ThreadPoolExecutor()
        ev.submit(print, target=GymAgentTaskRunner(config={CFG}))
        """,
        [],
    )


def test_import_shadowed_by_a_user_class_before_use() -> None:
    check(
        f"""
        {REF}
        class TasksetRef:
            def __init__(self, ref):
                self.ref = ref
        TasksetRef("not a/valid/ref")
        """,
        [],
    )


def test_helpers_returning_runner_config_and_dict() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        client = NeMoPlatform()
        def make_config():
            return {CFG}
        def make_runner():
            return GymAgentTaskRunner(config=make_config())
        def make_params():
            return {{"hook": print}}
        client.evaluator.submit(metric=object(), dataset=[{{"a": 1}}], target=make_runner())
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=make_config())
        r = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", hydra_params=make_params()))
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=r)
        """,
        [(10, "ES107"), (11, "ES105"), (12, "ES104")],
    )


def test_config_from_settings_unpacking() -> None:
    check(
        f"""
        {GYM}
        settings = {{
            "agent": "a",
            "agent_config": "a.yaml",
            "resources_server": "m",
            "startup_timeout_s": 0,
        }}
        cfg = GymRuntimeConfig(**settings)
        """,
        [(6, "ES109")],
    )


def test_config_from_model_validate() -> None:
    check(
        f"""
        {GYM}
        cfg = GymRuntimeConfig.model_validate(
            {{
                "agent": "a",
                "agent_config": "a.yaml",
                "resources_server": "m",
                "env_vars": {{"CUDA_VISIBLE_DEVICES": 0}},
            }}
        )
        """,
        [(7, "ES109")],
    )


def test_subscript_mutation_before_the_submit() -> None:
    check(
        f"""
        import threading
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        params = {{"temperature": 0.2}}
        params["guard"] = threading.Lock()
        params["seed"] = 7
        runner = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m", hydra_params=params))
        NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa/s"), target=runner)
        """,
        [(6, "ES107")],
    )


def test_subclass_of_gym_runner_is_submittable() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        class Tuned(GymAgentTaskRunner):
            pass
        NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa/s"), target=Tuned(config={CFG}))
        NeMoPlatform().evaluator.submit(metric=1, dataset=[{{"a": 1}}], target=Tuned(config={CFG}))
        """,
        [(7, "ES105")],
    )


def test_user_runner_classes() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {REF}
        class Full:
            async def run_tasks(self, tasks, config=None):
                return []
            def runner_info(self):
                return {{}}
        class Half:
            async def run_tasks(self, tasks, config=None):
                return []
        client = NeMoPlatform()
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=Full())
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=Half())
        """,
        [(12, "ES106"), (13, "ES104")],
    )


# --------------------------------------------------------------------------- look-alikes


def test_lookalikes_stay_silent() -> None:
    check(
        f"""
        import concurrent.futures
        from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
        from nemo_evaluator_sdk import Evaluator as StandaloneEvaluator
        {GYM}
        runner = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={{"hook": print}}))
        with ThreadPoolExecutor() as pool:
            pool.submit(print, tasks="a/b/c", metric=1)
        ProcessPoolExecutor().submit(print, target=runner)
        concurrent.futures.ThreadPoolExecutor().submit(print, tasks="x y", target=runner)
        StandaloneEvaluator().submit(target=runner)
        class Evaluator:
            def submit(self, **kwargs):
                return kwargs
        Evaluator().submit(tasks="a/b/c", target=runner, metric=1)
        class TasksetRef:
            def __init__(self, ref):
                self.ref = ref
        TasksetRef("qa team/smoke")
        def submit(**kwargs):
            return kwargs
        submit(target=runner)
        class Holder:
            evaluator = Evaluator()
        Holder().evaluator.submit(target=runner)
        """,
        [],
    )


def test_user_class_named_nemo_platform_is_not_the_client() -> None:
    check(
        f"""
        {GYM}
        class NeMoPlatform:
            def __init__(self, **kwargs):
                self.evaluator = self
            def submit(self, **kwargs):
                return kwargs
        NeMoPlatform(workspace="qa").evaluator.submit(target=GymAgentTaskRunner(config={CFG}))
        """,
        [],
    )


# --------------------------------------------------------------------------- unknown values


def test_unknown_values_are_never_diagnosed() -> None:
    check(
        f"""
        import json
        import os
        import yaml
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        client = NeMoPlatform()
        def submit_it(target, tasks, extra):
            client.evaluator.submit(tasks=tasks, target=target)
            client.evaluator.submit(tasks=TasksetRef("qa/s"), target=target, config=extra)
            GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m",
                             num_repeats=extra, env_vars=extra, hydra_params={{"k": extra}})
        with open("settings.yaml") as fh:
            settings = yaml.safe_load(fh)
        cfg = GymRuntimeConfig(**settings)
        loaded = GymRuntimeConfig.model_validate(json.load(open("c.json")))
        client.evaluator.submit(tasks=os.environ["TASKSET"], target=GymAgentTaskRunner(config=cfg))
        client.evaluator.submit(tasks=TasksetRef(input()), target=GymAgentTaskRunner(config=loaded))
        """,
        [],
    )


# --------------------------------------------------------------------------- cross-module


RUNNERS_PY = f"""\
{GYM}

def _log(rollout):
    print(rollout)

RUNNER = GymAgentTaskRunner(config=GymRuntimeConfig(
    agent="a", agent_config="a.yaml", resources_server="m",
    hydra_params={{"on_rollout": lambda r: _log(r)}}))

GOOD = GymAgentTaskRunner(config={CFG})

def make_good():
    return GymAgentTaskRunner(config={CFG})

CONFIG = {CFG}
"""
RUNNERS_LAMBDA_LINE = 8

MAIN_PY = f"""\
from nemo_platform import NeMoPlatform
{REF}
from runners import RUNNER

client = NeMoPlatform(workspace="qa")
job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=RUNNER)
"""


def write_project(root: Path, files: dict[str, str]) -> dict[str, Path]:
    paths = {}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


def analyse_file(path: Path, root: Path) -> Result:
    report = analyze_source(path.read_text(encoding="utf-8"), path=path, project=Project(root))
    return sorted((f.span.line, f.code) for f in report.findings)


def test_cross_module_value_is_reported_where_it_is_written(tmp_path: Path) -> None:
    paths = write_project(tmp_path, {"runners.py": RUNNERS_PY, "main.py": MAIN_PY})
    assert analyse_file(paths["runners.py"], tmp_path) == [(RUNNERS_LAMBDA_LINE, "ES107")]
    assert analyse_file(paths["main.py"], tmp_path) == []


def test_cross_module_runner_is_known_in_the_submitting_module(tmp_path: Path) -> None:
    paths = write_project(tmp_path, {"runners.py": RUNNERS_PY, "main.py": MAIN_PY})
    report = analyze_source(MAIN_PY, path=paths["main.py"], project=Project(tmp_path))
    (submit,) = report.submits
    assert submit.shape is Shape.TASKSET
    assert not submit.is_async
    assert submit.tasks == "qa/smoke"
    assert submit.workspace == "qa"
    assert submit.target is not None
    assert submit.target.runner_type == "GymAgentTaskRunner"
    assert submit.target.target is None
    assert submit.target.problems
    assert paths["runners.py"].resolve() in {p.resolve() for p in report.dependencies}


def test_a_module_another_thread_is_reading_is_not_a_cycle(tmp_path: Path) -> None:
    """The server analyses documents in several threads over one project: while one thread
    reads runners.py, another document importing it must still see its runner."""
    import threading

    paths = write_project(tmp_path, {"runners.py": RUNNERS_PY, "main.py": MAIN_PY})
    project = Project(tmp_path)
    reading, release = threading.Event(), threading.Event()
    module_name = project.module_name  # asked while the module is being read

    def slow_in_the_other_thread(path: Path | None) -> str:
        if threading.current_thread() is other and path is not None and path.name == "runners.py":
            reading.set()
            release.wait(10)
        return module_name(path)

    project.module_name = slow_in_the_other_thread  # type: ignore[method-assign]
    other = threading.Thread(
        target=analyze_source,
        args=(MAIN_PY,),
        kwargs={"path": paths["main.py"], "project": project},
    )
    other.start()
    try:
        assert reading.wait(10)
        report = analyze_source(MAIN_PY, path=paths["main.py"], project=project)
    finally:
        release.set()
        other.join(10)
    (submit,) = report.submits
    assert submit.target is not None and submit.target.runner_type == "GymAgentTaskRunner"


def test_cross_module_shape_checks_use_the_imported_values(tmp_path: Path) -> None:
    main = src(
        f"""
        from nemo_platform import NeMoPlatform
        {REF}
        import runners
        from runners import CONFIG, GOOD, make_good
        client = NeMoPlatform(workspace="qa")
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=GOOD)
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=make_good())
        client.evaluator.submit(metric=1, dataset=[{{"a": 1}}], target=runners.GOOD)
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=CONFIG)
        """
    )
    paths = write_project(tmp_path, {"runners.py": RUNNERS_PY, "main.py": main})
    assert analyse_file(paths["main.py"], tmp_path) == [(8, "ES105"), (9, "ES104")]
    report = analyze_source(main, path=paths["main.py"], project=Project(tmp_path))
    good = report.submits[0].target
    assert good is not None and good.target is not None
    assert good.target["kind"] == "gym"
    assert good.target["agent_config"] == "a.yaml"


def test_cross_module_runner_not_submitted_anywhere_is_quiet(tmp_path: Path) -> None:
    main = src(
        """
        from nemo_evaluator_sdk.agent_eval.evaluator import AgentEvaluator
        from runners import RUNNER
        AgentEvaluator().run_sync(tasks=[], target=RUNNER)
        """
    )
    paths = write_project(tmp_path, {"runners.py": RUNNERS_PY, "local.py": main})
    assert analyse_file(paths["runners.py"], tmp_path) == []


def test_cross_module_package_import(tmp_path: Path) -> None:
    main = src(
        f"""
        from nemo_platform import NeMoPlatform
        {REF}
        from jobs.runners import CONFIG
        NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa/s"), target=CONFIG)
        """
    )
    paths = write_project(
        tmp_path, {"jobs/__init__.py": "", "jobs/runners.py": RUNNERS_PY, "main.py": main}
    )
    assert analyse_file(paths["main.py"], tmp_path) == [(4, "ES104")]


def test_cross_module_subclass_of_gym_runner(tmp_path: Path) -> None:
    base = src(
        f"""
        {GYM}
        class TunedRunner(GymAgentTaskRunner):
            pass
        """
    )
    main = src(
        f"""
        from nemo_platform import NeMoPlatform
        {REF}
        {GYM}
        from base import TunedRunner
        NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa/s"), target=TunedRunner(config={CFG}))
        """
    )
    paths = write_project(tmp_path, {"base.py": base, "main.py": main})
    assert analyse_file(paths["main.py"], tmp_path) == []


def conftest_suite(tmp_path: Path) -> dict[str, Path]:
    """A suite whose conftest folder holds ``runners``; a test and a script import it."""
    test = src(
        f"""
        from nemo_platform import NeMoPlatform
        {REF}
        from runners import CONFIG
        def test_submit():
            NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa/s"), target=CONFIG)
        """
    )
    script = test.replace("def test_submit():\n    ", "")
    return write_project(
        tmp_path,
        {
            "suite/conftest.py": "",
            "suite/runners.py": RUNNERS_PY,
            "suite/tests/unit/test_jobs.py": test,
            "suite/tests/unit/job.py": script,
        },
    )


def test_tests_import_from_the_folders_of_their_conftest_files(tmp_path: Path) -> None:
    """pytest puts each conftest.py's folder on sys.path; a plain script does not get it."""
    paths = conftest_suite(tmp_path)
    assert analyse_file(paths["suite/tests/unit/test_jobs.py"], tmp_path) == [(5, "ES104")]
    assert analyse_file(paths["suite/tests/unit/job.py"], tmp_path) == []


def test_a_script_resolved_first_does_not_change_what_a_test_beside_it_imports(
    tmp_path: Path,
) -> None:
    """One project, files analysed in any order: a script next to a test cannot import from
    the conftest folder, and that answer is not reused for the test (CLI and server agree)."""
    paths = conftest_suite(tmp_path)
    project = Project(tmp_path)
    for name, expected in (("job.py", []), ("test_jobs.py", [(5, "ES104")])):
        path = paths[f"suite/tests/unit/{name}"]
        report = analyze_source(path.read_text(), path=path, project=project)
        assert sorted((f.span.line, f.code) for f in report.findings) == expected, name


def test_project_overlay_wins_over_the_disk(tmp_path: Path) -> None:
    paths = write_project(tmp_path, {"runners.py": RUNNERS_PY, "main.py": MAIN_PY})
    unsaved = src(
        f"""
        {GYM}
        RUNNER = {CFG}
        """
    )
    project = Project(tmp_path, overlays={paths["runners.py"]: unsaved})
    report = analyze_source(MAIN_PY, path=paths["main.py"], project=project)
    assert sorted((f.span.line, f.code) for f in report.findings) == [(6, "ES104")]


# --------------------------------------------------------------------------- editing tolerance


def test_broken_statement_after_keeps_complete_diagnostics() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        NeMoPlatform().evaluator.submit(target=GymAgentTaskRunner(config={CFG}))
        x = (1 +
        """,
        [(3, "ES103"), (4, "ES100")],  # the broken statement is named, not checked
    )


def test_broken_statement_before_keeps_complete_diagnostics() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        def broken(:
            pass
        TasksetRef("qa team/smoke")
        NeMoPlatform().evaluator.submit(target=GymAgentTaskRunner(config={CFG}))
        """,
        [(4, "ES100"), (6, "ES108"), (7, "ES103")],
    )


def test_incomplete_submit_argument_list_is_not_diagnosed() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        {REF}
        client = NeMoPlatform()
        runner = GymAgentTaskRunner(config={CFG})
        client.evaluator.submit(target=runner)
        client.evaluator.submit(tasks=TasksetRef("qa/s"), metric=1,
        """,
        [(6, "ES103"), (7, "ES100")],  # not ES101: the call being typed is not checked
    )


def test_submit_being_typed_is_not_diagnosed() -> None:
    check(
        f"""
        from nemo_platform import NeMoPlatform
        {REF}
        client = NeMoPlatform()
        client.evaluator.submit(tasks=TasksetRef("qa/s"), target=
        """,
        [(4, "ES100")],  # named as not parsing, never as a wrong submit
    )


# --------------------------------------------------------------------------- never run user code


def test_user_code_is_never_imported(tmp_path: Path) -> None:
    sentinel = tmp_path / "IMPORTED"
    evil = src(
        f"""
        import pathlib
        pathlib.Path({str(sentinel)!r}).write_text("imported")
        {GYM}
        RUNNER = GymAgentTaskRunner(config={CFG})
        """
    )
    main = src(
        f"""
        from nemo_platform import NeMoPlatform
        {REF}
        import evil
        from evil import RUNNER
        NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa/s"), target=RUNNER)
        NeMoPlatform().evaluator.submit(tasks=TasksetRef("qa/s"), target=evil.RUNNER, config=1)
        """
    )
    paths = write_project(tmp_path, {"evil.py": evil, "main.py": main})
    modules_before = set(sys.modules)
    assert analyse_file(paths["main.py"], tmp_path) == [(6, "ES102")]
    assert analyse_file(paths["evil.py"], tmp_path) == []
    assert not sentinel.exists()
    assert "evil" not in set(sys.modules) - modules_before


@pytest.mark.parametrize("name", ["nemo_platform", "nemo_evaluator_sdk", "nemo_evaluator"])
def test_sdk_is_never_imported(name: str) -> None:
    before = set(sys.modules)
    results(
        f"""
        from nemo_platform import NeMoPlatform
        {GYM}
        NeMoPlatform().evaluator.submit(target=GymAgentTaskRunner(config={CFG}))
        """
    )
    assert not any(m == name or m.startswith(name + ".") for m in set(sys.modules) - before)


def test_client_workspace_is_reported_without_a_submit() -> None:
    report = analyze_source(
        "from nemo_platform import NeMoPlatform\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner\n"
        "client = NeMoPlatform(workspace='team-a')\n"
        "other = NeMoPlatform(workspace=WORKSPACE)\n"
    )
    assert report.workspaces == ("team-a",)


def test_search_roots_follow_a_new_conftest_buffer_and_a_new_package(tmp_path: Path) -> None:
    """The search roots are remembered per importer: a conftest.py opened in the editor (not
    yet on disk), or files created then announced, change them at once."""
    paths = write_project(tmp_path, {"suite/tests/test_jobs.py": "", "suite/pkg/mod.py": ""})
    test, module = paths["suite/tests/test_jobs.py"], paths["suite/pkg/mod.py"]
    project = Project(tmp_path)
    assert tmp_path / "suite" not in project.search_roots(test)
    project.set_overlay(tmp_path / "suite" / "conftest.py", "")
    assert tmp_path / "suite" in project.search_roots(test)
    project.drop_overlay(tmp_path / "suite" / "conftest.py")
    assert tmp_path / "suite" not in project.search_roots(test)
    assert project.module_name(module) == "mod"
    (tmp_path / "suite" / "pkg" / "__init__.py").write_text("")
    project.forget_files()
    assert project.module_name(module) == "pkg.mod"
