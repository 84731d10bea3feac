// @hookd/hookd: the Node client for hookd. Spawns the sidecar (the binary from
// this platform's @hookd/<platform>-<arch> package), talks JSON-RPC 2.0 over
// its stdin and stdout with vscode-jsonrpc (LSP framing), answers its
// mcp/callTool requests, receives its notifications, and shuts it down.
//
//   import { startHookd } from '@hookd/hookd';  // CommonJS: require('@hookd/hookd'), in an async function
//   const hookd = await startHookd({ callTool: (p) => mcp.callTool(p) });
//   await hookd.initialize({ processId: process.pid, session: { cwd: repo } });
//   const res = await hookd.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
//   if (res.decision === 'deny') refuse(res.reason);
//   await hookd.shutdown();
//
// Types: protocol.d.ts (the wire protocol) and index.d.ts (this module), checked
// with this file by `npm run typecheck`.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const rpc = require('vscode-jsonrpc/node');

/** The platforms a @hookd/<platform>-<arch> package exists for (process.platform-process.arch). */
const PLATFORMS = Object.freeze(['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64']);

/**
 * Finds the hookd binary: $HOOKD_PATH when set, else the binary in this
 * platform's optional dependency (@hookd/linux-x64 and so on), else `hookd`
 * on PATH. Throws an error that names each place it looked.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
function resolveHookd(env = process.env) {
  const exe = process.platform === 'win32' ? 'hookd.exe' : 'hookd';
  if (env.HOOKD_PATH) {
    if (!isFile(env.HOOKD_PATH)) throw new Error(`HOOKD_PATH is ${env.HOOKD_PATH}, which is not a file`);
    return env.HOOKD_PATH;
  }
  const platform = `${process.platform}-${process.arch}`;
  const pkg = `@hookd/${platform}`;
  let why;
  try {
    const bin = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin', exe);
    if (isFile(bin)) return bin;
    why = `${bin} is missing`;
  } catch {
    why = PLATFORMS.includes(platform)
      ? 'it is not installed (was @hookd/hookd installed with --omit=optional or --no-optional?)'
      : `hookd has no binary package for ${platform} (there are: ${PLATFORMS.join(', ')})`;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isFile(path.join(dir, exe))) return path.join(dir, exe);
  }
  throw new Error(`cannot find the hookd binary: HOOKD_PATH is not set; ${pkg}: ${why}; no ${exe} on PATH. ` +
    'Reinstall @hookd/hookd with optional dependencies, or set HOOKD_PATH to a hookd binary.');
}

/** @param {string} file */
function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * @typedef {import('./protocol').HostRequests} HostRequests
 * @typedef {import('./protocol').HookdNotifications} HookdNotifications
 * @typedef {import('./protocol').InitializeParams} InitializeParams
 * @typedef {import('./protocol').InitializeResult} InitializeResult
 * @typedef {import('./protocol').RunResult} RunResult
 * @typedef {import('./protocol').ListResult} ListResult
 * @typedef {import('./protocol').HooksSummary} HooksSummary
 * @typedef {import('./protocol').TrustResult} TrustResult
 * @typedef {import('./protocol').SetEnabledResult} SetEnabledResult
 * @typedef {import('./protocol').ActivateSkillResult} ActivateSkillResult
 * @typedef {import('./protocol').TakePendingResult} TakePendingResult
 * @typedef {import('./protocol').CallToolParams} CallToolParams
 * @typedef {import('./protocol').CallToolResult} CallToolResult
 * @typedef {import('./protocol').EventName} EventName
 * @typedef {import('./protocol').JSONObject} JSONObject
 */

/**
 * Answers hookd's mcp/callTool requests with the host's own MCP connection.
 * Throw a ResponseError (or any Error) to answer with a JSON-RPC error.
 * @callback CallTool
 * @param {CallToolParams} params
 * @param {rpc.CancellationToken} token cancelled when hookd gives up
 * @returns {Promise<CallToolResult> | CallToolResult}
 */

/**
 * @typedef {object} StartOptions
 * @property {string} [bin] the hookd binary (default: resolveHookd())
 * @property {string[]} [args] arguments (default ['serve'])
 * @property {string} [cwd] hookd's working directory
 * @property {NodeJS.ProcessEnv} [env] hookd's environment (default: this process's)
 * @property {'inherit' | 'ignore' | ((text: string) => void)} [stderr]
 *   where hookd's logs go (default 'inherit'); a function receives them as text.
 * @property {CallTool} [callTool] answers mcp/callTool; without it hookd gets -32601
 *   and the mcp_tool hook fails (fail-open).
 */

/** Error codes hookd answers with (see ErrorCode in hookd.d.ts). */
const ErrorCodes = Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerNotInitialized: -32002,
  RequestCancelled: -32800,
});

/**
 * Spawns hookd and connects to it. Resolves once the process has started;
 * rejects when it cannot be spawned (for example ENOENT).
 * @param {StartOptions} [options]
 * @returns {Promise<HookdClient>}
 */
async function startHookd(options = {}) {
  const bin = options.bin ?? resolveHookd(options.env ?? process.env);
  const stderr = options.stderr ?? 'inherit';
  const child = spawn(bin, options.args ?? ['serve'], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', typeof stderr === 'function' ? 'pipe' : stderr],
  });
  await new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  if (typeof stderr === 'function' && child.stderr) {
    // Always drain stderr: a full pipe would block hookd.
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', stderr);
  }
  return new HookdClient(child, options.callTool);
}

/** One running hookd process and its JSON-RPC connection. */
class HookdClient {
  /**
   * Use startHookd; the constructor takes an already spawned child.
   * @param {import('node:child_process').ChildProcess} child
   * @param {CallTool} [callTool]
   */
  constructor(child, callTool) {
    if (!child.stdout || !child.stdin) throw new Error('hookd must be spawned with piped stdin and stdout');
    /** @readonly */
    this.child = child;
    /**
     * hookd's exit code once it has exited (null when killed by a signal).
     * @type {Promise<number | null>}
     */
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
    // Writing to a hookd that has died must not crash the host: the pending
    // requests are rejected when the connection closes instead.
    child.stdin.on('error', () => {});
    /** @readonly */
    this.connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(child.stdout),
      new rpc.StreamMessageWriter(child.stdin),
    );
    this.connection.onRequest('mcp/callTool', async (params, token) => {
      if (!callTool) {
        throw new rpc.ResponseError(ErrorCodes.MethodNotFound, 'this host does not call MCP tools');
      }
      return callTool(/** @type {CallToolParams} */ (params), token);
    });
    this.connection.onClose(() => this.connection.dispose());
    this.connection.listen();
  }

  /** hookd's process id. */
  get pid() {
    return this.child.pid;
  }

  /**
   * Sends a request and resolves with its result. A JSON-RPC error rejects
   * with a ResponseError (`err.code`). Aborting `signal` (or cancelling
   * `token`) sends $/cancelRequest; hookd then answers -32800.
   * @template {keyof HostRequests} M
   * @param {M} method
   * @param {HostRequests[M]['params']} params
   * @param {{signal?: AbortSignal, token?: rpc.CancellationToken}} [cancel]
   * @returns {Promise<HostRequests[M]['result']>}
   */
  request(method, params, cancel = {}) {
    let token = cancel.token;
    if (cancel.signal) {
      const source = new rpc.CancellationTokenSource();
      if (cancel.signal.aborted) source.cancel();
      else cancel.signal.addEventListener('abort', () => source.cancel(), { once: true });
      token = source.token;
    }
    // Params are always an object on hookd's side: a missing one is sent as {}.
    const p = params === undefined ? {} : params;
    return token ? this.connection.sendRequest(method, p, token) : this.connection.sendRequest(method, p);
  }

  /**
   * Starts the session: discovers hooks with the host's config. Sends the
   * `initialized` notification after the result, as LSP hosts do.
   * @param {InitializeParams} [params]
   * @returns {Promise<InitializeResult>}
   */
  async initialize(params = {}) {
    const result = await this.request('initialize', params);
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  /**
   * Runs the hooks of one event and returns the combined outcome.
   * @param {EventName} event
   * @param {JSONObject} [input] the event's own fields (tool_name, tool_input, prompt...)
   * @param {{turnId?: string, signal?: AbortSignal, token?: rpc.CancellationToken}} [options]
   * @returns {Promise<RunResult>}
   */
  run(event, input = {}, options = {}) {
    /** @type {import('./protocol').RunParams} */
    const params = { event, input };
    if (options.turnId) params.turnId = options.turnId;
    return this.request('hooks/run', params, options);
  }

  /**
   * Lists the discovered hooks (of one event, or all) and the discovery warnings.
   * @param {EventName} [event]
   * @returns {Promise<ListResult>}
   */
  list(event) {
    return this.request('hooks/list', event ? { event } : {});
  }

  /** Discovers hooks again. @returns {Promise<HooksSummary>} */
  reload() {
    return this.request('hooks/reload', {});
  }

  /**
   * Records the current content of these hooks as reviewed.
   * @param {string[]} keys
   * @returns {Promise<TrustResult>}
   */
  trust(keys) {
    return this.request('hooks/trust', { keys });
  }

  /**
   * @param {string} key
   * @param {boolean} enabled
   * @returns {Promise<SetEnabledResult>}
   */
  setEnabled(key, enabled) {
    return this.request('hooks/setEnabled', { key, enabled });
  }

  /**
   * Tells hookd an agent invoked a skill: its frontmatter hooks run in that
   * agent's events for the rest of the session (claude profile).
   * @param {string} name the skill's name, `<plugin>:<skill>` for a plugin's
   * @param {string} [agentId] the subagent that invoked it (its agent_id); absent: the main agent
   * @returns {Promise<ActivateSkillResult>}
   */
  activateSkill(name, agentId) {
    return this.request('hooks/activateSkill', agentId ? { name, agentId } : { name });
  }

  /** Takes the async results not delivered yet. @returns {Promise<TakePendingResult>} */
  takePending() {
    return this.request('hooks/takePending', {});
  }

  /**
   * Subscribes to one of hookd's notifications.
   * @template {keyof HookdNotifications} M
   * @param {M} method
   * @param {(params: HookdNotifications[M]) => void} handler
   * @returns {rpc.Disposable}
   */
  onNotification(method, handler) {
    return this.connection.onNotification(method, (params) => handler(/** @type {HookdNotifications[M]} */ (params)));
  }

  /**
   * Discovery warnings and bad-frame reports.
   * @param {(params: import('./protocol').LogMessageParams) => void} handler
   */
  onLogMessage(handler) {
    return this.onNotification('window/logMessage', handler);
  }

  /**
   * A handler with a statusMessage started or finished.
   * @param {(params: import('./protocol').StatusParams) => void} handler
   */
  onStatus(handler) {
    return this.onNotification('hooks/status', handler);
  }

  /**
   * An async handler finished.
   * @param {(params: import('./protocol').AsyncResult) => void} handler
   */
  onAsyncCompleted(handler) {
    return this.onNotification('hooks/asyncCompleted', handler);
  }

  /**
   * hookd reloaded its hooks by itself.
   * @param {(params: HooksSummary) => void} handler
   */
  onChanged(handler) {
    return this.onNotification('hooks/changed', handler);
  }

  /**
   * Ends the session cleanly: shutdown, then exit; resolves with hookd's exit
   * code (0). If hookd does not exit within timeoutMs it is killed and the
   * promise rejects.
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<number | null>}
   */
  async shutdown(options = {}) {
    const timeoutMs = options.timeoutMs ?? 5000;
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`hookd did not exit within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const bye = (async () => {
        await this.connection.sendRequest('shutdown');
        await this.connection.sendNotification('exit');
        return this.exited;
      })();
      return await Promise.race([bye, deadline]);
    } catch (err) {
      this.kill();
      throw err;
    } finally {
      clearTimeout(timer);
      this.connection.dispose();
    }
  }

  /** Ends hookd at once (its running handlers' process groups die with its session). */
  kill() {
    this.connection.dispose();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

module.exports = { startHookd, resolveHookd, PLATFORMS, HookdClient, ErrorCodes, ResponseError: rpc.ResponseError, CancellationTokenSource: rpc.CancellationTokenSource };
