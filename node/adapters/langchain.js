// @hookd/hookd/langchain: the hooks of the user's Claude Code settings and
// plugins (or any profile's) as a LangChain.js agent middleware
// (`createAgent({ middleware: [hooks] })`).
//
//   const hooks = hookdMiddleware();
//   const agent = createAgent({ model, tools, middleware: [hooks] });
//   await agent.invoke({ messages: [{ role: 'user', content: 'fix the build' }] });
//   await hooks.close();
//
// beforeAgent runs SessionStart (first run) and UserPromptSubmit (their
// context joins the messages), wrapToolCall runs PreToolUse (an `ask` is
// LangGraph's interrupt), PostToolUse and PostToolUseFailure around each
// tool call, and afterAgent runs Stop
// (a block jumps back to the model with the reason as a user message).
'use strict';

const { HookSession, HookdBlockedError, DEFAULT_TOOLS, textOf, asText } = require('./core');

/** What the middleware's own messages carry in additional_kwargs. */
const MARK = 'hookd';

/** LangGraph's interrupt, which travels as an error (GraphInterrupt). @param {unknown} err */
function isInterrupt(err) {
  const e = /** @type {any} */ (err);
  return !!e && (e.name === 'GraphInterrupt' || e.name === 'NodeInterrupt' || Array.isArray(e.interrupts));
}

/** @param {any} m */
function isHuman(m) {
  return m && (typeof m._getType === 'function' ? m._getType() === 'human' : m.type === 'human' || m.role === 'user');
}

/**
 * The middleware for one LangChain agent; hookd starts on first use.
 * `close()` ends it.
 * @param {import('./core').HooksOptions} [options]
 */
function hookdMiddleware(options = {}) {
  return make(require('langchain'), options);
}

/** @param {any} lc the `langchain` module @param {import('./core').HooksOptions} options */
function make(lc, options) {
  const { createMiddleware, ToolMessage, HumanMessage } = lc;
  const session = new HookSession(options, 'langchain');
  /** @param {any} runtime */
  const ctxOf = (runtime) => ({ sessionId: options.sessionId ?? runtime?.configurable?.thread_id });

  /**
   * An `ask` is LangGraph's interrupt, the framework's approval path: the run
   * stops with {hookd: 'ask', tool, args, reason} for the host to show, and
   * resuming it (`new Command({ resume: true })`, or `{ approved: false,
   * message }`) runs or denies the call. A graph without a checkpointer
   * cannot be interrupted: the documented default applies.
   * @param {import('./core').PreToolDecision} d @param {any} request @param {any} call
   * @returns {import('./core').PreToolDecision}
   */
  const approve = (d, request, call) => {
    const interrupt = request.runtime?.interrupt;
    if (typeof interrupt !== 'function') return session.askFallback(d, 'this run has no interrupt');
    let answer;
    try {
      answer = interrupt({ hookd: 'ask', tool: call.name, args: call.args, reason: d.reason });
    } catch (err) {
      // The interrupt itself travels as an error: LangGraph's, passed on.
      if (isInterrupt(err)) throw err;
      return session.askFallback(d, `the run cannot be interrupted (${err instanceof Error ? err.message : String(err)})`);
    }
    const ok = answer === true || (answer && typeof answer === 'object' && answer.approved === true);
    if (ok) return { ...d, action: 'run' };
    const message = answer && typeof answer === 'object' && typeof answer.message === 'string' ? answer.message : `${d.reason} (not approved)`;
    return { ...d, action: 'deny', reason: message };
  };

  const middleware = createMiddleware({
    name: 'hookd',
    beforeAgent: async (state, runtime) => {
      const messages = /** @type {any[]} */ (state.messages ?? []);
      const last = [...messages].reverse().find(isHuman);
      // A continuation of ours is not a new prompt.
      const prompt = last && last.additional_kwargs?.[MARK] === undefined ? textOf(last.content) : undefined;
      const context = await session.beginTurn(prompt, ctxOf(runtime));
      if (!context.length) return undefined;
      return { messages: context.map((text) => new HumanMessage({ content: text, additional_kwargs: { [MARK]: 'context' } })) };
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const callId = call.id;
      const ctx = ctxOf(request.runtime);
      let d = await session.preToolUse(call.name, call.args, callId, ctx);
      if (d.action === 'ask') d = approve(d, request, call);
      if (d.action === 'deny') return new ToolMessage({ content: d.reason, tool_call_id: callId ?? '', name: call.name, status: 'error' });
      const next = d.input === call.args ? request : { ...request, toolCall: { ...call, args: /** @type {Record<string, any>} */ (d.input) } };
      let result;
      try {
        result = await handler(next);
      } catch (err) {
        throw await session.postToolUseFailure(d, err, callId, ctx);
      }
      if (!ToolMessage.isInstance(result)) {
        session.warnOnce('command', `tool ${call.name} answered with a Command: PostToolUse hooks run, but their feedback cannot be added to it`);
        await session.postToolUse(d, null, callId, ctx);
        return result;
      }
      const failed = result.status === 'error';
      if (failed) {
        const extra = await session.failureFeedback(d, new Error(asText(result.content)), callId, ctx);
        if (!extra.length) return result;
        return new ToolMessage({ ...result, content: [asText(result.content), ...extra].join('\n\n'), tool_call_id: result.tool_call_id });
      }
      const post = await session.postToolUse(d, result.content, callId, ctx);
      if (!post.changed) return result;
      return new ToolMessage({ ...result, content: asText(post.output), tool_call_id: result.tool_call_id });
    },
    afterAgent: {
      canJumpTo: ['model'],
      hook: async (state, runtime) => {
        const messages = /** @type {any[]} */ (state.messages ?? []);
        const lastHuman = [...messages].reverse().find(isHuman);
        const active = lastHuman?.additional_kwargs?.[MARK] === 'stop';
        const lastMessage = messages.length ? textOf(messages[messages.length - 1].content) ?? '' : '';
        const more = await session.stop(lastMessage, active, ctxOf(runtime));
        if (more === null) return undefined;
        return { messages: [new HumanMessage({ content: more, additional_kwargs: { [MARK]: 'stop' } })], jumpTo: 'model' };
      },
    },
  });
  return Object.assign(middleware, {
    /** Ends this agent's hookd. */
    close: () => session.close(),
    session,
  });
}

/**
 * This adapter with its framework given: the ES module entry (langchain.mjs)
 * passes the `langchain` it imported, so that the middleware is branded by
 * the host's own copy (createAgent checks the brand).
 * @param {any} lc
 */
function bind(lc) {
  return { hookdMiddleware: (/** @type {any} */ options = {}) => make(lc, options), HookdBlockedError, DEFAULT_TOOLS };
}

module.exports = { hookdMiddleware, HookdBlockedError, DEFAULT_TOOLS, bind };
