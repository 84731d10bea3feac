#!/usr/bin/env node
// `hookd` for npm users (npx hookd run ...): runs the platform binary that
// resolveHookd finds, with this process's arguments, stdio and exit code.
'use strict';

const { spawnSync } = require('node:child_process');
const { resolveHookd } = require('../index.js');

let bin;
try {
  bin = resolveHookd();
} catch (err) {
  console.error(`hookd: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
const res = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit' });
if (res.error) {
  console.error(`hookd: run ${bin}: ${res.error.message}`);
  process.exit(1);
}
if (res.signal) process.kill(process.pid, res.signal);
process.exit(res.status ?? 1);
