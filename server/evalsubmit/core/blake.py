"""BLAKE2b, the digest of the analysis's cache keys, without OpenSSL.

``hashlib.blake2b`` is the ``_blake2`` module's own (hashlib never takes OpenSSL's for BLAKE2),
but importing :mod:`hashlib` also loads OpenSSL's ``_hashlib``: about 3 ms of every start of
the CLI, for digests it never computes.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib's (the same digests)
    from hashlib import blake2b

__all__ = ["blake2b"]
