// Types shared by @hookd/hookd's framework adapters (ai-sdk, openai-agents, langchain).
import type { CallTool, HookdClient } from '../index';
import type { ConfigParams, JSONObject, ProfileName, RunResult } from '../protocol';

/**
 * How an agent's tool is one of the profile's: `name` is what hooks match
 * (`Bash`, `Write`, ...), `fields` maps each field hooks read to the agent's
 * argument name (or names, the first present wins).
 */
export interface ToolMapping {
  name: string;
  fields?: Record<string, string | string[]>;
  /** Fields that must be present as text for the mapping to apply. */
  required?: string[];
  names?: string[];
  passthrough?: boolean;
}

export interface HooksOptions {
  /** The rule set hooks are read and run with (default `claude`: the user's Claude Code settings and plugins). */
  profile?: ProfileName;
  /** The session folder (default process.cwd()). */
  cwd?: string;
  /** The session id (default: the framework's, else one hookd makes). */
  sessionId?: string;
  transcriptPath?: string;
  model?: string;
  /** initialize's config: home, plugins, pluginDirs, hooks, bypassTrust, settings... */
  config?: ConfigParams;
  /**
   * Agent tool name -> the profile's tool (added to, or replacing, the
   * defaults: bash/shell/run_command with a `command` are Bash, and so on).
   * `null` keeps a tool's own name and input.
   */
  tools?: Record<string, ToolMapping | null>;
  /** What a PreToolUse `ask` does where the framework has no approval path (default `deny`). */
  ask?: 'deny' | 'allow';
  /** Receives a hook's messages for the user (systemMessage); default: the warning channel. */
  onMessage?: (text: string) => void;
  /** Receives each warning once (default console.warn). */
  onWarning?: (message: string) => void;
  /** The hookd binary (default resolveHookd()). */
  bin?: string;
  /** hookd's environment (default this process's). */
  env?: NodeJS.ProcessEnv;
  /** hookd's log level (default warn). */
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
  stderr?: 'inherit' | 'ignore' | ((text: string) => void);
  callTool?: CallTool;
}

export type PreToolDecision =
  | { action: 'run' | 'ask'; input: unknown; reason?: string; mapped: MappedTool; result: RunResult }
  | { action: 'deny'; reason: string; input?: unknown; mapped: MappedTool; result: RunResult };

export interface MappedTool {
  name: string;
  input: JSONObject;
  mapping?: ToolMapping;
  used: Record<string, string>;
}

/** The tools mapped by default. */
export declare const DEFAULT_TOOLS: readonly ToolMapping[];

/** A UserPromptSubmit hook blocked the prompt: the run did not start. */
export declare class HookdBlockedError extends Error {
  constructor(event: string, reason: string);
  readonly event: string;
  readonly reason: string;
}

/** One agent's hooks and the hookd that runs them (started on first use). */
export declare class HookSession {
  constructor(options?: HooksOptions, framework?: string);
  readonly options: HooksOptions;
  readonly framework: string;
  client: HookdClient | undefined;
  closed: boolean;
  inflight: number;
  keepAlive: NodeJS.Timeout | undefined;
  warned: Set<string>;
  sessionStarted: boolean;
  byName: Map<string, ToolMapping>;
  starting: Promise<HookdClient> | undefined;
  warnOnce(key: string, message: string): void;
  say(text: string): void;
  connect(): Promise<HookdClient>;
  start(): Promise<HookdClient>;
  ref(): void;
  unref(): void;
  detach(): void;
  withRef<T>(fn: () => Promise<T>): Promise<T>;
  run(event: string, input: JSONObject): Promise<RunResult>;
  common(ctx?: { sessionId?: string }): JSONObject;
  mapTool(tool: string, args: unknown): MappedTool;
  unmapInput(original: unknown, updated: JSONObject, mapped: { used: Record<string, string>; mapping?: ToolMapping }): unknown;
  preToolUse(tool: string, args: unknown, callId: string | undefined, ctx?: { sessionId?: string }): Promise<PreToolDecision>;
  askFallback(d: PreToolDecision, why: string): PreToolDecision;
  postToolUse(d: PreToolDecision, output: unknown, callId: string | undefined, ctx?: { sessionId?: string }): Promise<{ changed: boolean; output: unknown }>;
  postToolUseFailure(d: PreToolDecision, err: unknown, callId: string | undefined, ctx?: { sessionId?: string }): Promise<unknown>;
  failureFeedback(d: PreToolDecision, err: unknown, callId: string | undefined, ctx?: { sessionId?: string }): Promise<string[]>;
  beginTurn(prompt: string | undefined, ctx?: { sessionId?: string }): Promise<string[]>;
  stop(lastMessage: string, active: boolean, ctx?: { sessionId?: string }): Promise<string | null>;
  close(): Promise<void>;
  kill(): void;
}

export declare function textOf(content: unknown): string | undefined;
export declare function asText(v: unknown): string;
export declare function isObject(v: unknown): v is JSONObject;
