// Round-trip cost of one hooks/run with one trivial command hook, from Node,
// against what a Node host pays to spawn the same command itself with
// child_process. Run by BenchmarkNodeHost_* (go test -bench); prints the mean
// nanoseconds per operation after a warm-up.
//
//   node bench.js hookd|spawn N      (HOOKD_BIN names hookd; spawn runs
//   /bin/sh $HOOKD_BENCH_SHELL_FLAG true, -c by default: what Codex spawns)
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startHookd } = require('./index');

// The Stop input hookd writes to the hook's stdin, for the baseline.
const input = JSON.stringify({ session_id: 's', turn_id: 't', transcript_path: null, cwd: os.tmpdir(), hook_event_name: 'Stop', model: 'gpt-5', permission_mode: 'default', stop_hook_active: false, last_assistant_message: null });

function spawnOnce() {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', [process.env.HOOKD_BENCH_SHELL_FLAG || '-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    // `true` never reads its input: an EPIPE here is expected, as in hookd.
    child.stdin.on('error', () => {});
    child.once('close', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`exit ${code}`))));
    child.stdin.end(input);
  });
}

/** @param {() => Promise<unknown>} op @param {number} n */
async function measure(op, n) {
  for (let i = 0; i < Math.min(20, n); i++) await op();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await op();
  return Number(process.hrtime.bigint() - start) / n;
}

async function main() {
  const [mode, count] = process.argv.slice(2);
  const n = Number(count);
  if (!['hookd', 'spawn'].includes(mode) || !(n > 0)) throw new Error('usage: node bench.js hookd|spawn N');
  if (mode === 'spawn') {
    console.log(await measure(spawnOnce, n));
    return;
  }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hookd-bench-'));
  try {
    fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
    const hookd = await startHookd({ args: ['serve', '--log-level', 'error'], env: { ...process.env, SHELL: '/bin/sh' } });
    await hookd.initialize({ session: { cwd: os.tmpdir() }, config: { home, bypassTrust: true } });
    console.log(await measure(() => hookd.run('Stop', {}), n));
    await hookd.shutdown();
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
