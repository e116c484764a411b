"""Robustness tests (issue 6): fuzz, load, huge inputs, security and platform faults.

Short versions run in the normal test command; the long versions are their own commands:
``python -m tests.robustness.fuzz_long`` and ``python -m tests.robustness.load_long``
(``scripts/fuzz.sh`` and ``scripts/load.sh`` wrap them).
"""
