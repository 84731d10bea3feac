// resolveHookd: HOOKD_PATH, then this platform's @hookd/<platform>-<arch>
// package, then PATH; and the ES module entry point exporting the same client.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const cjs = require('../index');
const { resolveHookd, PLATFORMS } = cjs;
const { tempDir } = require('./helpers');

const exe = process.platform === 'win32' ? 'hookd.exe' : 'hookd';

/** @param {string} file */
function touch(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
  return file;
}

test('HOOKD_PATH wins over PATH', (t) => {
  const dir = tempDir(t);
  const mine = touch(path.join(dir, 'mine', exe));
  touch(path.join(dir, 'bin', exe));
  assert.equal(resolveHookd({ HOOKD_PATH: mine, PATH: path.join(dir, 'bin') }), mine);
});

test('a HOOKD_PATH that is not a file is an error', (t) => {
  const missing = path.join(tempDir(t), 'nope');
  assert.throws(() => resolveHookd({ HOOKD_PATH: missing }), { message: `HOOKD_PATH is ${missing}, which is not a file` });
});

test('without the platform package, hookd on PATH is used', (t) => {
  // In this source folder no @hookd/<platform> package is installed.
  const dir = tempDir(t);
  const onPath = touch(path.join(dir, 'bin', exe));
  assert.equal(resolveHookd({ PATH: [path.join(dir, 'empty'), path.join(dir, 'bin')].join(path.delimiter) }), onPath);
});

test('nothing found: the error names every place looked', (t) => {
  const dir = tempDir(t);
  assert.throws(() => resolveHookd({ PATH: dir }), (err) => {
    assert.ok(err instanceof Error);
    for (const part of ['HOOKD_PATH is not set', `@hookd/${process.platform}-${process.arch}`, `no ${exe} on PATH`]) {
      assert.ok(err.message.includes(part), `${JSON.stringify(err.message)} lacks ${part}`);
    }
    return true;
  });
});

test('one binary package per supported platform', () => {
  assert.deepEqual([...PLATFORMS].sort(), ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-arm64', 'win32-x64']);
});

test('the ES module exports the CommonJS client itself', async () => {
  const esm = await import('../index.mjs');
  for (const name of ['startHookd', 'resolveHookd', 'HookdClient', 'ErrorCodes', 'ResponseError', 'CancellationTokenSource', 'PLATFORMS']) {
    assert.equal(/** @type {Record<string, unknown>} */ (esm)[name], /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (cjs))[name], name);
  }
});
