// What the framework adapters cost per tool call when no hook matches: the
// same agent, driven by each framework's own mock model through a run of
// tool calls, with and without the adapter, against a hookd with no hooks.
// The cost per call is the difference between runs with three tool calls
// and runs with none (so the per-run events, SessionStart,
// UserPromptSubmit and Stop, drop out), from medians of interleaved runs. Each
// call makes two hooks/run requests (PreToolUse, PostToolUse); the time
// spent waiting on them is measured where they are made, and the figure that
// matters is what the adapter adds beyond it.
//
//   HOOKD_BIN=/path/to/hookd node bench-adapters.js [RUNS]   (default 100 of each of the four kinds)
//   (without HOOKD_BIN, resolveHookd() finds hookd)
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startHookd, resolveHookd } = require('./index');
const { HookSession } = require('./adapters/core');

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

// The time each adapter waits on hookd: its hooks/run requests, timed where
// they are made (a hookd that sat idle while the framework worked answers
// slower than one in a tight loop).
let hookdNs = 0;
const run0 = HookSession.prototype.run;
HookSession.prototype.run = async function run(event, input) {
  const start = process.hrtime.bigint();
  try {
    return await run0.call(this, event, input);
  } finally {
    hookdNs += Number(process.hrtime.bigint() - start);
  }
};

/**
 * Nanoseconds per tool call without and with the adapter, and of the
 * latter the part spent waiting on hooks/run: the difference between runs
 * with K tool calls and runs with none, over K. Runs stay short (a long run
 * resends a growing history each step, which would swamp the figure); the
 * four kinds of run are interleaved and each figure is a median, so a busy
 * machine shifts them alike.
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
  const t = [[], [], [], [], [], []];
  for (let i = 0; i < reps; i++) {
    t[0].push(await timed(() => plain(0)));
    t[1].push(await timed(() => plain(K)));
    for (const [k, at] of /** @type {const} */ ([[0, 2], [K, 3]])) {
      const before = hookdNs;
      const ns = await timed(() => hooked(k));
      t[at].push(ns);
      t[at + 2].push(hookdNs - before);
    }
  }
  const [p0, p3, h0, h3, w0, w3] = t.map(median);
  return { without: (p3 - p0) / K, with: (h3 - h0) / K, waiting: (w3 - w0) / K };
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
  /** One agent per kind of run, its model told how many calls to make. */
  const make = () => {
    let left = 0;
    const model = {
      async getResponse() {
        const output = left-- > 0
          ? [{ type: 'function_call', id: `f${left}`, callId: `c${left}`, name: 'bash', arguments: '{"command":"ls"}', status: 'completed' }]
          : [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }];
        return { usage: new Usage(), output };
      },
      async *getStreamedResponse() {},
    };
    const agent = new Agent({ name: 'a', model: /** @type {any} */ (model), tools: [tool({ name: 'bash', description: 'shell', parameters: z.object({ command: z.string() }), execute: async () => 'ok' })] });
    /** @param {number} n */
    const calls = (n) => (left = n);
    return { agent, calls };
  };
  const plain = make();
  const hooked = make();
  return {
    /** @param {number} n */
    plain: (n) => (plain.calls(n), run(plain.agent, 'go', { maxTurns: n + 2 })),
    /** @param {any} hooks @param {number} n */
    hooked: (hooks, n) => (hooked.calls(n), hooks.run(hooked.agent, 'go', { maxTurns: n + 2 })),
    make: () => require('./adapters/openai-agents').createHooks(options),
  };
}

function langchain() {
  const { createAgent, tool, fakeModel, AIMessage } = require('langchain');
  const { z } = require('zod');
  const bash = tool(async () => 'ok', { name: 'bash', description: 'shell', schema: z.object({ command: z.string() }) });
  // One agent per kind of run (compiling one is not what is measured); its
  // fake model's queue is refilled before each run.
  const plainModel = fakeModel();
  const hookedModel = fakeModel();
  const plainAgent = createAgent({ model: plainModel, tools: [bash], middleware: [] });
  /** @type {any} */
  let hookedAgent;
  /** @param {any} m @param {number} n */
  const queue = (m, n) => {
    for (let i = 0; i < n; i++) m.respondWithTools([{ name: 'bash', args: { command: 'ls' }, id: `c${i}` }]);
    m.respond(new AIMessage('done'));
  };
  const input = { messages: [{ role: 'user', content: 'go' }] };
  return {
    /** @param {number} n */
    plain: (n) => (queue(plainModel, n), plainAgent.invoke(input)),
    /** @param {any} hooks @param {number} n */
    hooked: (hooks, n) => {
      hookedAgent ??= createAgent({ model: hookedModel, tools: [bash], middleware: [hooks] });
      queue(hookedModel, n);
      return hookedAgent.invoke(input);
    },
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
  /** @type {number[]} */
  const rts = [];
  for (let i = 0; i < 2000; i++) rts.push(await timed(() => client.run('PreToolUse', input)));
  const rt = median(rts);
  await client.shutdown();
  const us = (/** @type {number} */ ns) => (ns / 1000).toFixed(0).padStart(6);
  console.log(`hooks/run round trip in a tight loop, no matching hook: ${us(rt)} us`);
  console.log('per tool call, us   without    with   ratio   added   of which hooks/run   adapter itself');
  for (const [name, make] of /** @type {const} */ ([['ai-sdk', aiSdk], ['openai-agents', openaiAgents], ['langchain', langchain]])) {
    const f = make();
    const hooks = f.make();
    try {
      const m = await perCall(f.plain, (n) => f.hooked(hooks, n), reps);
      const added = m.with - m.without;
      console.log(`${name.padEnd(18)} ${us(m.without)}  ${us(m.with)}  ${(m.with / m.without).toFixed(2).padStart(6)}  ${us(added)}  ${us(m.waiting).padStart(19)}  ${us(added - m.waiting).padStart(15)}`);
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
