"""Entry point: sets the settings first, imports the runners afterwards."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

import evalcfg.settings

evalcfg.settings.CONCURRENCY = 16

from evalcfg.runners import RUNNER  # noqa: E402  (after the settings are filled in)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=RUNNER)
