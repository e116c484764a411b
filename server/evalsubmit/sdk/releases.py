"""The SDK releases evalsubmit knows, one entry per version, and how an installed SDK compares.

Each :class:`SdkRelease` holds what the rules read per release: its version, the separate
``nemo-evaluator-sdk`` it goes with, and ``submit()``'s row-only options. Today there is one,
:data:`~evalsubmit.sdk.version.SDK_VERSION`, verified by the contract tests; the analysis uses
:data:`SUPPORTED`. The mirrors of ``GymRuntimeConfig`` / ``GymRunnerTarget`` (:mod:`.models`)
and the spec fields sent around the target (:mod:`.spec`) are that release's; supporting a
second release that changes them means moving them into its entry and passing the release down.

The user's installed SDK is read from their environment's ``*.dist-info/METADATA``
(:mod:`evalsubmit.workspace.environment`, never imported); :func:`version_note` says when it is
not a release the rules are for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from evalsubmit.core.records import Record
from evalsubmit.sdk.version import SDK_DISTRIBUTION, SDK_VERSION

EVALUATOR_SDK_DISTRIBUTION = "nemo-evaluator-sdk"
"""``nemo_evaluator_sdk`` as a distribution of its own (0.6.0 bundles it in nemo-platform)."""
SDK_DISTRIBUTIONS = (SDK_DISTRIBUTION, EVALUATOR_SDK_DISTRIBUTION)
"""The distributions whose installed versions matter, looked up in the user's environment."""


class SdkRelease(Record):
    """One SDK release the rules know."""

    __slots__ = ("evaluator_sdk", "row_options", "version")
    version: Final[str]
    """The ``nemo-platform`` version."""
    evaluator_sdk: Final[str | None]
    """The separate ``nemo-evaluator-sdk`` version it goes with; None when it is bundled."""
    row_options: Final[tuple[str, ...]]
    """``submit()`` options that belong to row evaluations (refused on a taskset run)."""

    def __init__(
        self, version: str, evaluator_sdk: str | None, row_options: tuple[str, ...]
    ) -> None:
        self.version = version
        self.evaluator_sdk = evaluator_sdk
        self.row_options = row_options


RELEASES: dict[str, SdkRelease] = {
    "0.6.0": SdkRelease(
        version="0.6.0",
        evaluator_sdk=None,
        row_options=("config", "field_mapping", "prompt_template", "metric_bundle_packager"),
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
