// Types of @hookd/hookd/langchain: the profile's hooks as a LangChain.js agent middleware.
import type { AgentMiddleware } from 'langchain';
import type { HooksOptions, HookSession } from './core';

import { HookdBlockedError, DEFAULT_TOOLS } from './core';
export { HookdBlockedError, DEFAULT_TOOLS };
export type { HooksOptions, ToolMapping } from './core';

/** The middleware, with close() to end its hookd. */
export type HookdMiddleware = AgentMiddleware & {
  /** Ends this agent's hookd. */
  close(): Promise<void>;
  readonly session: HookSession;
};

/**
 * The hooks for one LangChain agent (`createAgent({ middleware: [hooks] })`), the
 * claude profile unless options.profile says otherwise; hookd starts on first use.
 */
export declare function hookdMiddleware(options?: HooksOptions): HookdMiddleware;

/** The ES module entry's: this adapter with the framework module it imported. */
export declare function bind(framework: object): { hookdMiddleware: typeof hookdMiddleware; HookdBlockedError: typeof HookdBlockedError; DEFAULT_TOOLS: typeof DEFAULT_TOOLS };
