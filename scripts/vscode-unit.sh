#!/usr/bin/env bash
# Type-checks and unit-tests the VS Code extension (vitest, mocked vscode module), and packages
# the .vsix. npm's cache lives in .cache/npm; `npm ci` runs only when the lock file changed.
# The bundled server (scripts/bundle_server.py: wheels from PyPI, cached in .cache/bundle-wheels)
# is built first: a unit test installs it for real. The settings test runs
# `.venv/bin/python -m evalsubmit.lsp.settings --schema` (make setup).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT/vscode-client"
export npm_config_cache="$ROOT/.cache/npm"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --prefer-offline --loglevel=error
fi
PY="$ROOT/.venv/bin/python"
[ -x "$PY" ] || PY=python3
npm run -s typecheck
"$PY" "$ROOT/scripts/bundle_server.py" 2>&1 | grep -v "^WARNING: Location" || true
[ -f bundled/manifest.json ] || { echo "vscode-unit: bundling the server failed" >&2; exit 1; }
npx vitest run
if [ "${1:-}" = "--package" ]; then
  npm run -s package
fi
