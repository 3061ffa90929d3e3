#!/usr/bin/env bash
# install.sh: installs the pinned MCP SDKs and ajv (package-lock.json) into node_modules,
# once: again only when the lockfile changed.
set -euo pipefail
cd "$(dirname "$0")"
command -v npm >/dev/null || { echo "install.sh: npm is missing (scripts/install-deps.sh)" >&2; exit 1; }
stamp=node_modules/.lock-stamp
if [[ -f $stamp ]] && cmp -s package-lock.json "$stamp"; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json "$stamp"
