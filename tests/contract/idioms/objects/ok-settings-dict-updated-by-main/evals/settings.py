"""Process-wide evaluation settings; the entry point fills them in."""

AGENT = "simple_agent"
LIMITS = {"concurrency": 0}  # set by the entry point
