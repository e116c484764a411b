"""Defaults; the suite raises the worker count for its runs."""

CONCURRENCY = 0
SUITE = "qa/smoke"
