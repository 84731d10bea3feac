import { tool, stepCountIs } from 'ai';
import { z } from 'zod';
import { execSync } from 'node:child_process';
import { createHooks } from '@hookd/hookd/ai-sdk';

const hooks = createHooks(); // the user's Claude Code settings and plugins
const bash = tool({
  description: 'Run a shell command',
  inputSchema: z.object({ command: z.string() }),
  execute: async ({ command }) => execSync(command, { encoding: 'utf8' }),
});
const result = await hooks.generateText({ model: 'openai/gpt-5', tools: { bash }, prompt: 'Why does the build fail?', stopWhen: stepCountIs(20) });
console.log(result.text);
await hooks.close();
