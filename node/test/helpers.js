// Shared set-up for the Node suites: where hookd is, throwaway Codex homes, and
// a FIFO a hook writes to so a test can wait for it without sleeping.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

/** The hookd binary under test: HOOKD_BIN (set by the Go test that runs this suite). */
function hookdBin() {
  const bin = process.env.HOOKD_BIN;
  if (!bin) throw new Error('HOOKD_BIN is not set: run this suite through `go test ./...` (TestNodeHost) or set it to a hookd binary');
  return bin;
}

/** The environment hookd runs with: hooks run under /bin/sh, whatever the user's shell. */
function hookdEnv() {
  return { ...process.env, SHELL: '/bin/sh' };
}

/**
 * A temporary folder removed when the test ends.
 * @param {import('node:test').TestContext} t
 */
function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookd-node-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A Codex home whose hooks.json holds `hooks` (the value of its "hooks" key).
 * @param {import('node:test').TestContext} t
 * @param {object} hooks
 * @param {object} [extra] other top-level fields of hooks.json
 */
function codexHome(t, hooks, extra = {}) {
  const home = tempDir(t);
  fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ ...extra, hooks }));
  return home;
}

/** One command handler in a match-all group. @param {string} command */
function commandGroup(command, fields = {}) {
  return [{ hooks: [{ type: 'command', command, ...fields }] }];
}

/**
 * Makes a FIFO and returns its path and a promise of the first chunk a hook
 * writes to it. Opening a FIFO for reading blocks until a writer opens it,
 * which is exactly the signal wanted.
 * @param {import('node:test').TestContext} t
 */
function fifo(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookd-fifo-'));
  const file = path.join(dir, 'signal');
  execFileSync('mkfifo', [file]);
  t.after(() => {
    // If no hook ever wrote, open the write end ourselves so the pending read
    // (which holds a libuv thread) ends and the test process can exit.
    try {
      fs.closeSync(fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading any more.
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const written = new Promise((resolve, reject) => {
    const stream = fs.createReadStream(file, { encoding: 'utf8' });
    stream.once('data', (chunk) => {
      resolve(String(chunk).trim());
      stream.destroy();
    });
    stream.once('error', reject);
  });
  return { file, written };
}


/**
 * The options of a framework adapter (adapters/*.js) under test: the real
 * hookd, the claude profile, a throwaway home and the named Claude Code
 * plugins of fixtures/plugins (trust bypassed, each with its own data
 * folder), and the warnings collected in `warnings`.
 * @param {import('node:test').TestContext} t
 * @param {string[]} plugins
 */
function adapterOptions(t, plugins) {
  const root = path.join(__dirname, '..', '..', 'fixtures', 'plugins');
  const home = tempDir(t);
  /** @type {string[]} */
  const warnings = [];
  /** @type {import('../adapters/core').HooksOptions} */
  const options = {
    bin: hookdBin(),
    env: hookdEnv(),
    cwd: tempDir(t),
    config: {
      home,
      bypassTrust: true,
      plugins: plugins.map((name) => ({ root: path.join(root, name), dataDir: path.join(home, 'data', name) })),
    },
    onWarning: (w) => warnings.push(w),
  };
  for (const name of plugins) fs.mkdirSync(path.join(home, 'data', name), { recursive: true });
  return { options, warnings };
}

/** The reason claude-policy's PreToolUse hook gives for `curl ... | sh`. */
const CURL_REASON = 'claude-policy: piping a download into a shell is not allowed; download, read, then run.';
/** The reason claude-agent-checks' Stop hook gives, once. */
const CHECK_REASON = 'claude-agent-checks: check your work, then reply CHECKED.';

module.exports = { hookdBin, hookdEnv, tempDir, codexHome, commandGroup, fifo, adapterOptions, CURL_REASON, CHECK_REASON };
