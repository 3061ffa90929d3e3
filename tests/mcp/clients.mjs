// clients.mjs: the two official MCP client SDKs connected to `agent-desktop mcp`, plus
// independent reads of the server's child processes through /proc.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';

export const AD_BIN = process.env.AD_BIN;
if (!AD_BIN) throw new Error('set AD_BIN to the agent-desktop binary');

// Every message the server sent, read at the transport, so a test can prove one never came.
function spy(transport) {
  const seen = [];
  const wrap = () => {
    const orig = transport.onmessage;
    transport.onmessage = (msg, extra) => { seen.push(msg); if (orig) orig(msg, extra); };
  };
  return { seen, wrap };
}

async function connect(ClientClass, TransportClass, options, args) {
  const transport = new TransportClass({
    command: AD_BIN, args: ['mcp', ...args], env: { ...process.env }, stderr: 'inherit',
  });
  const client = new ClientClass({ name: 'ad-mcp-test', version: '1.0.0' }, options);
  const s = spy(transport);
  await client.connect(transport);
  s.wrap();
  return { client, transport, seen: s.seen, pid: transport.pid };
}

// @modelcontextprotocol/sdk 1.32: the initialize handshake of 2025-11-25.
export function connectLegacy(args = []) {
  return connect(LegacyClient, LegacyStdio, {}, args);
}

// @modelcontextprotocol/client 2.4: the stateless 2026-07-28 protocol (pinned, or `auto`
// to probe with server/discover first).
export function connectModern(args = [], mode = { pin: '2026-07-28' }) {
  return connect(ModernClient, ModernStdio, { versionNegotiation: { mode } }, args);
}

// The pids whose parent is `ppid`, with their command lines.
export function childrenOf(ppid) {
  const out = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== ppid || fields[0] === 'Z') continue;
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      out.push({ pid: Number(name), argv: cmdline.filter((a) => a !== '') });
    } catch { /* gone meanwhile */ }
  }
  return out;
}

export function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch { return false; }
}

export async function waitUntil(pred, what, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Every tool, following nextCursor page by page.
export async function allTools(client) {
  const tools = [];
  let cursor;
  let pages = 0;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { tools, pages };
}

// The envelope of a tool result: structuredContent, checked against its text twin.
export function envelopeOf(result) {
  const text = result.content.find((c) => c.type === 'text');
  const env = result.structuredContent;
  assert.ok(text, 'a text block: ' + JSON.stringify(result));
  assert.deepStrictEqual(JSON.parse(text.text), env);
  assert.equal(result.isError, env.ok === false);
  return env;
}
