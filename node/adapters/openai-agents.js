// @hookd/hookd/openai-agents: the hooks of the user's Claude Code settings
// and plugins (or any profile's) for an agent built on OpenAI Agents JS
// (`@openai/agents`).
//
//   const hooks = createHooks();
//   const result = await hooks.run(agent, 'fix the build');
//   await hooks.close();
//
// Each function tool of the agent (and of its handoffs) is wrapped once:
// needsApproval runs PreToolUse (an `ask` is the SDK's interruption), invoke
// gets the hook's input, returns a deny's reason as the tool's output, and
// runs PostToolUse / PostToolUseFailure. hooks.run adds SessionStart and
// UserPromptSubmit context as system items and runs Stop after the run.
'use strict';

const { HookSession, HookdBlockedError, DEFAULT_TOOLS, textOf, asText } = require('./core');

/** @typedef {import('./core').PreToolDecision} PreToolDecision */

const WRAPPED = Symbol('hookd.wrapped');
const OWN = Symbol('hookd.own');
const MAX_DECISIONS = 1024;

class OpenAIAgentsHooks {
  /** @param {import('./core').HooksOptions} [options] @param {any} [sdk] the `@openai/agents` module (default: its require()) */
  constructor(options = {}, sdk = undefined) {
    this.session = new HookSession(options, 'openai-agents');
    this.sdk = sdk;
    /** @type {Map<string, PreToolDecision>} */
    this.decided = new Map();
    /** @type {WeakSet<object>} */
    this.agents = new WeakSet();
    /** Errors of hooks.tool() tools, by call, until their invoke returns. @type {Map<string, {error: unknown}>} */
    this.failures = new Map();
  }

  /**
   * Wraps the tools of an agent and of the agents it hands off to, in place,
   * once. Returns the agent.
   * @template {{tools: any[], handoffs?: any[]}} A @param {A} agent @returns {A}
   */
  agent(agent) {
    if (!agent || this.agents.has(agent)) return agent;
    this.agents.add(agent);
    agent.tools = agent.tools.map((t) => this.tool(t));
    for (const h of agent.handoffs ?? []) this.agent(h?.agent ?? h);
    return agent;
  }

  /**
   * One tool with the hooks. Hosted tools (web search, file search...) run
   * at the provider, where no hook reaches them: they are passed as they are,
   * with a warning.
   * @template T @param {T} t @returns {T}
   */
  tool(t) {
    const spec = /** @type {any} */ (t);
    if (spec && typeof spec.execute === 'function' && spec.type !== 'function') return this.tool(this.own(spec));
    const ft = /** @type {any} */ (t);
    if (!ft || ft[WRAPPED]) return t;
    if (ft.type !== 'function' || typeof ft.invoke !== 'function') {
      this.session.warnOnce(`hosted:${ft?.name ?? ft?.type}`, `tool ${ft?.name ?? ft?.type} (${ft?.type}) does not run in this process: no hook sees its calls`);
      return t;
    }
    const hooks = this;
    const name = String(ft.name);
    /** @param {any} runContext @param {any} input @param {string} [callId] */
    async function needsApproval(runContext, input, callId) {
      if (await ft.needsApproval(runContext, input, callId)) return true;
      const d = await hooks.session.preToolUse(name, input, callId);
      if (callId) {
        if (hooks.decided.size >= MAX_DECISIONS) hooks.decided.delete(hooks.decided.keys().next().value ?? '');
        hooks.decided.set(callId, d);
      }
      return d.action === 'ask';
    }
    /** @param {any} runContext @param {string} input @param {any} [details] */
    async function invoke(runContext, input, details) {
      const callId = details?.toolCall?.callId;
      /** @type {unknown} */
      let args;
      try {
        args = JSON.parse(input);
      } catch {
        // The tool reports its own bad input; there is no call to judge.
        return ft.invoke(runContext, input, details);
      }
      let d = callId ? hooks.decided.get(callId) : undefined;
      if (d) hooks.decided.delete(callId);
      else {
        d = await hooks.session.preToolUse(name, args, callId);
        const approved = d.action === 'ask' && callId && runContext?.isToolApproved?.({ toolName: name, callId }) === true;
        if (!approved) d = hooks.session.askFallback(d, 'the call was not approved through needsApproval');
      }
      if (d.action === 'deny') return d.reason;
      const changed = d.input !== args;
      let output;
      try {
        output = await ft.invoke(runContext, changed ? JSON.stringify(d.input) : input, details);
      } catch (err) {
        if (callId) hooks.failures.delete(callId);
        throw await hooks.session.postToolUseFailure(d, err, callId);
      }
      // A tool made with hooks.tool() that threw: the SDK's error function
      // made the output; PostToolUseFailure adds to it.
      const failure = callId ? hooks.failures.get(callId) : undefined;
      if (failure) {
        hooks.failures.delete(callId);
        const extra = await hooks.session.failureFeedback(d, failure.error, callId);
        return extra.length ? [asText(output), ...extra].join('\n\n') : output;
      }
      if (!ft[OWN]) hooks.session.warnOnce('errors', `tool ${name} was made with tool(): the SDK turns its errors into output before hooks see them, so PostToolUse runs for them (hooks.tool() makes tools whose errors run PostToolUseFailure)`);
      const post = await hooks.session.postToolUse(d, output, callId);
      return post.output;
    }
    return /** @type {T} */ ({ ...ft, invoke, needsApproval, [WRAPPED]: true });
  }

  /**
   * The SDK's tool() with the hooks, and with PostToolUseFailure for its
   * errors (a tool made with tool() hands its errors to the SDK's error
   * function, out of the hooks' sight).
   * @param {any} spec tool()'s options
   */
  own(spec) {
    const sdk = this.sdk ?? require('@openai/agents');
    const hooks = this;
    const execute = spec.execute;
    const t = sdk.tool({
      ...spec,
      /** @param {any} input @param {any} ctx @param {any} details */
      async execute(input, ctx, details) {
        try {
          return await execute(input, ctx, details);
        } catch (error) {
          const callId = details?.toolCall?.callId;
          if (callId) {
            if (hooks.failures.size >= MAX_DECISIONS) hooks.failures.delete(hooks.failures.keys().next().value ?? '');
            hooks.failures.set(callId, { error });
          }
          throw error;
        }
      },
    });
    return { ...t, [OWN]: true };
  }

  /**
   * run() with the hooks: the agent's tools wrapped, SessionStart (first
   * run) and UserPromptSubmit before it, Stop after it (a block runs the
   * agent again with the hook's reason as the next user message). A run that
   * stopped for approvals is returned as it is; resume it with
   * hooks.run(agent, result.state). Throws HookdBlockedError when the prompt
   * is blocked.
   * @param {any} agent @param {any} input @param {any} [options] run()'s options
   * @returns {Promise<any>}
   */
  async run(agent, input, options = {}) {
    const sdk = this.sdk ?? require('@openai/agents');
    this.agent(agent);
    const sessionId = typeof options.session?.getSessionId === 'function' ? await options.session.getSessionId() : options.conversationId;
    const ctx = { sessionId };
    let next = input;
    if (!(input instanceof sdk.RunState)) {
      const items = typeof input === 'string' ? [sdk.user(input)] : input;
      const last = [...items].reverse().find((/** @type {any} */ i) => i.role === 'user');
      const context = await this.session.beginTurn(last ? textOf(last.content) : undefined, ctx);
      if (context.length) next = [...context.map((c) => sdk.system(c)), ...items];
    }
    if (options.stream) {
      this.session.warnOnce('stream', 'a streamed run ends when its stream does: Stop hooks run only with hooks.run(agent, input) without stream');
      return sdk.run(agent, next, options);
    }
    let active = false;
    let opts = options;
    for (;;) {
      const result = await sdk.run(agent, next, opts);
      if (result.interruptions?.length) return result;
      const more = await this.session.stop(asText(result.finalOutput ?? ''), active, ctx);
      if (more === null) return result;
      active = true;
      // With server-side or session memory the history is already there.
      if (options.session || options.conversationId) next = [sdk.user(more)];
      else if (options.previousResponseId) {
        next = [sdk.user(more)];
        opts = { ...opts, previousResponseId: result.lastResponseId };
      } else next = [...result.history, sdk.user(more)];
    }
  }

  /** Ends this agent's hookd. */
  close() {
    return this.session.close();
  }
}

/**
 * The hooks for one OpenAI Agents JS agent; hookd starts on first use.
 * @param {import('./core').HooksOptions} [options]
 */
function createHooks(options) {
  return new OpenAIAgentsHooks(options);
}

/**
 * This adapter with its framework given: the ES module entry
 * (openai-agents.mjs) passes the SDK it imported, so that RunState and the
 * tools are the host's own copy's.
 * @param {any} sdk
 */
function bind(sdk) {
  return { createHooks: (/** @type {any} */ options) => new OpenAIAgentsHooks(options, sdk), OpenAIAgentsHooks, HookdBlockedError, DEFAULT_TOOLS };
}

module.exports = { createHooks, OpenAIAgentsHooks, HookdBlockedError, DEFAULT_TOOLS, bind };
