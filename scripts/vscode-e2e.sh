#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code (code-server 4.100.3), driven
# headless through Debian's chromium with playwright-core. See docs/vscode.md.
#
#   scripts/vscode-e2e.sh [--with-platform]
#
# Installs what it needs (apt: chromium libkrb5-dev ripgrep; code-server into .cache/code-server;
# the client's npm packages with the cache in .cache/npm), packages the .vsix (the server's
# wheels bundled), installs it into a temp extensions dir of a fresh profile with no evalsubmit.*
# setting, and starts code-server with a PATH whose only Pythons have no evalsubmit (a fresh
# venv first, then Debian's python3): the extension must set its server up by itself.
# Workspace Trust is on: the workspace opens in Restricted Mode (it has a .venv and a workspace
# value of a restricted setting) and a step trusts it through the trust editor.
# The steps (vscode-client/e2e/run.mjs) cover the first install, diagnostics, hover, quick fix,
# restarts, 60 s of typing, Select Interpreter, the platform token, and with a platform the
# taskset prompt of the code's workspace, a failed job (toast + job view) and a completed one.
# The platform steps need EVALSUBMIT_E2E_PLATFORM_URL (+ EVALSUBMIT_E2E_WORKSPACE,
# EVALSUBMIT_E2E_TASKSET), or --with-platform, which starts, seeds and stops one with
# scripts/local_platform.py. Screenshots and logs go to artifacts/vscode-e2e/. Every process
# started here is stopped.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CLIENT="$ROOT/vscode-client"
ART="$ROOT/artifacts/vscode-e2e"
CS_VERSION=4.100.3
CS_DIR="$ROOT/.cache/code-server"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
PYTHON_BIN="$ROOT/.venv/bin/python"  # runs local_platform.py (not the server)
WITH_PLATFORM=0
for arg in "$@"; do
  case "$arg" in
    --with-platform) WITH_PLATFORM=1 ;;
    *) echo "usage: $0 [--with-platform]" >&2; exit 2 ;;
  esac
done

export npm_config_cache="$ROOT/.cache/npm"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
t0=$(date +%s)
say() { echo "[vscode-e2e +$(( $(date +%s) - t0 ))s] $*"; }

# --- system packages ---------------------------------------------------------------------------
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- code-server (cached) ----------------------------------------------------------------------
installed_cs=""
[ -f "$CS_DIR/node_modules/code-server/package.json" ] &&
  installed_cs=$(node -p "require('$CS_DIR/node_modules/code-server/package.json').version")
if [ "$installed_cs" != "$CS_VERSION" ] || [ ! -x "$CS_BIN" ]; then
  say "installing code-server $CS_VERSION into $CS_DIR"
  mkdir -p "$CS_DIR"
  # @vscode/ripgrep's postinstall downloads rg from GitHub: seed its cache with Debian's rg.
  rgcache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$rgcache"
  rgtmp=$(mktemp -d)
  cp "$(command -v rg)" "$rgtmp/rg"
  tar -C "$rgtmp" -czf "$rgcache/ripgrep-v13.0.0-10-$(uname -m)-unknown-linux-musl.tar.gz" rg
  rm -rf "$rgtmp"
  [ -f "$CS_DIR/package.json" ] || echo '{"name":"evalsubmit-code-server","private":true}' >"$CS_DIR/package.json"
  (cd "$CS_DIR" && npm_config_unsafe_perm=true npm_config_yes=true \
    npm install --no-save --loglevel=error "code-server@$CS_VERSION" >"$CS_DIR/install.log" 2>&1) ||
    { tail -30 "$CS_DIR/install.log"; exit 1; }
fi

# --- the project's Python (the language server) ------------------------------------------------
if [ ! -x "$PYTHON_BIN" ]; then
  say "no $PYTHON_BIN: running make setup"
  make -C "$ROOT" setup
fi

# --- build and package the extension (offline once the npm cache is warm) ----------------------
say "building the .vsix"
(cd "$CLIENT" && {
  [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] ||
    npm ci --prefer-offline --loglevel=error
  npm run --silent package >/dev/null
})
VSIX="$CLIENT/evalsubmit.vsix"

# --- a temp world: user data, extensions, config, workspace ------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/evalsubmit-e2e.XXXXXX")
CS_PID=""
PLATFORM_DATA=""
cleanup() {
  local rc=$?
  if [ -n "$CS_PID" ] && kill -0 "$CS_PID" 2>/dev/null; then
    kill -TERM -- "-$CS_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$CS_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$CS_PID" 2>/dev/null || true
    wait "$CS_PID" 2>/dev/null || true
  fi
  if [ -n "$PLATFORM_DATA" ]; then
    "$PYTHON_BIN" "$ROOT/scripts/local_platform.py" stop --data-dir "$PLATFORM_DATA" >/dev/null 2>&1 || true
  fi
  # keep the extension's and code-server's logs with the screenshots
  if [ -d "$WORK/user-data/logs" ]; then
    mkdir -p "$ART/logs" && cp -r "$WORK/user-data/logs/." "$ART/logs/" 2>/dev/null || true
  fi
  [ -f "$WORK/code-server.log" ] && cp "$WORK/code-server.log" "$ART/" || true
  rm -rf "$WORK" "${PLATFORM_DATA:-/nonexistent}"
  exit $rc
}
trap cleanup EXIT INT TERM

rm -rf "$ART" && mkdir -p "$ART"
mkdir -p "$WORK"/{user-data/User,extensions,xdg-config,xdg-data,profile,workspace}
export XDG_CONFIG_HOME="$WORK/xdg-config" XDG_DATA_HOME="$WORK/xdg-data"

if [ "$WITH_PLATFORM" = 1 ] && [ -z "${EVALSUBMIT_E2E_PLATFORM_URL:-}" ]; then
  PLATFORM_DATA="$WORK/platform"
  pport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  say "starting a local platform on port $pport"
  "$PYTHON_BIN" "$ROOT/scripts/local_platform.py" start --port "$pport" --data-dir "$PLATFORM_DATA" >"$WORK/platform-start.log" 2>&1 ||
    { cat "$WORK/platform-start.log"; exit 1; }
  export EVALSUBMIT_E2E_PLATFORM_URL="http://127.0.0.1:$pport"
  export EVALSUBMIT_E2E_WORKSPACE="${EVALSUBMIT_E2E_WORKSPACE:-evalsubmit-e2e}"
  ref=$("$PYTHON_BIN" "$ROOT/scripts/local_platform.py" seed --base-url "$EVALSUBMIT_E2E_PLATFORM_URL" \
    --workspace "$EVALSUBMIT_E2E_WORKSPACE" --taskset "${EVALSUBMIT_E2E_TASKSET:-smoke}")
  export EVALSUBMIT_E2E_TASKSET="$ref"
  # a decoy in the default workspace: the prompt must list the code's workspace, not this one
  "$PYTHON_BIN" "$ROOT/scripts/local_platform.py" seed --base-url "$EVALSUBMIT_E2E_PLATFORM_URL" \
    --workspace default --taskset decoy >/dev/null
  EVALSUBMIT_E2E_COMPLETED_JOB=$("$PYTHON_BIN" "$ROOT/scripts/local_platform.py" complete-job \
    --base-url "$EVALSUBMIT_E2E_PLATFORM_URL" --workspace "$EVALSUBMIT_E2E_WORKSPACE" --taskset "$ref")
  export EVALSUBMIT_E2E_COMPLETED_JOB
fi

say "installing the .vsix into a temp extensions dir"
"$CS_BIN" --user-data-dir "$WORK/user-data" --extensions-dir "$WORK/extensions" \
  --install-extension "$VSIX" >"$WORK/install-ext.log" 2>&1 || { cat "$WORK/install-ext.log"; exit 1; }

# workspace files and user settings (none of evalsubmit) are written by the driver's helper
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
node "$CLIENT/e2e/prepare.mjs" "$WORK"
# The project's own environment: a .venv in the workspace (no pip, about 1 s) with one fake
# installed distribution, an old nemo-platform: once the workspace is trusted the server reads
# it (ES111 notes the version), never before.
/usr/bin/python3 -m venv --without-pip "$WORK/workspace/.venv"
site=$("$WORK/workspace/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
mkdir -p "$site/nemo_platform" "$site/nemo_platform-0.0.1.dist-info"
echo '# a stand-in for nemo-platform 0.0.1: only its metadata is read' >"$site/nemo_platform/__init__.py"
printf 'Metadata-Version: 2.1\nName: nemo-platform\nVersion: 0.0.1\n\n' >"$site/nemo_platform-0.0.1.dist-info/METADATA"

# A PATH whose Pythons know nothing of evalsubmit: a fresh venv first, then the system's.
/usr/bin/python3 -m venv --without-pip "$WORK/clean-python"
CLEAN_PATH="$WORK/clean-python/bin:$(dirname "$(command -v node)"):/usr/bin:/bin"
for py in python3 python python3.15 python3.14 python3.13 python3.12 python3.11; do
  exe=$(PATH="$CLEAN_PATH" command -v "$py" || true)
  [ -n "$exe" ] || continue
  if "$exe" -c 'import evalsubmit' 2>/dev/null; then
    echo "vscode-e2e: $exe can import evalsubmit; the first-install step needs a clean PATH" >&2; exit 1
  fi
  say "on the extension host's PATH: $py -> $exe ($("$exe" -c 'import sys; print(sys.version.split()[0])'))"
done
cat >"$WORK/config.yaml" <<YAML
bind-addr: 127.0.0.1:$PORT
auth: none
cert: false
YAML

say "starting code-server on 127.0.0.1:$PORT"
# VSCODE_CLI=1: the server keeps this environment instead of asking a login shell for one
# (whose ~/.bashrc would put pyenv's Pythons back on PATH).
PATH="$CLEAN_PATH" VSCODE_CLI=1 setsid "$CS_BIN" --config "$WORK/config.yaml" --user-data-dir "$WORK/user-data" \
  --extensions-dir "$WORK/extensions" --disable-telemetry --disable-update-check \
  --ignore-last-opened "$WORK/workspace" >"$WORK/code-server.log" 2>&1 &
CS_PID=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  kill -0 "$CS_PID" 2>/dev/null || { cat "$WORK/code-server.log"; exit 1; }
  sleep 0.2
done

say "driving chromium"
node "$CLIENT/e2e/run.mjs" --port "$PORT" --work "$WORK" --artifacts "$ART"
say "done"
