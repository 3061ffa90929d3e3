// mcp.test.mjs: `agent-desktop mcp` through the official MCP client SDKs (node:test).
// Run by tests/mcp/run.sh with AD_BIN set; prints TAP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import Ajv2020 from 'ajv/dist/2020.js';
import {
  AD_BIN, alive, allTools, childrenOf, connectLegacy, connectModern, envelopeOf, waitUntil,
} from './clients.mjs';

// The child agent-desktop processes of the server running `command`.
const callsOf = (pid, command) =>
  childrenOf(pid).filter((c) => c.argv.includes(command) && c.argv.includes('--'));

// The first child of the server running `command`, once it runs.
const runningCall = async (pid, command) => (await waitUntil(() => {
  const c = callsOf(pid, command);
  return c.length ? c : null;
}, `the ${command} child`))[0];

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {} };

// A server on raw pipes with one long `wait` call running: {server, exited, child}.
async function serverWithRunningWait() {
  const server = spawn(AD_BIN, ['mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
    params: { _meta: MODERN_META, name: 'desktop_wait', arguments: { ms: 60000 } } }) + '\n');
  return { server, exited, child: await runningCall(server.pid, 'wait') };
}

test('both SDKs list the same tools; every input schema compiles', async () => {
  const legacy = await connectLegacy();
  const modern = await connectModern();
  try {
    const a = await allTools(legacy.client);
    const b = await allTools(modern.client);
    assert.ok(a.pages >= 2, 'the list is paged through a cursor');
    assert.deepStrictEqual(a.tools.map((t) => t.name), b.tools.map((t) => t.name));
    const names = a.tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length, 'names are unique');
    for (const n of ['desktop_snapshot', 'desktop_list_windows', 'desktop_session_start',
      'desktop_skills_get', 'desktop_trace_show', 'desktop_click', 'desktop_version'])
      assert.ok(names.includes(n), n);
    assert.ok(!names.includes('desktop_session'), 'a subcommand command is one tool per action');
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const t of a.tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.equal(t.inputSchema.additionalProperties, false, t.name);
      ajv.compile(t.inputSchema); // throws on an invalid schema
    }
    const byName = Object.fromEntries(a.tools.map((t) => [t.name, t]));
    const snap = byName.desktop_snapshot;
    assert.equal(snap.inputSchema.properties.interactive_only.type, 'boolean');
    assert.deepStrictEqual(snap.inputSchema.properties.max_depth,
      { ...snap.inputSchema.properties.max_depth, type: 'integer', minimum: 0, maximum: 50 });
    assert.equal(snap.annotations.readOnlyHint, true);
    assert.equal(byName.desktop_click.annotations.readOnlyHint, false);
    assert.deepStrictEqual(byName.desktop_click.inputSchema.required, ['ref_id']);
    assert.equal(byName.desktop_close_app.annotations.destructiveHint, true);
    assert.equal(byName.desktop_version.annotations.openWorldHint, false);
    assert.equal(byName.desktop_snapshot.annotations.openWorldHint, true);
    assert.ok(!('action' in byName.desktop_skills_get.inputSchema.properties));
    assert.ok('name' in byName.desktop_skills_get.inputSchema.properties);
    // A valid call validates against the schema, a wrong type does not.
    const check = ajv.compile(snap.inputSchema);
    assert.ok(check({ app: 'x', interactive_only: true }));
    assert.ok(!check({ app: 'x', bogus: 1 }));
  } finally {
    await legacy.client.close();
    await modern.client.close();
  }
});

test('legacy: initialize answers the version and points to the skills', async () => {
  const { client } = await connectLegacy();
  try {
    assert.equal(client.getServerVersion().name, 'agent-desktop');
    assert.match(client.getInstructions(), /desktop_skills_get/);
  } finally {
    await client.close();
  }
});

test('modern: server/discover with both eras; version and skills calls', async () => {
  const { client, seen } = await connectModern([], 'auto');
  try {
    const d = await client.discover();
    assert.ok(d.supportedVersions.includes('2026-07-28'));
    assert.ok(d.supportedVersions.includes('2025-11-25'));
    const rawDiscover = seen.find((m) => m.result?.supportedVersions);
    assert.equal(rawDiscover.result.resultType, 'complete', 'on the wire');
    assert.equal(d.cacheScope, 'public');
    assert.ok(d.ttlMs > 0);
    assert.equal(d._meta['io.modelcontextprotocol/serverInfo'].name, 'agent-desktop');
    assert.match(d.instructions, /desktop_skills_get/);
    const v = envelopeOf(await client.callTool({ name: 'desktop_version', arguments: {} }));
    assert.equal(v.ok, true);
    assert.equal(v.command, 'version');
    const raw = seen.find((m) => m.result && m.result.structuredContent?.command === 'version');
    assert.equal(raw.result.resultType, 'complete', 'every modern result is complete');
    const s = envelopeOf(await client.callTool({ name: 'desktop_skills_get',
      arguments: { name: 'desktop' } }));
    assert.equal(s.ok, true);
    assert.match(s.data.content, /agent-desktop/);
  } finally {
    await client.close();
  }
});

test('legacy: version, skills; errors name the argument; a value is never a flag', async () => {
  const { client } = await connectLegacy();
  try {
    const v = envelopeOf(await client.callTool({ name: 'desktop_version', arguments: {} }));
    assert.equal(v.data.version.length > 0, true);
    const unknown = await client.callTool({ name: 'desktop_skills_get',
      arguments: { name: 'desktop', bogus: 1 } });
    assert.equal(unknown.isError, true);
    const u = envelopeOf(unknown);
    assert.equal(u.error.code, 'INVALID_ARGS');
    assert.equal(u.error.details.argument, 'bogus');
    assert.match(u.error.message, /accepts: name, reference, full/);
    // A global flag is not a tool argument.
    const g = envelopeOf(await client.callTool({ name: 'desktop_version',
      arguments: { session: 'other' } }));
    assert.equal(g.error.details.argument, 'session');
    const typed = envelopeOf(await client.callTool({ name: 'desktop_snapshot',
      arguments: { max_depth: 'deep' } }));
    assert.equal(typed.error.code, 'INVALID_ARGS');
    assert.equal(typed.error.details.argument, 'max_depth');
    // "--help" is the skill's name, not the help flag: the command looks the skill up.
    const h = envelopeOf(await client.callTool({ name: 'desktop_skills_get',
      arguments: { name: '--help' } }));
    assert.equal(h.error.code, 'INVALID_ARGS');
    assert.match(h.error.message, /Unknown skill '--help'/);
    // A null argument is omitted.
    const n = envelopeOf(await client.callTool({ name: 'desktop_skills_get',
      arguments: { name: 'desktop', full: null, reference: null } }));
    assert.equal(n.ok, true);
    // An unknown tool is a protocol error.
    await assert.rejects(client.callTool({ name: 'desktop_nope', arguments: {} }),
      /Unknown tool/);
  } finally {
    await client.close();
  }
});

test('cancellation: no response, the child is gone, the server answers on', async () => {
  const { client, seen, pid } = await connectLegacy();
  try {
    const ac = new AbortController();
    const call = client.callTool({ name: 'desktop_wait', arguments: { ms: 60000 } },
      undefined, { signal: ac.signal, timeout: 120000 });
    const child = await runningCall(pid, 'wait');
    const before = seen.length;
    ac.abort('test');
    await assert.rejects(call);
    await waitUntil(() => !alive(child.pid), 'the cancelled child to end');
    // Ordering canary: a call made after the cancellation has returned.
    envelopeOf(await client.callTool({ name: 'desktop_version', arguments: {} }));
    const late = seen.slice(before).filter((m) => m.result?.structuredContent?.command === 'wait' ||
      m.error?.data?.command === 'wait');
    assert.deepStrictEqual(late, [], 'no response for the cancelled call');
  } finally {
    await client.close();
  }
});

test('at most 8 calls at once; the ninth is a tool error', async () => {
  const { client, pid } = await connectModern();
  try {
    const acs = [];
    const calls = [];
    for (let i = 0; i < 8; i++) {
      const ac = new AbortController();
      acs.push(ac);
      calls.push(client.callTool({ name: 'desktop_wait', arguments: { ms: 60000 } },
        { signal: ac.signal, timeout: 120000 }).catch(() => 'cancelled'));
    }
    await waitUntil(() => callsOf(pid, 'wait').length === 8, 'eight running calls');
    const ninth = await client.callTool({ name: 'desktop_version', arguments: {} });
    assert.equal(ninth.isError, true);
    assert.match(envelopeOf(ninth).error.message, /already runs 8 tool calls/);
    const pids = callsOf(pid, 'wait').map((c) => c.pid);
    for (const ac of acs) ac.abort('test');
    await Promise.all(calls);
    await waitUntil(() => pids.every((p) => !alive(p)), 'every cancelled child to end');
    const after = envelopeOf(await client.callTool({ name: 'desktop_version', arguments: {} }));
    assert.equal(after.ok, true, 'a slot is free again');
  } finally {
    await client.close();
  }
});

test('end of input: the server ends its children and exits 0', async () => {
  const { server, exited, child } = await serverWithRunningWait();
  server.stdin.end();
  assert.equal(await exited, 0);
  assert.equal(alive(child.pid), false, 'the child ended with the server');
});

test('a message over 4 MiB is refused and the server goes on', async () => {
  const server = spawn(AD_BIN, ['mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  server.stdout.on('data', (d) => { out += d; });
  const meta = MODERN_META;
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping',
    params: { _meta: meta, pad: 'x'.repeat(5 * 1024 * 1024) } });
  server.stdin.write(big + '\n');
  server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping',
    params: { _meta: meta } }) + '\n');
  server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }) + '\n');
  await waitUntil(() => out.split('\n').filter(Boolean).length >= 3, 'three answers');
  server.stdin.end();
  const lines = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.equal(lines[0].error.code, -32600);
  assert.equal(lines[0].id, null);
  assert.deepStrictEqual(lines[1], { jsonrpc: '2.0', id: 2, result: { resultType: 'complete' } });
  assert.equal(lines[2].error.code, -32602, 'a modern request without clientCapabilities');
});

test('the server\'s global flags reach every call; per-call flags are refused', async () => {
  const { client, pid } = await connectLegacy(['--session', 'mcp-test', '--headed']);
  try {
    const ac = new AbortController();
    const call = client.callTool({ name: 'desktop_wait', arguments: { ms: 60000 } },
      undefined, { signal: ac.signal, timeout: 120000 }).catch(() => 'cancelled');
    const child = await runningCall(pid, 'wait');
    // Read from /proc: the globals come before the command, the value after "--".
    assert.deepStrictEqual(child.argv.slice(1), ['--headed', '--session=mcp-test', 'wait', '--',
      '60000']);
    ac.abort('test');
    await call;
  } finally {
    await client.close();
  }
  const refused = spawn(AD_BIN, ['mcp', '--wait-for', 'x'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  refused.stdout.on('data', (d) => { out += d; });
  const code = await new Promise((resolve) => refused.on('exit', resolve));
  assert.equal(code, 2);
  assert.equal(out, '', 'stdout carries only JSON-RPC');
});

test('a call whose child crashes is a tool error; the server lives on', async () => {
  const { client, pid } = await connectModern();
  try {
    const call = client.callTool({ name: 'desktop_wait', arguments: { ms: 60000 } },
      { timeout: 120000 });
    const child = await runningCall(pid, 'wait');
    // An abort: ASan builds turn SIGSEGV into a report and exit 1, but let SIGABRT kill.
    process.kill(child.pid, 'SIGABRT');
    const crashed = await call;
    assert.equal(crashed.isError, true);
    const env = envelopeOf(crashed);
    assert.equal(env.error.code, 'INTERNAL');
    assert.match(env.error.message, /signal 6/);
    assert.equal(envelopeOf(await client.callTool({ name: 'desktop_version',
      arguments: {} })).ok, true);
  } finally {
    await client.close();
  }
});

test('SIGTERM to the server ends it like end of input: children first, exit 0', async () => {
  const { server, exited, child } = await serverWithRunningWait();
  server.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.equal(alive(child.pid), false, 'the child did not outlive the server');
  server.stdin.destroy();
});
