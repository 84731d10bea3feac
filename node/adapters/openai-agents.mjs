// The ES module face of @hookd/hookd/openai-agents: the adapter of
// openai-agents.js with the `@openai/agents` this module imports.
import * as sdk from '@openai/agents';
import adapter from './openai-agents.js';

export const { createHooks, OpenAIAgentsHooks, HookdBlockedError, DEFAULT_TOOLS } = adapter.bind(sdk);
