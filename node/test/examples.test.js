// docs/agent-frameworks.md shows, for each framework, the example in
// examples/ (which tsc checks against the real framework's types): the two
// must not drift apart, and each stays within 15 lines.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

test('the framework examples in docs/agent-frameworks.md are examples/*.mts, at most 15 lines each', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'agent-frameworks.md'), 'utf8');
  const blocks = [...doc.matchAll(/^```ts\n([^]*?)^```$/gm)].map((m) => m[1]);
  const files = ['ai-sdk.mts', 'openai-agents.mts', 'langchain.mts'];
  assert.equal(blocks.length, files.length, 'one ts block per framework');
  files.forEach((file, i) => {
    const example = fs.readFileSync(path.join(__dirname, '..', 'examples', file), 'utf8');
    assert.equal(blocks[i], example, `the page's block ${i + 1} is examples/${file}`);
    assert.ok(example.trimEnd().split('\n').length <= 15, `examples/${file} has more than 15 lines`);
  });
});
