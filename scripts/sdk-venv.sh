#!/usr/bin/env bash
# Creates (once) the cached Python 3.12 venv holding the real NeMo Platform (the release of
# server/evalsubmit/sdk/version.py):
# the SDK for the contract tests and the `nmp` service for the submission tests, plus the test
# tools the idiom oracle runs the corpus' pytest suites with (EXTRAS).
# Prints the venv's python path. Override the interpreter with EVALSUBMIT_PY312.
#
# Stamps: `.complete-<release>` (the SDK install; also read by scripts/local_platform.py) and
# `.extras-<hash of EXTRAS>`. Changing EXTRAS adds them to an existing venv once (no rebuild
# of the 1 GB SDK install); a machine without the venv builds everything in one go.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.cache/sdk-venv"
version=$(sed -n 's/^SDK_VERSION = "\(.*\)"$/\1/p' "$root/server/evalsubmit/sdk/version.py")
[[ -n $version ]] || { echo "sdk-venv: no SDK_VERSION in server/evalsubmit/sdk/version.py" >&2; exit 1; }
EXTRAS=("pytest==9.2.0")
extras_key=$(printf '%s\n' "${EXTRAS[@]}" | sha256sum | cut -c1-12)
stamp="$venv/.complete-$version"
extras_stamp="$venv/.extras-$extras_key"
if [[ -f $stamp && -f $extras_stamp ]]; then echo "$venv/bin/python"; exit 0; fi
uv="$root/.venv/bin/uv"
[[ -x $uv ]] || { echo "sdk-venv: run 'make setup' first (needs $uv)" >&2; exit 1; }
# One installer at a time (worktrees share .cache); re-check the stamps once we hold the lock.
mkdir -p "$root/.cache"
exec 9>"$root/.cache/sdk-venv.install-lock"
flock 9
if [[ -f $stamp && -f $extras_stamp ]]; then echo "$venv/bin/python"; exit 0; fi
export UV_CACHE_DIR="$root/.cache/uv"
if [[ ! -f $stamp ]]; then
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
  rm -rf "$venv"
  "$py" -m venv "$venv" >&2
  "$uv" pip install --quiet --python "$venv/bin/python" \
    "nemo-platform[core-service,nemo-evaluator-plugin]==$version" pyleak "${EXTRAS[@]}" >&2
  touch "$stamp"
else
  "$uv" pip install --quiet --python "$venv/bin/python" "${EXTRAS[@]}" >&2
fi
rm -f "$venv"/.extras-*
touch "$extras_stamp"
echo "$venv/bin/python"
