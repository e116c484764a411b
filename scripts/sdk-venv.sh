#!/usr/bin/env bash
# Creates (once) the cached Python 3.12 venv holding the real NeMo Platform (the release of
# server/evalsubmit/sdk/version.py):
# the SDK for the contract tests and the `nmp` service for the submission tests.
# Prints the venv's python path. Override the interpreter with EVALSUBMIT_PY312.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.cache/sdk-venv"
version=$(sed -n 's/^SDK_VERSION = "\(.*\)"$/\1/p' "$root/server/evalsubmit/sdk/version.py")
[[ -n $version ]] || { echo "sdk-venv: no SDK_VERSION in server/evalsubmit/sdk/version.py" >&2; exit 1; }
stamp="$venv/.complete-$version"
if [[ -f $stamp ]]; then echo "$venv/bin/python"; exit 0; fi
py="${EVALSUBMIT_PY312:-}"
if [[ -z $py ]]; then
  if command -v pyenv >/dev/null 2>&1 && [[ -x "$(pyenv root)/versions/3.12.1/bin/python3.12" ]]; then
    py="$(pyenv root)/versions/3.12.1/bin/python3.12"
  elif command -v python3.12 >/dev/null 2>&1 && python3.12 -V >/dev/null 2>&1; then
    py=python3.12
  else
    echo "sdk-venv: no Python 3.12 found; set EVALSUBMIT_PY312" >&2; exit 1
  fi
fi
uv="$root/.venv/bin/uv"
[[ -x $uv ]] || { echo "sdk-venv: run 'make setup' first (needs $uv)" >&2; exit 1; }
rm -rf "$venv"
"$py" -m venv "$venv" >&2
UV_CACHE_DIR="$root/.cache/uv" "$uv" pip install --quiet --python "$venv/bin/python" \
  "nemo-platform[core-service,nemo-evaluator-plugin]==$version" pyleak >&2
touch "$stamp"
echo "$venv/bin/python"
