// schema/hooks.schema.json: every hooks file under fixtures/ validates against
// it (with ajv), and the mistakes it exists to catch are caught.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const Ajv = require('ajv').default;

const repo = path.resolve(__dirname, '..', '..');
const schema = JSON.parse(fs.readFileSync(path.join(repo, 'schema', 'hooks.schema.json'), 'utf8'));
const validate = new Ajv({ strict: true, strictRequired: false, allErrors: true }).compile(schema);

/** @param {unknown} doc */
function errors(doc) {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

// Soong's hooks.json is a format of its own (a version key, object matchers);
// the schema describes the Codex and Claude Code format.
// Hosts whose hooks files have events and fields of their own: the schema is
// the codex/claude shape, and each of these profiles checks its own files
// (Droid's hooks.json is the bare map of events).
const otherFormats = ['soong', 'gemini', 'copilot', 'qwen', 'droid'].map((p) => path.join(repo, 'fixtures', 'profiles', p) + path.sep);

/**
 * Hooks files under dir: every hooks.json, and the files plugin manifests
 * name in their "hooks" entry.
 * @param {string} dir
 * @returns {string[]}
 */
function hooksFiles(dir) {
  /** @type {Set<string>} */
  const found = new Set();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (!entry.isFile() || otherFormats.some((p) => file.startsWith(p))) continue;
    if (entry.name === 'hooks.json') found.add(file);
    if (entry.name === 'plugin.json' && /[.](codex|claude)-plugin$/.test(path.dirname(file))) {
      const root = path.dirname(path.dirname(file));
      const hooks = JSON.parse(fs.readFileSync(file, 'utf8')).hooks;
      for (const ref of [hooks].flat()) {
        if (typeof ref === 'string') found.add(path.resolve(root, ref));
      }
    }
  }
  return [...found].sort();
}

// Fixtures that are broken on purpose, to test how hookd reports them: the
// schema must reject them too.
const brokenOnPurpose = new Set([
  // Events at the root instead of under "hooks" (Claude Code drops the plugin).
  path.join(repo, 'fixtures', 'profiles', 'claude', 'plugins', 'event-map-root', 'hooks', 'hooks.json'),
]);

test('every fixture hooks file validates', () => {
  const files = hooksFiles(path.join(repo, 'fixtures'));
  assert.ok(files.includes(path.join(repo, 'fixtures', 'codex-home', 'hooks.json')), `found: ${files}`);
  for (const file of files) {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (brokenOnPurpose.has(file)) {
      assert.notDeepEqual(errors(doc), [], `${path.relative(repo, file)} is broken on purpose but matches the schema`);
      continue;
    }
    assert.deepEqual(errors(doc), [], `${path.relative(repo, file)} does not match schema/hooks.schema.json`);
  }
});

test('a file using every handler field validates', () => {
  const doc = {
    description: 'all fields',
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', commandWindows: 'guard.cmd', timeout: 10, statusMessage: 'Checking', additionalContextLimit: 0 }] },
        { matcher: '^mcp__', hooks: [{ type: 'mcp_tool', server: 'policy', tool: 'check', input: { cmd: '${tool_input.command}' }, timeout: 5 }] },
      ],
      PostToolUse: [{ hooks: [{ type: 'command', command: 'lint.sh', async: true, command_windows: 'lint.cmd' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'check.sh' }] }],
      Notification: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }],
    },
  };
  assert.deepEqual(errors(doc), []);
});

test('the mistakes an editor should flag are rejected', () => {
  /** @type {[string, unknown, RegExp][]} */
  const cases = [
    ['no hooks key', { description: 'x' }, /must have required property 'hooks'/],
    ['a misspelt event', { hooks: { PretoolUse: [] } }, /must NOT have additional properties/],
    ['groups not in an array', { hooks: { Stop: { hooks: [] } } }, /\/hooks\/Stop must be array/],
    ['a group without hooks', { hooks: { Stop: [{ matcher: '*' }] } }, /must have required property 'hooks'/],
    ['a handler without type', { hooks: { Stop: [{ hooks: [{ command: 'x' }] }] } }, /must have required property 'type'/],
    ['an unknown handler type', { hooks: { Stop: [{ hooks: [{ type: 'shell', command: 'x' }] }] } }, /must be equal to one of the allowed values/],
    ['a command handler without command', { hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } }, /must have required property 'command'/],
    ['an empty command', { hooks: { Stop: [{ hooks: [{ type: 'command', command: '' }] }] } }, /must NOT have fewer than 1 characters/],
    ['an mcp_tool without server', { hooks: { Stop: [{ hooks: [{ type: 'mcp_tool', tool: 't' }] }] } }, /must have required property 'server'/],
    ['a timeout in a string', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: '10' }] }] } }, /timeout must be integer/],
    ['a negative timeout', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] } }, /timeout must be >= 0/],
    ['async as a string', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', async: 'yes' }] }] } }, /async must be boolean/],
    ['a matcher that is not a string', { hooks: { PreToolUse: [{ matcher: ['Bash'], hooks: [] }] } }, /matcher must be string/],
    ['an unknown top-level field (Codex rejects the file)', { hooks: {}, $schema: 'x' }, /must NOT have additional properties/],
  ];
  for (const [name, doc, want] of cases) {
    const got = errors(doc).join('\n');
    assert.match(got, want, `${name}: got ${got || 'valid'}`);
  }
});
