"""Defaults; the entry point overrides them before importing the runners."""

CONCURRENCY = 0
AGENT = "simple_agent"
