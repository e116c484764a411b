#!/usr/bin/env bash
# Long load run of the language server: 10,000 rapid didChange events across 50
# documents while hovering, then 3 minutes of typing with VS Code's request pattern; prints
# events/s, latencies and RSS. Arguments go to
# `python -m tests.robustness.load_long` (see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m tests.robustness.load_long "$@"
