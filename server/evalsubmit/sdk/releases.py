"""The SDK releases evalsubmit knows, one entry per version, and how an installed SDK compares.

Each :class:`SdkRelease` holds what differs between releases of ``nemo-platform``: the mirrors
of ``GymRuntimeConfig`` / ``GymRunnerTarget`` (fields, defaults, constraints), what ``submit()``
accepts (its row-only options, whether the async evaluator takes ``tasks=``), and the spec
fields it sends around the target. Today there is one, :data:`~evalsubmit.sdk.version.SDK_VERSION`,
verified by the contract tests; the analysis uses :data:`SUPPORTED`. Supporting the next
release is a new entry here (new mirrors in :mod:`.models` if the config changed) plus its
contract tests.

The user's installed SDK is read from their environment's ``*.dist-info/METADATA``
(:mod:`evalsubmit.workspace.environment`, never imported); :func:`version_note` says when it is
not a release the rules are for.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from evalsubmit.core.records import record
from evalsubmit.sdk.spec import SPEC_DEFAULTS, WIRE_ONLY_DEFAULTS
from evalsubmit.sdk.version import SDK_DISTRIBUTION, SDK_VERSION

if TYPE_CHECKING:
    from evalsubmit.sdk.models import GymRunnerTargetModel, GymRuntimeConfigModel

EVALUATOR_SDK_DISTRIBUTION = "nemo-evaluator-sdk"
"""``nemo_evaluator_sdk`` as a distribution of its own (0.6.0 bundles it in nemo-platform)."""
SDK_DISTRIBUTIONS = (SDK_DISTRIBUTION, EVALUATOR_SDK_DISTRIBUTION)
"""The distributions whose installed versions matter, looked up in the user's environment."""


@record
class SdkRelease:
    """One SDK release the analysis knows the models of."""

    version: str
    """The ``nemo-platform`` version."""
    evaluator_sdk: str | None
    """The separate ``nemo-evaluator-sdk`` version it goes with; None when it is bundled."""
    mirrors: str
    """The module of its pydantic mirrors (``GymRuntimeConfigModel``, ``GymRunnerTargetModel``),
    imported on first use: pydantic is not loaded for files whose configs the plain tables of
    :mod:`.constraints` decide (or that build none)."""
    row_options: tuple[str, ...]
    """``submit()`` options that belong to row evaluations (refused on a taskset run)."""
    async_taskset: bool
    """Whether the async evaluator's ``submit()`` takes ``tasks=``."""
    spec_defaults: Mapping[str, Any]
    wire_only_defaults: Mapping[str, Any]

    @property
    def gym_config(self) -> type[GymRuntimeConfigModel]:
        model: type[GymRuntimeConfigModel] = importlib.import_module(
            self.mirrors
        ).GymRuntimeConfigModel
        return model

    @property
    def gym_target(self) -> type[GymRunnerTargetModel]:
        model: type[GymRunnerTargetModel] = importlib.import_module(
            self.mirrors
        ).GymRunnerTargetModel
        return model


RELEASES: dict[str, SdkRelease] = {
    "0.6.0": SdkRelease(
        version="0.6.0",
        evaluator_sdk=None,
        mirrors="evalsubmit.sdk.models",
        row_options=("config", "field_mapping", "prompt_template", "metric_bundle_packager"),
        async_taskset=False,
        spec_defaults=SPEC_DEFAULTS,
        wire_only_defaults=WIRE_ONLY_DEFAULTS,
    ),
}

SUPPORTED = RELEASES[SDK_VERSION]
"""The release the rules check against."""


def version_note(installed: Mapping[str, str], *, declared: bool = False) -> str | None:
    """Why results may differ from the installed SDK, or None when it is the release the rules
    are for (or when no SDK is installed: the checker works without it). ``installed`` maps
    distribution names (:data:`SDK_DISTRIBUTIONS`) to their installed versions; ``declared``:
    the version is the ``sdk-version`` of the user's configuration instead."""
    platform = installed.get(SDK_DISTRIBUTION)
    evaluator = installed.get(EVALUATOR_SDK_DISTRIBUTION)
    expected = f"rules are for {SDK_DISTRIBUTION} {SUPPORTED.version}"
    if platform is not None and platform != SUPPORTED.version:
        how = "declared (sdk-version)" if declared else "installed"
        return f"{expected}; {platform} is {how}: results may differ"
    if evaluator is not None and evaluator != SUPPORTED.evaluator_sdk:
        return (
            f"{expected}; {EVALUATOR_SDK_DISTRIBUTION} {evaluator} is installed: results may differ"
        )
    return None
