// A Node host (CommonJS): start hookd from @hookd/hookd, get a deny.
const { startHookd, resolveHookd } = require('@hookd/hookd');

async function main() {
  const hookd = await startHookd();
  const init = await hookd.initialize({
    session: { cwd: process.cwd() },
    config: {
      bypassTrust: true,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [
        { type: 'command', command: `echo '{"decision":"block","reason":"no recursive deletes"}'` }] }] },
    },
  });
  const res = await hookd.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
  await hookd.shutdown();
  console.log(JSON.stringify({ decision: res.decision, reason: res.reason, version: init.serverInfo.version, binary: resolveHookd() }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
