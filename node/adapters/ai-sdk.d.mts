// Types of @hookd/hookd/ai-sdk for ES modules: those of ai-sdk.d.ts, written against the framework's ES module types (a CommonJS and an ES module copy of a framework's types do not mix).
import type { generateText, ToolSet } from 'ai';
import type { HooksOptions, HookSession } from './core.js';

export { HookdBlockedError, DEFAULT_TOOLS } from './core.js';
export type { HooksOptions, ToolMapping } from './core.js';

/** One AI SDK agent's hooks; hookd starts on first use and ends with close(). */
export declare class AISDKHooks {
  constructor(options?: HooksOptions);
  readonly session: HookSession;
  /** The same tools, each execute run through PreToolUse, PostToolUse and PostToolUseFailure. */
  tools<T extends ToolSet>(tools: T): T;
  /**
   * generateText with the hooks: SessionStart and UserPromptSubmit context in the
   * instructions, the tools wrapped, `ask` as the SDK's tool approval, and Stop after
   * each turn. Throws HookdBlockedError when the prompt is blocked.
   */
  generateText: typeof generateText;
  /** Ends this agent's hookd. */
  close(): Promise<void>;
}

/** The hooks for one AI SDK agent (the claude profile unless options.profile says otherwise). */
export declare function createHooks(options?: HooksOptions): AISDKHooks;
