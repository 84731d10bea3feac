import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import { execSync } from 'node:child_process';
import { hookdMiddleware } from '@hookd/hookd/langchain';

const hooks = hookdMiddleware(); // the user's Claude Code settings and plugins
const bash = tool(async ({ command }) => execSync(command, { encoding: 'utf8' }), {
  name: 'bash',
  description: 'Run a shell command',
  schema: z.object({ command: z.string() }),
});
const agent = createAgent({ model: 'openai:gpt-5', tools: [bash], middleware: [hooks] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'Why does the build fail?' }] });
console.log(result.messages.at(-1)?.content);
await hooks.close();
