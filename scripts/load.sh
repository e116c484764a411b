#!/usr/bin/env bash
# Long load run of the language server (issue 6): 10,000 rapid didChange events across 50
# documents while hovering; prints events/s, hover latency and RSS. Arguments go to
# `python -m tests.robustness.load_long` (see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m tests.robustness.load_long "$@"
