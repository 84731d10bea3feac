// The host side of hookd -> host traffic (mcp/callTool requests, hooks/status
// notifications), against a stand-in hookd that always sends them.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { startHookd, ResponseError } = require('../index');

/**
 * @param {import('node:test').TestContext} t
 * @param {import('../index').CallTool} [callTool]
 */
async function startFake(t, callTool) {
  const hookd = await startHookd({ bin: process.execPath, args: [path.join(__dirname, 'fake-hookd.js')], callTool });
  t.after(() => hookd.kill());
  await hookd.initialize({});
  return hookd;
}

test('callTool answers mcp/callTool and status notifications arrive around it', async (t) => {
  /** @type {import('../protocol').StatusParams[]} */
  const statuses = [];
  /** @type {import('../protocol').CallToolParams[]} */
  const calls = [];
  const hookd = await startFake(t, (params) => {
    calls.push(params);
    return { content: [{ type: 'text', text: 'ok' }], structuredContent: { decision: 'block', reason: 'policy' } };
  });
  hookd.onStatus((s) => statuses.push(s));
  const res = await hookd.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
  assert.deepEqual(calls, [{ server: 'policy', tool: 'check', arguments: { tool_name: 'Bash', tool_input: { command: 'ls' } }, timeoutMs: 5000 }]);
  assert.deepEqual(JSON.parse(res.reason ?? ''), { content: [{ type: 'text', text: 'ok' }], structuredContent: { decision: 'block', reason: 'policy' } });
  assert.deepEqual(statuses.map((s) => s.state), ['started', 'finished']);
  assert.equal(statuses[0].statusMessage, 'Asking policy');
  assert.equal(await hookd.shutdown(), 0);
});

test('a host without callTool answers -32601', async (t) => {
  const hookd = await startFake(t);
  const res = await hookd.run('PreToolUse', {});
  assert.match(res.reason ?? '', /^error -32601: /);
});

test('a callTool that throws answers a JSON-RPC error', async (t) => {
  const hookd = await startFake(t, () => {
    throw new ResponseError(-32001, 'server policy is not connected');
  });
  const res = await hookd.run('PreToolUse', {});
  assert.equal(res.reason, 'error -32001: server policy is not connected');
});
