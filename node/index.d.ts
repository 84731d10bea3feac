// Types of @hookd/hookd's client (index.js). The wire protocol's types are in
// protocol.d.ts and re-exported here.
import type { ChildProcess } from 'node:child_process';
import type { CancellationToken, Disposable, MessageConnection } from 'vscode-jsonrpc/node';
import { ResponseError, CancellationTokenSource } from 'vscode-jsonrpc/node';
import type {
  ActivateSkillResult,
  AsyncResult,
  CallToolParams,
  CallToolResult,
  EventName,
  HookdNotifications,
  HooksSummary,
  HostRequests,
  InitializeParams,
  InitializeResult,
  JSONObject,
  ListResult,
  LogMessageParams,
  RunResult,
  SetEnabledResult,
  StatusParams,
  TakePendingResult,
  TrustResult,
} from './protocol';

export * from './protocol';
export { ResponseError, CancellationTokenSource };

/**
 * Answers hookd's mcp/callTool requests with the host's own MCP connection.
 * Throw a ResponseError (or any Error) to answer with a JSON-RPC error.
 */
export type CallTool = (params: CallToolParams, token: CancellationToken) => Promise<CallToolResult> | CallToolResult;

export interface StartOptions {
  /** The hookd binary (default: resolveHookd()). */
  bin?: string;
  /** Arguments (default ['serve']). */
  args?: string[];
  /** hookd's working directory. */
  cwd?: string;
  /** hookd's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Where hookd's logs go (default 'inherit'); a function receives them as text. */
  stderr?: 'inherit' | 'ignore' | ((text: string) => void);
  /** Answers mcp/callTool; without it hookd gets -32601 and the mcp_tool hook fails (fail-open). */
  callTool?: CallTool;
}

/** The platforms a @hookd/<platform>-<arch> binary package exists for. */
export declare const PLATFORMS: readonly string[];

/** JSON-RPC error codes hookd answers with. */
export declare const ErrorCodes: Readonly<{
  ParseError: -32700;
  InvalidRequest: -32600;
  MethodNotFound: -32601;
  InvalidParams: -32602;
  InternalError: -32603;
  ServerNotInitialized: -32002;
  RequestCancelled: -32800;
}>;

/**
 * Finds the hookd binary: $HOOKD_PATH, else this platform's @hookd/<platform>-<arch>
 * package, else `hookd` on PATH. Throws an error naming each place it looked.
 */
export declare function resolveHookd(env?: NodeJS.ProcessEnv): string;

/** Spawns hookd and connects to it; rejects when it cannot be spawned. */
export declare function startHookd(options?: StartOptions): Promise<HookdClient>;

/** One running hookd process and its JSON-RPC connection. */
export declare class HookdClient {
  /** Use startHookd; the constructor takes an already spawned child with piped stdin and stdout. */
  constructor(child: ChildProcess, callTool?: CallTool);
  readonly child: ChildProcess;
  readonly connection: MessageConnection;
  /** hookd's exit code once it has exited (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  readonly pid: number | undefined;
  /** Sends a request; aborting `signal` (or cancelling `token`) sends $/cancelRequest. */
  request<M extends keyof HostRequests>(
    method: M,
    params: HostRequests[M]['params'],
    cancel?: { signal?: AbortSignal; token?: CancellationToken },
  ): Promise<HostRequests[M]['result']>;
  /** Starts the session, then sends `initialized`. */
  initialize(params?: InitializeParams): Promise<InitializeResult>;
  /** Runs the hooks of one event and returns the combined outcome. */
  run(
    event: EventName,
    input?: JSONObject,
    options?: { turnId?: string; signal?: AbortSignal; token?: CancellationToken },
  ): Promise<RunResult>;
  list(event?: EventName): Promise<ListResult>;
  reload(): Promise<HooksSummary>;
  trust(keys: string[]): Promise<TrustResult>;
  setEnabled(key: string, enabled: boolean): Promise<SetEnabledResult>;
  /** Claude profile: an agent (`agentId`, absent: the main agent) invoked skill `name`; its frontmatter hooks join that agent's events. */
  activateSkill(name: string, agentId?: string): Promise<ActivateSkillResult>;
  takePending(): Promise<TakePendingResult>;
  onNotification<M extends keyof HookdNotifications>(method: M, handler: (params: HookdNotifications[M]) => void): Disposable;
  onLogMessage(handler: (params: LogMessageParams) => void): Disposable;
  onStatus(handler: (params: StatusParams) => void): Disposable;
  onAsyncCompleted(handler: (params: AsyncResult) => void): Disposable;
  onChanged(handler: (params: HooksSummary) => void): Disposable;
  /** shutdown, then exit; resolves with hookd's exit code. Kills hookd after timeoutMs. */
  shutdown(options?: { timeoutMs?: number }): Promise<number | null>;
  /** Ends hookd at once. */
  kill(): void;
}
