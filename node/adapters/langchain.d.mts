// Types of @hookd/hookd/langchain for ES modules: those of langchain.d.ts, written against the framework's ES module types (a CommonJS and an ES module copy of a framework's types do not mix).
import type { AgentMiddleware } from 'langchain';
import type { HooksOptions, HookSession } from './core.js';

export { HookdBlockedError, DEFAULT_TOOLS } from './core.js';
export type { HooksOptions, ToolMapping } from './core.js';

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
