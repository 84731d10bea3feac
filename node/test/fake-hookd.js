// A stand-in for hookd that asks its host to call an MCP tool on every
// hooks/run and reports what came back, with a hooks/status notification
// around the call. It lets the suite check the host side of mcp/callTool
// whatever the hookd build under test supports.
'use strict';

const rpc = require('vscode-jsonrpc/node');

const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));

conn.onRequest('initialize', () => ({
  serverInfo: { name: 'fake-hookd', version: '0' },
  protocolVersion: 1,
  profile: 'codex',
  session: { id: 'fake', spillDir: '/tmp/hook_outputs/fake' },
  capabilities: { events: ['PreToolUse'], handlerTypes: ['command', 'mcp_tool'] },
  hooks: { installed: 1, runnable: 1, warnings: 0 },
}));

conn.onRequest('hooks/run', async (/** @type {any} */ params) => {
  const status = { runId: 'r1', hook: 'fake:pre_tool_use:0:0', statusMessage: 'Asking policy' };
  await conn.sendNotification('hooks/status', { ...status, state: 'started' });
  let reason;
  try {
    const result = await conn.sendRequest('mcp/callTool', { server: 'policy', tool: 'check', arguments: params.input, timeoutMs: 5000 });
    reason = JSON.stringify(result);
  } catch (err) {
    const e = /** @type {any} */ (err);
    reason = `error ${e.code}: ${e.message}`;
  }
  await conn.sendNotification('hooks/status', { ...status, state: 'finished' });
  return { event: params.event, decision: 'none', reason, continue: true, hooks: [], skipped: [] };
});

conn.onRequest('shutdown', () => null);
conn.onNotification('exit', () => process.exit(0));
conn.listen();
