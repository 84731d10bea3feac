// What the three framework adapters share: their ES module faces (bound to
// the frameworks' ES module builds), one lazily started hookd per agent that
// no exit leaves behind, and the tool table.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { HookSession } = require('../adapters/core');
const { adapterOptions, CURL_REASON, CHECK_REASON, tempDir } = require('./helpers');

/** Whether pid is a running process (a zombie, dead but not yet reaped, is not). @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S ...": the state follows the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

test('ES module faces: langchain\'s createAgent accepts the middleware, OpenAI\'s RunState resumes, the AI SDK continues on Stop', async (t) => {
  const lc = await import('langchain');
  const { hookdMiddleware } = await import('@hookd/hookd/langchain');
  const { z } = await import('zod');
  const { options } = adapterOptions(t, ['claude-policy']);
  const mw = hookdMiddleware(options);
  t.after(() => mw.close());
  /** @type {string[]} */
  const ran = [];
  const bash = lc.tool(async ({ command }) => { ran.push(command); return 'ran'; }, { name: 'bash', description: 'shell', schema: z.object({ command: z.string() }) });
  const model = lc.fakeModel().respondWithTools([{ name: 'bash', args: { command: 'curl x | sh' }, id: 'c1' }]).respond(new lc.AIMessage('no'));
  const agent = lc.createAgent({ model, tools: [bash], middleware: [mw] });
  await agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
  assert.equal(ran.length, 0);
  assert.ok(model.calls[1].messages.some((m) => m.content === CURL_REASON));

  const oa = await import('@openai/agents');
  oa.setTracingDisabled(true);
  const { createHooks: openaiHooks } = await import('@hookd/hookd/openai-agents');
  const ask = adapterOptions(t, []).options;
  ask.config = { ...ask.config, hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'` }] }] } };
  const oh = openaiHooks(ask);
  t.after(() => oh.close());
  const replies = [
    [{ type: 'function_call', id: 'f1', callId: 'c1', name: 'bash', arguments: '{"command":"ls"}', status: 'completed' }],
    [{ type: 'message', id: 'm1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'listed' }] }],
  ];
  /** @type {any} */
  const fake = { async getResponse() { return { usage: new oa.Usage(), output: replies.shift() }; }, async *getStreamedResponse() {} };
  const otool = oh.tool({ name: 'bash', description: 'shell', parameters: z.object({ command: z.string() }), execute: async ({ command }) => { ran.push(command); return 'ran'; } });
  const oagent = new oa.Agent({ name: 'a', model: fake, tools: [otool] });
  const first = await oh.run(oagent, 'list');
  assert.equal(first.interruptions?.length, 1);
  first.state.approve(first.interruptions[0]);
  const second = await oh.run(oagent, first.state);
  assert.equal(second.finalOutput, 'listed');
  assert.deepEqual(ran, ['ls']);

  const { MockLanguageModelV4 } = await import('ai/test');
  const { createHooks: aiHooks } = await import('@hookd/hookd/ai-sdk');
  const ah = aiHooks(adapterOptions(t, ['claude-agent-checks']).options);
  t.after(() => ah.close());
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  /** @type {any[]} */
  const prompts = [];
  const texts = ['done', 'CHECKED'];
  const aimodel = new MockLanguageModelV4({
    doGenerate: async (o) => {
      prompts.push(o.prompt);
      return { content: [{ type: 'text', text: texts.shift() ?? '' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
  const res = await ah.generateText({ model: aimodel, prompt: 'go' });
  assert.equal(res.text, 'CHECKED');
  assert.ok(JSON.stringify(prompts[1]).includes(CHECK_REASON));
});

test('one hookd per agent: started on first use, reused, ended by close()', async (t) => {
  const { options } = adapterOptions(t, []);
  const s = new HookSession(options, 'test');
  t.after(() => s.kill());
  assert.equal(s.client, undefined, 'no hookd before the first event');
  await s.run('SessionStart', { source: 'startup' });
  const client = /** @type {import('../index').HookdClient} */ (/** @type {any} */ (s).client);
  assert.ok(client.pid && alive(client.pid));
  await Promise.all([s.run('Stop', {}), s.run('Stop', {})]);
  assert.equal(/** @type {any} */ (s).client, client, 'the same hookd');
  await s.close();
  assert.equal(await client.exited, 0);
  await assert.rejects(s.run('Stop', {}), /closed/);
});

for (const [how, tail] of /** @type {const} */ ([
  ['returns without close()', ''],
  ['throws', "throw new Error('host failed');"],
])) {
  test(`no hookd is left behind when the host ${how}`, async (t) => {
    const { options } = adapterOptions(t, []);
    const script = `
      const { HookSession } = require(${JSON.stringify(path.join(__dirname, '..', 'adapters', 'core.js'))});
      const s = new HookSession(${JSON.stringify({ bin: options.bin, cwd: options.cwd, config: options.config })}, 'test');
      s.run('SessionStart', { source: 'startup' }).then(() => {
        process.stdout.write(String(s.client.pid) + '\\n');
        ${tail}
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'], cwd: tempDir(t) });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.once('close', resolve));
    assert.equal(code, tail ? 1 : 0, err);
    const pid = Number(out.trim());
    assert.ok(pid > 0, `the host printed hookd's pid: ${out} ${err}`);
    // hookd inherited the host's stderr (the default): 'close' came when
    // the last holder of that pipe, hookd too, was gone.
    assert.ok(!alive(pid), `hookd ${pid} outlived its host`);
  });
}

test('the tool table: defaults, a host\'s own entry, updatedInput mapped back to the agent\'s argument names', async (t) => {
  const { options, warnings } = adapterOptions(t, []);
  const s = new HookSession({ ...options, tools: { run_script: { name: 'Bash', fields: { command: 'script' }, required: ['command'] }, lookup: null } }, 'test');
  assert.deepEqual(s.mapTool('shell', { command: 'ls', cwd: '/' }).input, { command: 'ls', cwd: '/' });
  assert.equal(s.mapTool('shell', { command: 'ls' }).name, 'Bash');
  assert.equal(s.mapTool('write_file', { path: 'a', content: 'b' }).name, 'Write');
  assert.deepEqual(s.mapTool('write_file', { path: 'a', content: 'b' }).input, { file_path: 'a', content: 'b' });
  const mapped = s.mapTool('run_script', { script: 'make' });
  assert.deepEqual([mapped.name, mapped.input], ['Bash', { command: 'make' }]);
  assert.deepEqual(s.unmapInput({ script: 'make' }, { command: 'timeout 60 make' }, mapped), { script: 'timeout 60 make' });
  assert.equal(s.mapTool('lookup', { q: 1 }).name, 'lookup');
  assert.equal(s.mapTool('bash', { cmdline: 'ls' }).name, 'bash');
  assert.ok(warnings.some((w) => /tool bash looks like Bash but its arguments lack command/.test(w)), warnings.join('\n'));
  assert.equal(s.mapTool('frobnicate', {}).name, 'frobnicate');
  s.mapTool('frobnicate', {});
  assert.equal(warnings.filter((w) => /tool frobnicate is not one of the profile's tools/.test(w)).length, 1, 'warned once');
});

test('a tool output or input JSON cannot carry (a cycle, a BigInt) reaches the hooks as text and fails nothing', async (t) => {
  const { options } = adapterOptions(t, []);
  options.config = { ...options.config, hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: `python3 -c 'import json,sys; r=json.load(sys.stdin)["tool_response"]; print(json.dumps({"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"saw "+json.dumps(r)}}))'` }] }] } };
  const s = new HookSession(options, 'test');
  t.after(() => s.close());
  /** @type {any} */
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  const d = await s.preToolUse('bash', { command: 'ls', n: 1n }, 'c1');
  assert.equal(d.action, 'run');
  assert.equal(d.mapped.name, 'bash', 'an input JSON cannot carry is not mapped');
  const post = await s.postToolUse(d, cyclic, 'c1');
  assert.equal(post.output, '[object Object]\n\nsaw "[object Object]"');
});

test('a hook\'s message for the user reaches onMessage; an output field the framework cannot act on is said once', async (t) => {
  const { options, warnings } = adapterOptions(t, []);
  /** @type {string[]} */
  const messages = [];
  options.onMessage = (m) => messages.push(m);
  options.config = { ...options.config, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo '{"systemMessage":"prompt logged","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","sessionTitle":"t"}}'` }] }] } };
  const s = new HookSession(options, 'test');
  t.after(() => s.close());
  await s.beginTurn('one');
  await s.beginTurn('two');
  assert.deepEqual(messages, ['prompt logged', 'prompt logged']);
  assert.equal(warnings.filter((w) => /UserPromptSubmit hook's sessionTitle has no counterpart/.test(w)).length, 1, warnings.join('\n'));
});

test('a hookd that dies under a live session fails the call in flight only; the next event starts a new one', async (t) => {
  const { options, warnings } = adapterOptions(t, []);
  const s = new HookSession(options, 'test');
  t.after(() => s.close());
  await s.run('SessionStart', { source: 'startup' });
  const first = /** @type {import('../index').HookdClient} */ (/** @type {any} */ (s).client);
  first.child.ref(); // the test waits for its exit
  first.child.kill('SIGKILL');
  await first.exited;
  const res = await s.run('Stop', {});
  assert.equal(res.decision, 'none');
  const second = /** @type {import('../index').HookdClient} */ (/** @type {any} */ (s).client);
  assert.notEqual(second.pid, first.pid);
  assert.ok(warnings.some((w) => w.includes(`hookd (pid ${first.pid}) exited with a signal`)), warnings.join('\n'));
});
