import { Agent } from '@openai/agents';
import { z } from 'zod';
import { execSync } from 'node:child_process';
import { createHooks } from '@hookd/hookd/openai-agents';

const hooks = createHooks(); // the user's Claude Code settings and plugins
const bash = hooks.tool({
  name: 'bash',
  description: 'Run a shell command',
  parameters: z.object({ command: z.string() }),
  execute: async ({ command }) => execSync(command, { encoding: 'utf8' }),
});
const agent = new Agent({ name: 'dev', instructions: 'Fix the build.', tools: [bash] });
console.log((await hooks.run(agent, 'Why does the build fail?')).finalOutput);
await hooks.close();
