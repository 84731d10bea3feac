// Compile-time checks of protocol.d.ts: the examples of the protocol page
// (docs/protocol.md), written as values of their types. `tsc --noEmit`
// (npm run typecheck, run by TestNodeHost_TypesCompile) fails when a type and
// the documented wire shape drift apart. Nothing here runs.

import type * as P from './protocol';

export const initializeParams: P.InitializeParams = {
  processId: 4242,
  clientInfo: { name: 'my-agent', version: '1.2.0' },
  profile: 'codex',
  session: {
    id: 'sess_01',
    cwd: '/home/u/src/repo',
    transcriptPath: '/home/u/.codex/sessions/2026/11/29/session-sess_01.jsonl',
    model: 'gpt-5',
    permissionMode: 'default',
  },
  config: {
    home: '/home/u/.codex',
    project: { root: '/home/u/src/repo', trusted: true },
    plugins: [{ root: '/srv/plugins/repo-policy', name: 'repo-policy', marketplace: 'local', enabled: true, dataDir: null }],
    pluginDirs: ['/home/u/.codex/plugins/cache'],
    managed: { requirements: '/etc/codex/requirements.toml' },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '...' }] }] },
    bypassTrust: false,
    features: { hookCommandRewrite: false },
  },
};

export const initializeResult: P.InitializeResult = {
  serverInfo: { name: 'hookd', version: '0.1.0' },
  protocolVersion: 1,
  profile: 'codex',
  session: { id: 'sess_01', spillDir: '/tmp/hook_outputs/sess_01' },
  capabilities: { events: ['SessionStart', 'PreToolUse'], handlerTypes: ['command', 'mcp_tool'] },
  hooks: { installed: 7, runnable: 4, warnings: 1 },
};

export const listParams: P.ListParams = { event: 'PreToolUse' };

export const listResult: P.ListResult = {
  hooks: [
    {
      key: 'repo-policy@local:hooks/hooks.json:pre_tool_use:0:0',
      event: 'PreToolUse',
      matcher: 'Bash',
      source: { layer: 'plugin', path: '/home/u/.codex/plugins/repo-policy/hooks/hooks.json', plugin: 'repo-policy' },
      handler: { type: 'command', command: '...', timeout: 600, async: false, statusMessage: null },
      hash: 'sha256:...',
      trust: 'untrusted',
      enabled: true,
      runnable: false,
    },
  ],
  warnings: [{ source: '/home/u/.codex/hooks.json', message: 'ignoring unknown field "x" (line 3, column 7)', event: 'Stop', group: 0, handler: 1 }],
};

export const trust: [P.TrustParams, P.TrustResult] = [
  { keys: ['/home/u/.codex/hooks.json:stop:0:0'] },
  { trusted: [{ key: '/home/u/.codex/hooks.json:stop:0:0', hash: 'sha256:...' }] },
];

export const setEnabled: [P.SetEnabledParams, P.SetEnabledResult] = [
  { key: '/home/u/.codex/hooks.json:stop:0:0', enabled: false },
  { key: '/home/u/.codex/hooks.json:stop:0:0', enabled: false },
];

export const activateSkill: [P.ActivateSkillParams, P.ActivateSkillResult] = [
  { name: 'guard' },
  { name: 'guard', hooks: ['/home/u/.claude/skills/guard/SKILL.md:pre_tool_use:0:0'], active: ['guard'] },
];

export const scopedHook: P.HookInfo['scope'] = {
  kind: 'skill',
  name: 'guard',
  path: '/home/u/.claude/skills/guard/SKILL.md',
  active: true,
  once: true,
};

export const reload: P.HostRequests['hooks/reload']['result'] = { installed: 7, runnable: 4, warnings: 1 };

export const runParams: P.RunParams = {
  event: 'PreToolUse',
  turnId: 't3',
  input: { tool_name: 'Bash', tool_use_id: 'call_1', tool_input: { command: 'rm -rf /' } },
};

// The result example with its nulls, as docs/protocol.md shows it.
export const runResult: P.RunResult = {
  event: 'PreToolUse',
  decision: 'deny',
  reason: 'Destructive command blocked by hook.',
  updatedInput: null,
  permission: null,
  continue: true,
  stopReason: null,
  feedback: null,
  continuation: null,
  additionalContext: [{ hook: '<key>', text: 'preview or full text', spilled: '/tmp/hook_outputs/sess_01/9b1d.txt', bytes: 120000 }],
  systemMessages: [{ hook: '<key>', text: '...' }],
  hooks: [{ key: '<key>', status: 'blocked', exitCode: 2, durationMs: 14, error: null, stderr: '...', async: false }],
  skipped: [{ key: '<key>', reason: 'untrusted' }],
};

// docs/protocol.md's example, every field present.
export const runResultFull: P.RunResult = {
  event: 'PreToolUse',
  decision: 'deny',
  reason: 'Destructive command blocked by hook.',
  updatedInput: { command: '...' },
  permission: { behavior: 'deny', message: '...' },
  continue: true,
  stopReason: '...',
  feedback: '...',
  continuation: '...',
  additionalContext: [{ hook: '<key>', text: '...' }],
  systemMessages: [{ hook: '<key>', text: '...' }],
  hooks: [{ key: '<key>', status: 'blocked', exitCode: 0, durationMs: 14, error: null, stderr: '...', async: false, stdoutDropped: 0, stderrDropped: 0 }],
  skipped: [{ key: '<key>', reason: 'untrusted' }],
};

export const asyncResult: P.AsyncResult = {
  runId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
  hook: '<key>',
  event: 'PostToolUse',
  additionalContext: [{ hook: '<key>', text: 'lint: 2 warnings' }],
  systemMessages: [],
  status: 'succeeded',
  error: null,
  exitCode: 0,
  durationMs: 120,
};

export const takePending: P.TakePendingResult = { results: [asyncResult], dropped: 0 };

export const shutdown: P.HostRequests['shutdown']['result'] = null;

export const cancel: P.HostNotifications['$/cancelRequest'] = { id: 7 };

export const callTool: [P.CallToolParams, P.CallToolResult] = [
  { server: 'policy', tool: 'check_command', arguments: { command: 'rm -rf /' }, timeoutMs: 30000 },
  {
    content: [{ type: 'text', text: '{"decision":"block","reason":"no"}' }],
    structuredContent: { decision: 'block', reason: 'no' },
    isError: false,
  },
];

export const notifications: { [M in keyof P.HookdNotifications]: P.HookdNotifications[M] } = {
  'window/logMessage': { type: 2, message: '/home/u/.codex/hooks.json: ignoring unknown field "x"' },
  'hooks/status': { runId: 'r1', hook: '<key>', statusMessage: 'Checking command', state: 'started' },
  'hooks/asyncCompleted': asyncResult,
  'hooks/changed': { installed: 8, runnable: 4, warnings: 0 },
};

export const hooksFile: P.HooksFile = {
  description: 'demo',
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'sh guard.sh', timeout: 10, statusMessage: 'Checking command' }] },
      { matcher: 'Edit|Write', hooks: [{ type: 'mcp_tool', server: 'policy', tool: 'check_patch', input: { patch: '${tool_input.command}' } }] },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'sh stop.sh', async: false }] }],
  },
};

// @ts-expect-error: a decision hookd never sends.
export const badDecision: P.Decision = 'maybe';

// @ts-expect-error: a command handler needs its command.
export const badHandler: P.HandlerConfig = { type: 'command' };
