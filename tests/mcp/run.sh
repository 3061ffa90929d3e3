#!/usr/bin/env bash
# run.sh: the MCP client tests (node:test, TAP on stdout). Installs the pinned SDKs from
# package-lock.json into tests/mcp/node_modules first. Needs AD_BIN. A sanitizer report from
# the server or any of its children (an ASan build's stderr reaches the test output) fails
# the run, since a child's exit status after its envelope is not checked by the server.
set -uo pipefail
cd "$(dirname "$0")"
bash ./install.sh >&2 || { echo "not ok 1 - npm ci"; exit 1; }
out=$(mktemp "${TMPDIR:-/tmp}/ad-mcp-test.XXXXXX")
node --test --test-reporter=tap --test-concurrency=1 mcp.test.mjs >"$out" 2>&1
st=$?
cat "$out"
if grep -Eq 'Sanitizer|runtime error:' "$out"; then
  echo "not ok - a sanitizer report in the server or a child (above)"
  st=1
fi
rm -f "$out"
exit $st
