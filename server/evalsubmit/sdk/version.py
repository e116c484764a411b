"""The SDK release every fact in :mod:`evalsubmit.sdk` was verified against (contract tests)."""

SDK_DISTRIBUTION = "nemo-platform"
SDK_VERSION = "0.6.0"
SDK_RELEASE = f"{SDK_DISTRIBUTION} {SDK_VERSION}"
"""How messages name it: "nemo-platform 0.6.0"."""
