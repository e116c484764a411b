"""BLAKE2b, the digest of the analysis's cache keys (and, keyed, the MAC of the result cache's
entries), without OpenSSL.

``hashlib.blake2b`` is the ``_blake2`` module's own (hashlib never takes OpenSSL's for BLAKE2),
but importing :mod:`hashlib` also loads OpenSSL's ``_hashlib``: a cost on every start of
the CLI, for digests it never computes.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it: hashlib's (the same digests)
    from hashlib import blake2b

# The constant-time comparison ``hmac.compare_digest`` is when OpenSSL is missing: importing
# hmac would load OpenSSL (through hashlib) for no other use.
try:
    from _operator import _compare_digest as compare_digest
except ImportError:
    from hmac import compare_digest  # type: ignore[no-redef]

__all__ = ["blake2b", "compare_digest"]
