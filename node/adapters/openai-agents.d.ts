// Types of @hookd/hookd/openai-agents: the profile's hooks for an OpenAI Agents JS agent.
import type { Agent, Tool, run, tool } from '@openai/agents';
import type { HooksOptions, HookSession } from './core';

import { HookdBlockedError, DEFAULT_TOOLS } from './core';
export { HookdBlockedError, DEFAULT_TOOLS };
export type { HooksOptions, ToolMapping } from './core';

/** One OpenAI Agents JS agent's hooks; hookd starts on first use and ends with close(). */
export declare class OpenAIAgentsHooks {
  constructor(options?: HooksOptions);
  readonly session: HookSession;
  /** Wraps the function tools of an agent and of its handoffs, in place, once. */
  agent<A extends Agent<any, any>>(agent: A): A;
  /**
   * tool()'s options: the SDK's tool with the hooks, its errors reaching
   * PostToolUseFailure. A tool: the same tool with the hooks.
   */
  tool: typeof tool & (<T extends Tool<any>>(t: T) => T);
  /**
   * run() with the hooks: SessionStart and UserPromptSubmit before, Stop after (a
   * block runs the agent again with the reason as the next user message). Throws
   * HookdBlockedError when the prompt is blocked.
   */
  run: typeof run;
  /** Ends this agent's hookd. */
  close(): Promise<void>;
}

/** The hooks for one OpenAI Agents JS agent (the claude profile unless options.profile says otherwise). */
export declare function createHooks(options?: HooksOptions): OpenAIAgentsHooks;

/** The ES module entry's: this adapter with the framework module it imported. */
export declare function bind(framework: object): { createHooks: typeof createHooks; OpenAIAgentsHooks: typeof OpenAIAgentsHooks; HookdBlockedError: typeof HookdBlockedError; DEFAULT_TOOLS: typeof DEFAULT_TOOLS };
