// The part the framework adapters share (ai-sdk.js, openai-agents.js,
// langchain.js): one lazily started hookd per adapter, the mapping of an
// agent's tool names and inputs to the profile's, what each event's result
// means for the agent, and warnings given once.
'use strict';

const { startHookd } = require('../index');

/**
 * @typedef {import('./core').HooksOptions} HooksOptions
 * @typedef {import('./core').ToolMapping} ToolMapping
 * @typedef {import('./core').PreToolDecision} PreToolDecision
 * @typedef {import('../protocol').RunResult} RunResult
 * @typedef {import('../protocol').JSONObject} JSONObject
 * @typedef {import('../protocol').InitializeParams} InitializeParams
 */

/**
 * The obvious tools of an agent, by the names agents give them, and the
 * Claude Code tool each is. `fields` maps the hook's field to the agent's
 * argument names, the first present wins; `required` must be strings.
 * @type {readonly ToolMapping[]}
 */
const DEFAULT_TOOLS = Object.freeze([
  { names: ['bash', 'shell', 'sh', 'run_command', 'run_shell_command', 'execute_command', 'exec', 'terminal'], name: 'Bash', fields: { command: ['command', 'cmd'], description: ['description'], timeout: ['timeout'] }, required: ['command'] },
  { names: ['write', 'write_file', 'create_file'], name: 'Write', fields: { file_path: ['file_path', 'path', 'filename', 'file'], content: ['content', 'contents', 'text'] }, required: ['file_path'] },
  { names: ['edit', 'edit_file', 'str_replace', 'replace_in_file'], name: 'Edit', fields: { file_path: ['file_path', 'path', 'filename', 'file'], old_string: ['old_string', 'old_str', 'old'], new_string: ['new_string', 'new_str', 'new'] }, required: ['file_path'] },
  { names: ['read', 'read_file', 'view_file', 'cat'], name: 'Read', fields: { file_path: ['file_path', 'path', 'filename', 'file'], offset: ['offset'], limit: ['limit'] }, required: ['file_path'] },
  { names: ['web_fetch', 'webfetch', 'fetch', 'fetch_url', 'http_get'], name: 'WebFetch', fields: { url: ['url', 'href', 'uri'], prompt: ['prompt'] }, required: ['url'] },
  { names: ['grep', 'search_files', 'ripgrep'], name: 'Grep', fields: { pattern: ['pattern', 'regex', 'query'], path: ['path', 'dir', 'directory'] }, required: ['pattern'] },
  { names: ['glob', 'find_files', 'list_files'], name: 'Glob', fields: { pattern: ['pattern', 'glob'], path: ['path', 'dir', 'directory'] }, required: ['pattern'] },
]);

/** Raised when a UserPromptSubmit hook blocks the prompt: the run does not start. */
class HookdBlockedError extends Error {
  /** @param {string} event @param {string} reason */
  constructor(event, reason) {
    super(reason);
    this.name = 'HookdBlockedError';
    /** @readonly */
    this.event = event;
    /** @readonly */
    this.reason = reason;
  }
}

/** Every live session, for the exit handler. @type {Set<HookSession>} */
const live = new Set();
let exitHooked = false;

function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  // The last chance to end hookd when the host forgot close() or threw: only
  // synchronous work runs here, so kill it (hookd also watches processId).
  process.once('exit', () => {
    for (const s of live) s.kill();
  });
}

/** @param {unknown} v @returns {v is JSONObject} */
function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A value as JSON can carry it: a tool's output may hold a cycle, a BigInt or
 * a function, which must not fail the hook run; such a value goes as text.
 * @param {unknown} v @returns {any}
 */
function jsonSafe(v) {
  if (v === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(v) ?? 'null');
  } catch {
    return String(v);
  }
}

/** @param {unknown} v */
function asText(v) {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * One agent's hooks: the hookd it runs them with (started on first use,
 * ended by close() or when the process exits), its tool table and its
 * warnings.
 */
class HookSession {
  /** @param {HooksOptions} [options] @param {string} [framework] */
  constructor(options = {}, framework = 'agent') {
    this.options = options;
    this.framework = framework;
    /** @type {Promise<import('../index').HookdClient> | undefined} */
    this.starting = undefined;
    /** @type {import('../index').HookdClient | undefined} */
    this.client = undefined;
    this.closed = false;
    this.inflight = 0;
    /** @type {NodeJS.Timeout | undefined} */
    this.keepAlive = undefined;
    /** @type {Set<string>} */
    this.warned = new Set();
    this.sessionStarted = false;
    /** @type {Map<string, ToolMapping>} */
    this.byName = new Map();
    for (const m of DEFAULT_TOOLS) for (const n of m.names ?? []) this.byName.set(n, m);
    for (const [tool, m] of Object.entries(options.tools ?? {})) {
      if (m === null || m === false) this.byName.set(tool.toLowerCase(), { name: tool, fields: {}, passthrough: true });
      else this.byName.set(tool.toLowerCase(), { ...m, names: [tool] });
    }
  }

  /** Says something once (per key) through options.onWarning, else console.warn. @param {string} key @param {string} message */
  warnOnce(key, message) {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    const text = `hookd (${this.framework}): ${message}`;
    if (this.options.onWarning) this.options.onWarning(text);
    else console.warn(text);
  }

  /** Starts hookd and its session, once. @returns {Promise<import('../index').HookdClient>} */
  connect() {
    if (this.closed) return Promise.reject(new Error('hookd: this agent\'s hooks are closed'));
    if (!this.starting) {
      this.starting = this.start();
      this.starting.catch(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  async start() {
    const o = this.options;
    const client = await startHookd({
      bin: o.bin,
      args: ['serve', '--log-level', o.logLevel ?? 'warn'],
      env: o.env,
      cwd: o.cwd,
      stderr: o.stderr ?? 'inherit',
      callTool: o.callTool,
    });
    this.client = client;
    live.add(this);
    hookExit();
    // hookd must not keep the host alive between calls; the host is kept
    // running only while a request is in flight (ref()).
    this.detach();
    client.exited.then((code) => {
      live.delete(this);
      if (this.client !== client) return;
      // hookd went away under a live session (killed, crashed): the call in
      // flight fails, and the next event starts a new hookd.
      this.client = undefined;
      this.starting = undefined;
      if (!this.closed) this.warnOnce(`exited:${client.pid}`, `hookd (pid ${client.pid}) exited with ${code === null ? 'a signal' : `code ${code}`}; the next event starts it again`);
    });
    try {
      /** @type {InitializeParams} */
      const init = {
        processId: process.pid,
        clientInfo: { name: `@hookd/hookd/${this.framework}` },
        profile: o.profile ?? 'claude',
        session: { cwd: o.cwd ?? process.cwd(), ...(o.sessionId ? { id: o.sessionId } : {}), ...(o.transcriptPath ? { transcriptPath: o.transcriptPath } : {}), ...(o.model ? { model: o.model } : {}) },
        config: o.config ?? {},
      };
      const res = await this.withRef(() => client.initialize(init));
      if (this.closed) throw new Error('hookd: closed while starting');
      if (res.hooks.warnings > 0 && !o.onWarning) {
        // Discovery warnings name the file and position: worth one look.
        const list = await this.withRef(() => client.list());
        for (const w of list.warnings) this.warnOnce(`discovery:${w.source}:${w.message}`, `${w.source}: ${w.message}`);
      }
      return client;
    } catch (err) {
      client.kill();
      live.delete(this);
      this.client = undefined;
      throw err;
    }
  }

  // Pending requests alone do not keep Node running, and hookd's process
  // and pipes are unref'd (a host that forgets close() must still exit): a
  // timer that never fires holds the event loop while a request is in
  // flight. (Ref'ing the pipes per request would cost a millisecond a call.)
  ref() {
    this.keepAlive ??= setInterval(() => {}, 1 << 30);
    this.keepAlive.ref();
  }

  unref() {
    this.keepAlive?.unref();
  }

  /** hookd's process and pipes, once: they never hold the host. */
  detach() {
    const c = this.client?.child;
    c?.unref();
    /** @type {any} */ (c?.stdout)?.unref?.();
    /** @type {any} */ (c?.stdin)?.unref?.();
    /** @type {any} */ (c?.stderr)?.unref?.();
  }

  /** @template T @param {() => Promise<T>} fn @returns {Promise<T>} */
  async withRef(fn) {
    if (this.inflight++ === 0) this.ref();
    try {
      return await fn();
    } finally {
      if (--this.inflight === 0) this.unref();
    }
  }

  /**
   * Runs one event; null when the session is closed. hookd failing (it
   * died, it cannot start) is thrown: hooks that cannot run are not passed.
   * @param {string} event @param {JSONObject} input @returns {Promise<RunResult>}
   */
  async run(event, input) {
    const client = await this.connect();
    const res = await this.withRef(() => client.run(event, input));
    // What a hook said for the user, and what the adapter cannot act on.
    for (const m of res.systemMessages ?? []) this.say(m.text);
    for (const key of Object.keys(res.output ?? {})) {
      if (!(event === 'PostToolUse' && (key === 'updatedToolOutput' || key === 'updatedMCPToolOutput'))) {
        this.warnOnce(`output:${event}:${key}`, `a ${event} hook's ${key} has no counterpart in this framework and is not carried out`);
      }
    }
    if (res.hooks.some((h) => h.async)) this.warnOnce('async', 'async hooks run, but what they report later does not reach the model through this adapter');
    return res;
  }

  /** A hook's message for the user (systemMessage): options.onMessage, else the warning channel. @param {string} text */
  say(text) {
    if (this.options.onMessage) this.options.onMessage(text);
    else if (this.options.onWarning) this.options.onWarning(`hookd (${this.framework}): ${text}`);
    else console.warn(`hookd (${this.framework}): ${text}`);
  }

  /** The session's id fields for one event's input. @param {{sessionId?: string}} [ctx] */
  common(ctx) {
    /** @type {JSONObject} */
    const input = {};
    if (ctx?.sessionId) input.session_id = ctx.sessionId;
    return input;
  }

  /**
   * The profile's tool name and input for an agent's tool call.
   * @param {string} tool @param {unknown} args
   * @returns {{name: string, input: JSONObject, mapping?: ToolMapping, used: Record<string, string>}}
   */
  mapTool(tool, args) {
    const safe = jsonSafe(args);
    const input = isObject(safe) ? safe : { input: safe };
    const m = this.byName.get(tool.toLowerCase());
    if (m && !m.passthrough) {
      /** @type {Record<string, string>} */
      const used = {};
      /** @type {JSONObject} */
      const out = {};
      for (const [field, from] of Object.entries(m.fields ?? {})) {
        const name = (Array.isArray(from) ? from : [from]).find((f) => input[f] !== undefined);
        if (name !== undefined) {
          used[field] = name;
          out[field] = input[name];
        }
      }
      const ok = (m.required ?? []).every((f) => typeof out[f] === 'string');
      if (ok) {
        const taken = new Set(Object.values(used));
        for (const [k, v] of Object.entries(input)) if (!taken.has(k) && !(k in out)) out[k] = v;
        return { name: m.name, input: out, mapping: m, used };
      }
      this.warnOnce(`shape:${tool}`, `tool ${tool} looks like ${m.name} but its arguments lack ${(m.required ?? []).join(', ')} as text: hooks match it as "${tool}" (describe it in the tools option)`);
    } else if (!m) {
      this.warnOnce(`unmapped:${tool}`, `tool ${tool} is not one of the profile's tools: hooks match it by its own name "${tool}" (the tools option maps it)`);
    }
    return { name: tool, input, used: {} };
  }

  /**
   * The agent's arguments from a hook's updatedInput.
   * @param {unknown} original @param {JSONObject} updated
   * @param {{used: Record<string, string>, mapping?: ToolMapping}} mapped
   */
  unmapInput(original, updated, mapped) {
    if (!isObject(original)) return 'input' in updated ? updated.input : updated;
    if (!mapped.mapping) return updated;
    /** @type {JSONObject} */
    const out = { ...original };
    const hookFields = new Set(Object.keys(mapped.mapping.fields ?? {}));
    for (const [k, v] of Object.entries(updated)) {
      if (mapped.used[k] !== undefined) out[mapped.used[k]] = v;
      else if (hookFields.has(k)) {
        const from = /** @type {any} */ (mapped.mapping.fields)[k];
        out[Array.isArray(from) ? from[0] : from] = v;
      } else out[k] = v;
    }
    return out;
  }

  /**
   * PreToolUse for one call: run it (with the input to use), deny it (the
   * reason is the tool's result for the model), or ask.
   * @param {string} tool @param {unknown} args @param {string | undefined} callId
   * @param {{sessionId?: string}} [ctx]
   * @returns {Promise<PreToolDecision>}
   */
  async preToolUse(tool, args, callId, ctx) {
    const mapped = this.mapTool(tool, args);
    const res = await this.run('PreToolUse', { ...this.common(ctx), tool_name: mapped.name, tool_input: mapped.input, ...(callId ? { tool_use_id: callId } : {}) });
    if (!res.continue) {
      this.warnOnce('continue:PreToolUse', 'a PreToolUse hook answered continue: false; an agent run cannot be stopped from inside a tool call here, so the call is denied with the stop reason');
      return { action: 'deny', reason: res.stopReason ?? 'Stopped by PreToolUse hook', mapped, result: res };
    }
    if (res.decision === 'deny' || res.decision === 'block') {
      return { action: 'deny', reason: res.reason || 'Blocked by PreToolUse hook', mapped, result: res };
    }
    const input = res.updatedInput && isObject(res.updatedInput) ? this.unmapInput(args, res.updatedInput, mapped) : args;
    if (res.decision === 'ask' || res.decision === 'defer') {
      return { action: 'ask', reason: res.reason || `a PreToolUse hook asks before ${mapped.name} runs`, input, mapped, result: res };
    }
    return { action: 'run', input, mapped, result: res };
  }

  /**
   * ask without an approval path: the documented default is to deny
   * (options.ask 'allow' runs the tool instead).
   * @param {PreToolDecision} d @param {string} why
   * @returns {PreToolDecision}
   */
  askFallback(d, why) {
    if (d.action !== 'ask') return d;
    this.warnOnce('ask-fallback', `a PreToolUse hook asked for approval and ${why}: the call is ${this.options.ask === 'allow' ? 'allowed (ask: allow)' : 'denied (ask: allow runs it)'}`);
    if (this.options.ask === 'allow') return { ...d, action: 'run' };
    return { ...d, action: 'deny', reason: `${d.reason} (no one was there to approve it)` };
  }

  /**
   * PostToolUse after a call that returned: what the model gets instead of
   * (or after) the tool's output.
   * @param {PreToolDecision} d @param {unknown} output @param {string | undefined} callId
   * @param {{sessionId?: string}} [ctx]
   * @returns {Promise<{changed: boolean, output: unknown}>}
   */
  async postToolUse(d, output, callId, ctx) {
    const res = await this.run('PostToolUse', { ...this.common(ctx), tool_name: d.mapped.name, tool_input: d.mapped.input, tool_response: jsonSafe(output), ...(callId ? { tool_use_id: callId } : {}) });
    let out = output;
    let changed = false;
    const replaced = res.output?.updatedToolOutput ?? res.output?.updatedMCPToolOutput;
    if (replaced !== undefined) {
      out = replaced;
      changed = true;
    }
    const extra = [res.feedback, ...(res.additionalContext ?? []).map((c) => c.text)].filter((t) => t);
    if (!res.continue) this.warnOnce('continue:PostToolUse', 'a PostToolUse hook answered continue: false; the run goes on (its stop reason reaches the model)');
    if (!res.continue && res.stopReason) extra.push(res.stopReason);
    if (extra.length) {
      out = [asText(out), ...extra].join('\n\n');
      changed = true;
    }
    return { changed, output: out };
  }

  /**
   * PostToolUseFailure after a call that threw: the error to throw on.
   * @param {PreToolDecision} d @param {unknown} err @param {string | undefined} callId
   * @param {{sessionId?: string}} [ctx]
   */
  async postToolUseFailure(d, err, callId, ctx) {
    const extra = await this.failureFeedback(d, err, callId, ctx);
    if (!extra.length) return err;
    const message = err instanceof Error ? err.message : String(err);
    return new Error([message, ...extra].join('\n\n'), { cause: err });
  }

  /**
   * PostToolUseFailure's texts for the model (feedback, then context).
   * @param {PreToolDecision} d @param {unknown} err @param {string | undefined} callId
   * @param {{sessionId?: string}} [ctx]
   * @returns {Promise<string[]>}
   */
  async failureFeedback(d, err, callId, ctx) {
    const message = err instanceof Error ? err.message : String(err);
    const res = await this.run('PostToolUseFailure', { ...this.common(ctx), tool_name: d.mapped.name, tool_input: d.mapped.input, error: message, ...(callId ? { tool_use_id: callId } : {}) });
    return /** @type {string[]} */ ([res.feedback, ...(res.additionalContext ?? []).map((c) => c.text)].filter((t) => t));
  }

  /**
   * SessionStart (once per session) and UserPromptSubmit: the context for the
   * model; throws HookdBlockedError when the prompt is blocked.
   * @param {string | undefined} prompt @param {{sessionId?: string}} [ctx]
   * @returns {Promise<string[]>}
   */
  async beginTurn(prompt, ctx) {
    /** @type {string[]} */
    const context = [];
    if (!this.sessionStarted) {
      this.sessionStarted = true;
      const res = await this.run('SessionStart', { ...this.common(ctx), source: 'startup' });
      for (const c of res.additionalContext ?? []) context.push(c.text);
    }
    if (prompt !== undefined) {
      const res = await this.run('UserPromptSubmit', { ...this.common(ctx), prompt });
      if (!res.continue) throw new HookdBlockedError('UserPromptSubmit', res.stopReason || 'Stopped by UserPromptSubmit hook');
      if (res.decision === 'block' || res.decision === 'deny') throw new HookdBlockedError('UserPromptSubmit', res.reason || 'Blocked by UserPromptSubmit hook');
      for (const c of res.additionalContext ?? []) context.push(c.text);
    }
    return context;
  }

  /**
   * Stop: the text of one more user turn when a hook blocks, else null.
   * @param {string} lastMessage @param {boolean} active a Stop block already continued this run
   * @param {{sessionId?: string}} [ctx]
   * @returns {Promise<string | null>}
   */
  async stop(lastMessage, active, ctx) {
    const res = await this.run('Stop', { ...this.common(ctx), stop_hook_active: active, last_assistant_message: lastMessage });
    if (!res.continue || res.decision !== 'block') return null;
    const text = res.continuation || [res.reason, ...(res.additionalContext ?? []).map((c) => c.text)].filter((t) => t).join('\n\n');
    return text || null;
  }

  /** Ends hookd (shutdown, then kill if it lingers). Later calls fail. */
  async close() {
    this.closed = true;
    const starting = this.starting;
    this.starting = undefined;
    if (!starting) return;
    let client;
    try {
      client = await starting;
    } catch {
      return;
    }
    this.ref();
    try {
      await client.shutdown({ timeoutMs: 3000 });
    } catch {
      client.kill();
    } finally {
      live.delete(this);
      clearInterval(this.keepAlive);
    }
  }

  /** Ends hookd at once (the exit handler's way). */
  kill() {
    this.closed = true;
    this.client?.kill();
    live.delete(this);
    clearInterval(this.keepAlive);
  }
}

/** @param {unknown} content @returns {string | undefined} */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.map((p) => (typeof p === 'string' ? p : isObject(p) && typeof p.text === 'string' ? p.text : '')).filter((t) => t);
    return parts.join('\n');
  }
  return undefined;
}

module.exports = { HookSession, HookdBlockedError, DEFAULT_TOOLS, textOf, asText, isObject };
