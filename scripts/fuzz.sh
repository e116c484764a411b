#!/usr/bin/env bash
# Long fuzz run of the analysis core (issue 6): >= 100,000 inputs; prints counts and the
# slowest input. Arguments go to `python -m tests.robustness.fuzz_long` (see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m tests.robustness.fuzz_long "$@"
