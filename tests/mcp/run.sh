#!/usr/bin/env bash
# run.sh: the MCP client tests (node:test, TAP on stdout). Installs the pinned SDKs from
# package-lock.json into tests/mcp/node_modules first. Needs AD_BIN; the desktop only for
# the calls that read apps (scripts/test.sh runs it on its private desktop).
set -uo pipefail
cd "$(dirname "$0")"
bash ./install.sh >&2 || { echo "not ok 1 - npm ci"; exit 1; }
exec node --test --test-reporter=tap --test-concurrency=1 mcp.test.mjs
