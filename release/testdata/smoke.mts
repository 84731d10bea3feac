// Type-checked only: the types @hookd/hookd ships, from an ES module.
import { startHookd, type RunResult, type Decision } from '@hookd/hookd';

const hookd = await startHookd({ stderr: (text: string) => process.stderr.write(text) });
const res: RunResult = await hookd.run('PreToolUse', { tool_name: 'Bash' });
const decision: Decision = res.decision;
// @ts-expect-error run's input is an object
await hookd.run('PreToolUse', 'rm -rf /');
export { decision };
