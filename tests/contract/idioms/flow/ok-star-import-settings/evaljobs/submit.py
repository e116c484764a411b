"""Submits every configured suite; the settings module is star-imported."""

from nemo_platform import NeMoPlatform

from .settings import *  # noqa: F403


def run_all():
    client = NeMoPlatform(base_url=BASE_URL, workspace=WORKSPACE)  # noqa: F405
    for suite in SUITES:  # noqa: F405
        client.evaluator.submit(tasks=suite, target=NIGHTLY_TARGET)  # noqa: F405
