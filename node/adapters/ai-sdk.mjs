// The ES module face of @hookd/hookd/ai-sdk: the adapter of ai-sdk.js with
// the `ai` this module imports.
import * as ai from 'ai';
import adapter from './ai-sdk.js';

export const { createHooks, AISDKHooks, HookdBlockedError, DEFAULT_TOOLS } = adapter.bind(ai);
