// The ES module face of @hookd/hookd/langchain: the adapter of langchain.js
// with the `langchain` this module imports.
import * as lc from 'langchain';
import adapter from './langchain.js';

export const { hookdMiddleware, HookdBlockedError, DEFAULT_TOOLS } = adapter.bind(lc);
