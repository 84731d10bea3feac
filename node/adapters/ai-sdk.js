// @hookd/hookd/ai-sdk: the hooks of the user's Claude Code settings and
// plugins (or any profile's) for an agent built on the AI SDK (`ai`).
//
//   const hooks = createHooks();
//   const result = await hooks.generateText({ model, tools: { bash }, prompt, stopWhen });
//   await hooks.close();
//
// hooks.tools(tools) wraps each tool's execute (PreToolUse, PostToolUse,
// PostToolUseFailure); hooks.generateText adds SessionStart and
// UserPromptSubmit context to the instructions, sends a PreToolUse `ask`
// to the SDK's toolApproval, and runs Stop at the end of each turn.
'use strict';

const { HookSession, HookdBlockedError, DEFAULT_TOOLS, textOf, asText } = require('./core');

/** @typedef {import('./core').PreToolDecision} PreToolDecision */

const WRAPPED = Symbol('hookd.wrapped');
const MAX_DECISIONS = 1024;

class AISDKHooks {
  /** @param {import('./core').HooksOptions} [options] @param {any} [ai] the `ai` module (default: require('ai')) */
  constructor(options = {}, ai = undefined) {
    this.session = new HookSession(options, 'ai-sdk');
    this.ai = ai;
    /** PreToolUse decisions taken in toolApproval, for the execute that follows. @type {Map<string, PreToolDecision>} */
    this.decided = new Map();
  }

  /**
   * The same tools with each execute run through the hooks. A tool without
   * execute (the caller runs it) is passed as it is.
   * @template {Record<string, any>} T @param {T} tools @returns {T}
   */
  tools(tools) {
    /** @type {Record<string, any>} */
    const out = {};
    for (const [name, t] of Object.entries(tools ?? {})) out[name] = this.tool(name, t);
    return /** @type {T} */ (out);
  }

  /** @param {string} name @param {any} t */
  tool(name, t) {
    if (!t || typeof t.execute !== 'function' || t[WRAPPED]) return t;
    const execute = t.execute;
    const hooks = this;
    /** @param {unknown} input @param {any} options */
    async function wrapped(input, options) {
      const callId = options?.toolCallId;
      let d = callId ? hooks.decided.get(callId) : undefined;
      if (d) hooks.decided.delete(callId);
      // An ask decided in toolApproval reached execute: it was approved.
      else d = hooks.session.askFallback(await hooks.session.preToolUse(name, input, callId), 'this call has no approval step (call generateText through the hooks)');
      if (d.action === 'deny') return d.reason;
      let output;
      try {
        output = await execute.call(t, d.input, options);
        if (output && typeof output[Symbol.asyncIterator] === 'function') {
          hooks.session.warnOnce(`stream:${name}`, `tool ${name} streams its output: PostToolUse sees only its last part`);
          let last;
          for await (const part of output) last = part;
          output = last;
        }
      } catch (err) {
        throw await hooks.session.postToolUseFailure(d, err, callId);
      }
      const post = await hooks.session.postToolUse(d, output, callId);
      return post.output;
    }
    return { ...t, execute: wrapped, [WRAPPED]: true };
  }

  /**
   * The toolApproval function of a generateText call: PreToolUse runs here,
   * once per call, and an `ask` becomes the SDK's user-approval. The
   * decision waits for the call's execute in `decided`.
   * @param {any} userApproval the call's own toolApproval
   */
  approval(userApproval) {
    /** @param {any} options */
    return async (options) => {
      const call = options.toolCall;
      const own = typeof userApproval === 'function' ? await userApproval(options) : userApproval?.[call.toolName];
      const status = typeof own === 'function' ? await own(call.input, options) : own;
      if (status !== undefined && status !== 'not-applicable' && status?.type !== 'not-applicable') return status;
      const tool = options.tools?.[call.toolName];
      if (!tool || !tool[WRAPPED]) return undefined;
      const d = await this.session.preToolUse(call.toolName, call.input, call.toolCallId);
      if (this.decided.size >= MAX_DECISIONS) this.decided.delete(this.decided.keys().next().value ?? '');
      this.decided.set(call.toolCallId, d);
      if (d.action === 'ask') return { type: 'user-approval', reason: d.reason };
      return undefined;
    };
  }

  /**
   * generateText with the hooks: SessionStart (first call) and
   * UserPromptSubmit before it, the tools wrapped, and Stop after each turn
   * (a block adds its reason as the next user message and calls again).
   * Throws HookdBlockedError when the prompt is blocked. Resolves with the
   * last call's result.
   * @param {any} args generateText's options
   * @returns {Promise<any>}
   */
  async generateText(args) {
    const { generateText } = this.ai ?? require('ai');
    /** @type {any[]} */
    let messages = args.messages ?? (typeof args.prompt === 'string' ? [{ role: 'user', content: args.prompt }] : args.prompt ?? []);
    const approvalReplay = messages.length > 0 && messages[messages.length - 1].role === 'tool';
    const last = [...messages].reverse().find((m) => m.role === 'user');
    const prompt = approvalReplay ? undefined : last ? textOf(last.content) : undefined;
    const context = await this.session.beginTurn(prompt);
    const base = { ...args, tools: this.tools(args.tools), toolApproval: this.approval(args.toolApproval) };
    delete base.prompt;
    if (context.length) {
      const key = base.system !== undefined ? 'system' : 'instructions';
      const have = base[key];
      const list = have === undefined ? [] : Array.isArray(have) ? have : [typeof have === 'string' ? { role: 'system', content: have } : have];
      base[key] = [...list, ...context.map((c) => ({ role: 'system', content: c }))];
    }
    let active = false;
    for (;;) {
      const result = await generateText({ ...base, messages });
      const pendingApproval = result.content?.some?.((/** @type {any} */ p) => p.type === 'tool-approval-request');
      if (pendingApproval) return result;
      const more = await this.session.stop(asText(result.text), active);
      if (more === null) return result;
      active = true;
      messages = [...messages, ...result.response.messages, { role: 'user', content: more }];
    }
  }

  /** Ends this agent's hookd. */
  close() {
    return this.session.close();
  }
}

/**
 * The hooks for one AI SDK agent; hookd starts on first use.
 * @param {import('./core').HooksOptions} [options]
 */
function createHooks(options) {
  return new AISDKHooks(options);
}

/**
 * This adapter with its framework given: the ES module entry (ai-sdk.mjs)
 * passes the `ai` it imported, so both faces share one copy of the SDK.
 * @param {any} ai
 */
function bind(ai) {
  return { createHooks: (/** @type {any} */ options) => new AISDKHooks(options, ai), AISDKHooks, HookdBlockedError, DEFAULT_TOOLS };
}

module.exports = { createHooks, AISDKHooks, HookdBlockedError, DEFAULT_TOOLS, bind };
