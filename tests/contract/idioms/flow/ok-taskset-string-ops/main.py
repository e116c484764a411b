"""Taskset references derived with string methods, joins and formatting: all well formed."""

import os.path
import posixpath
from pathlib import PurePosixPath

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

title = "Nightly MCQA Suite"
refs = [
    f"qa/{title.lower().replace(' ', '-')}",
    "qa/smoke#v1".partition("#")[0],
    "qa.smoke".replace(".", "/", 1),
    os.path.join("qa", "smoke"),
    posixpath.join("qa", "nightly"),
    str(PurePosixPath("qa") / "smoke"),
    "team/qa/smoke".split("/", 1)[1],
    f"qa/shard-{7:03d}",
    "{ws}/{name}".format_map({"ws": "qa", "name": "smoke"}),
    "  qa/smoke\n".strip(),
    "qa/smoke-suite".removesuffix("-suite"),
    "_".join("qa smoke".split()),
    "qa/%(name)s#%(tag)s" % {"name": "smoke", "tag": "v2"},
    "qa/" + "-".join(map(str.lower, ["Smoke", "Suite"])),
    "#".join(part for part in ["qa/smoke", ""] if part),
]
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
for ref in refs:
    client.evaluator.submit(tasks=TasksetRef(ref), target=runner)
