// What the framework adapters cost per tool call when no hook matches: the
// same agent, driven by each framework's own mock model through a run of
// tool calls, with and without the adapter, against a hookd with no hooks.
// The cost per call is the difference between runs with three tool calls
// and runs with none (so the per-run events, SessionStart,
// UserPromptSubmit and Stop, drop out), from medians of interleaved runs. Each
// call makes two hooks/run requests (PreToolUse, PostToolUse); the round
// trip of one is measured on its own, and the figure that matters is what
// the adapter adds beyond those two.
//
//   HOOKD_BIN=/path/to/hookd node bench-adapters.js [RUNS]   (default 100 of each of the four kinds)
//   (without HOOKD_BIN, resolveHookd() finds hookd)
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startHookd, resolveHookd } = require('./index');

const bin = process.env.HOOKD_BIN || resolveHookd();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hookd-bench-'));
/** @type {import('./adapters/core').HooksOptions} */
const options = { bin, cwd: home, config: { home, bypassTrust: true }, env: { ...process.env, SHELL: '/bin/sh' }, onWarning: () => {} };

/** @param {() => Promise<unknown>} run @returns {Promise<number>} nanoseconds */
async function timed(run) {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start);
}

/** @param {number[]} xs */
function median(xs) {
  const v = [...xs].sort((x, y) => x - y);
  return v[Math.floor(v.length / 2)];
}

const K = 3;

/**
 * Nanoseconds per tool call without and with the adapter: the difference
 * between runs with K tool calls and runs with none, over K. Runs stay short
 * (a long run resends a growing history each step, which would swamp the
 * figure); the four kinds of run are interleaved and each figure is a median,
 * so a busy machine shifts them alike.
 * @param {(calls: number) => Promise<unknown>} plain
 * @param {(calls: number) => Promise<unknown>} hooked
 * @param {number} reps
 */
async function perCall(plain, hooked, reps) {
  for (let i = 0; i < 20; i++) {
    await plain(i % 2 ? K : 0); // warm-up: JIT, and hookd started
    await hooked(i % 2 ? K : 0);
  }
  /** @type {number[][]} */
  const t = [[], [], [], []];
  for (let i = 0; i < reps; i++) {
    t[0].push(await timed(() => plain(0)));
    t[1].push(await timed(() => plain(K)));
    t[2].push(await timed(() => hooked(0)));
    t[3].push(await timed(() => hooked(K)));
  }
  const [p0, p3, h0, h3] = t.map(median);
  return { without: (p3 - p0) / K, with: (h3 - h0) / K };
}

function aiSdk() {
  const { generateText, tool, jsonSchema, stepCountIs } = require('ai');
  const { MockLanguageModelV4 } = require('ai/test');
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const bash = tool({ description: 'shell', inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } } }), execute: async () => 'ok' });
  /** @param {number} n */
  const model = (n) => {
    let i = 0;
    return new MockLanguageModelV4({
      doGenerate: async () => (i++ < n
        ? { content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'bash', input: '{"command":"ls"}' }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
        : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }),
    });
  };
  return {
    /** @param {number} n */
    plain: (n) => generateText({ model: model(n), tools: { bash }, prompt: 'go', stopWhen: stepCountIs(n + 2) }),
    /** @param {any} hooks @param {number} n */
    hooked: (hooks, n) => hooks.generateText({ model: model(n), tools: { bash }, prompt: 'go', stopWhen: stepCountIs(n + 2) }),
    make: () => require('./adapters/ai-sdk').createHooks(options),
  };
}

function openaiAgents() {
  const { Agent, run, tool, Usage, setTracingDisabled } = require('@openai/agents');
  const { z } = require('zod');
  setTracingDisabled(true);
  /** @param {number} n */
  const model = (n) => {
    let i = 0;
    return {
      async getResponse() {
        const output = i++ < n
          ? [{ type: 'function_call', id: `f${i}`, callId: `c${i}`, name: 'bash', arguments: '{"command":"ls"}', status: 'completed' }]
          : [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }];
        return { usage: new Usage(), output };
      },
      async *getStreamedResponse() {},
    };
  };
  /** @param {number} n */
  const agent = (n) => new Agent({ name: 'a', model: /** @type {any} */ (model(n)), tools: [tool({ name: 'bash', description: 'shell', parameters: z.object({ command: z.string() }), execute: async () => 'ok' })] });
  return {
    /** @param {number} n */
    plain: (n) => run(agent(n), 'go', { maxTurns: n + 2 }),
    /** @param {any} hooks @param {number} n */
    hooked: (hooks, n) => hooks.run(agent(n), 'go', { maxTurns: n + 2 }),
    make: () => require('./adapters/openai-agents').createHooks(options),
  };
}

function langchain() {
  const { createAgent, tool, fakeModel, AIMessage } = require('langchain');
  const { z } = require('zod');
  const bash = tool(async () => 'ok', { name: 'bash', description: 'shell', schema: z.object({ command: z.string() }) });
  /** @param {number} n */
  const model = (n) => {
    let m = fakeModel();
    for (let i = 0; i < n; i++) m = m.respondWithTools([{ name: 'bash', args: { command: 'ls' }, id: `c${i}` }]);
    return m.respond(new AIMessage('done'));
  };
  /** @param {number} n @param {any[]} middleware */
  const invoke = (n, middleware) => createAgent({ model: model(n), tools: [bash], middleware }).invoke({ messages: [{ role: 'user', content: 'go' }] }, { recursionLimit: 4 * n + 20 });
  return {
    /** @param {number} n */
    plain: (n) => invoke(n, []),
    /** @param {any} hooks @param {number} n */
    hooked: (hooks, n) => invoke(n, [hooks]),
    make: () => require('./adapters/langchain').hookdMiddleware(options),
  };
}

async function main() {
  const reps = Number(process.argv[2] ?? 100);
  if (!(reps >= 10)) throw new Error('usage: node bench-adapters.js [RUNS >= 10]');
  const client = await startHookd({ bin, args: ['serve', '--log-level', 'error'], env: options.env });
  await client.initialize({ profile: 'claude', session: { cwd: home }, config: { home, bypassTrust: true } });
  const input = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'c1' };
  for (let i = 0; i < 200; i++) await client.run('PreToolUse', input);
  let rt = 0;
  /** @type {number[]} */
  const rts = [];
  for (let i = 0; i < 2000; i++) rts.push(await timed(() => client.run('PreToolUse', input)));
  rt = median(rts);
  await client.shutdown();
  const us = (/** @type {number} */ ns) => (ns / 1000).toFixed(1);
  console.log(`hooks/run round trip, no matching hook: ${us(rt)} us`);
  console.log('framework       without   with      added     added-2*hooks/run  ratio');
  for (const [name, make] of /** @type {const} */ ([['ai-sdk', aiSdk], ['openai-agents', openaiAgents], ['langchain', langchain]])) {
    const f = make();
    const hooks = f.make();
    try {
      const m = await perCall(f.plain, (n) => f.hooked(hooks, n), reps);
      const without = m.without;
      const withHooks = m.with;
      const added = withHooks - without;
      console.log(`${name.padEnd(15)} ${us(without).padStart(7)}us ${us(withHooks).padStart(7)}us ${us(added).padStart(7)}us ${us(added - 2 * rt).padStart(10)}us        ${(withHooks / without).toFixed(2)}`);
    } finally {
      await hooks.close();
    }
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(home, { recursive: true, force: true }));
