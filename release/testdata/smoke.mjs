// A Node host (ES module): start hookd from @hookd/hookd, get a deny.
import { startHookd, resolveHookd } from '@hookd/hookd';

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
