// TypeScript types for hookd's wire protocol, version 1 (docs/protocol.md in
// the hookd repository). Every request, result and notification has a type
// here; the maps at the end (HostRequests, HookdRequests, HookdNotifications,
// HostNotifications) tie method names to them, so a host can write
// `request<M extends keyof HostRequests>(method: M, params: HostRequests[M]['params'])`.
//
// The protocol only grows: new optional fields and new methods. Types here
// mark as optional everything hookd may leave out, and accept null where the
// protocol examples show one.

// ---------------------------------------------------------------- vocabulary

/** Events of the codex profile (the default), in Codex's order. */
export type CodexEvent =
  | 'PreToolUse'
  | 'PermissionRequest'
  | 'PostToolUse'
  | 'PreCompact'
  | 'PostCompact'
  | 'SessionStart'
  | 'SessionEnd'
  | 'UserPromptSubmit'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'Stop';

/** An event name: the codex ones are suggested, other profiles have more. */
export type EventName = CodexEvent | (string & {});

/** Rule sets hookd knows; `codex` is the default. */
export type ProfileName = 'codex' | 'mind' | 'mirri' | 'soong' | 'claude' | (string & {});

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions';

/** Where a hook was configured. */
export type Layer = 'managed' | 'user' | 'project' | 'plugin' | 'session' | 'profile' | 'cli';

/** Review state of a hook: only managed and trusted hooks run (unless trust is bypassed). */
export type TrustState = 'managed' | 'trusted' | 'modified' | 'untrusted';

export type HandlerType = 'command' | 'mcp_tool';

/**
 * The combined verdict of one event. `none`: nothing decided, go on as normal.
 * What allow, deny and block mean depends on the event (docs/profile-codex.md).
 */
export type Decision = 'none' | 'allow' | 'deny' | 'block' | 'ask' | 'defer';

/** How one handler's run ended; `started` is an async handler whose result comes later. */
export type HookStatus = 'succeeded' | 'blocked' | 'failed' | 'timedOut' | 'cancelled' | 'started';

/** Why a matched hook did not run. */
export type SkipReason = 'untrusted' | 'modified' | 'disabled' | 'managedOnly' | 'hooksDisabled' | 'duplicate' | 'afterDeny' | 'toolNotSucceeded' | 'disableAllHooks' | 'once';

/** JSON-RPC error codes hookd answers with. */
export type ErrorCode =
  | -32700 // parse error: the body is not JSON (id null)
  | -32600 // invalid request: batch, non-object, no method, second initialize, after shutdown
  | -32601 // method not found
  | -32602 // invalid params: the message names the field
  | -32603 // internal error
  | -32002 // server not initialized
  | -32800; // request cancelled ($/cancelRequest)

/** A JSON object; event inputs and tool inputs are objects. */
export type JSONObject = { [key: string]: unknown };

// ------------------------------------------------------------- hooks files

/** A hooks.json document (also the shape of initialize's `config.hooks` under `hooks`). */
export interface HooksFile {
  description?: string;
  hooks: HooksByEvent;
}

/** Matcher groups by event name. */
export type HooksByEvent = { [E in CodexEvent]?: MatcherGroup[] } & { [event: string]: MatcherGroup[] | undefined };

export interface MatcherGroup {
  /** Absent, "" or "*" match everything; letters, digits, _ and | are an exact set; anything else a regex. */
  matcher?: string;
  hooks: HandlerConfig[];
}

export type HandlerConfig = CommandHandlerConfig | McpToolHandlerConfig | UnsupportedHandlerConfig;

interface HandlerConfigBase {
  /** Seconds; default 600 (SessionEnd: 1, at most 3); 0 means 1. */
  timeout?: number;
  /** Shown while the handler runs (hooks/status). */
  statusMessage?: string;
}

export interface CommandHandlerConfig extends HandlerConfigBase {
  type: 'command';
  /** Run with `$SHELL -lc` (else /bin/sh), the event input JSON on stdin. */
  command: string;
  /** Replaces `command` on Windows. */
  commandWindows?: string;
  command_windows?: string;
  /** Run in the background; only additionalContext and systemMessage take effect. */
  async?: boolean;
  /** Approximate tokens of additionalContext before it is spilled to a file; 0: no limit. Default 2500. */
  additionalContextLimit?: number;
}

export interface McpToolHandlerConfig extends HandlerConfigBase {
  type: 'mcp_tool';
  /** An MCP server the host holds; hookd asks the host with mcp/callTool. */
  server: string;
  tool: string;
  /** Arguments template: `${field.path}` reads the event input. */
  input?: JSONObject;
  async?: boolean;
}

/** claude: answered by the host's model (model/evaluate); other profiles parse, warn about and never run them. */
export interface UnsupportedHandlerConfig extends HandlerConfigBase {
  type: 'prompt' | 'agent';
  [field: string]: unknown;
}

// ------------------------------------------------------------- initialize

export interface InitializeParams {
  /** The host's pid: when it dies, hookd kills its handlers and exits. */
  processId?: number | null;
  clientInfo?: { name: string; version?: string };
  /** Default `codex` (or `hookd serve --profile`). */
  profile?: ProfileName;
  session?: SessionParams;
  config?: ConfigParams;
  /** The host's side: evaluate, when it answers model/evaluate (claude prompt and agent hooks). */
  capabilities?: { evaluate?: boolean };
}

export interface SessionParams {
  /** Generated (a UUID) when absent. */
  id?: string;
  /** Default: hookd's working directory; must be a directory. */
  cwd?: string;
  transcriptPath?: string | null;
  model?: string;
  permissionMode?: PermissionMode;
}

export interface ConfigParams {
  /** The profile's user folder (default `$CODEX_HOME`, else `~/.codex`). */
  home?: string;
  project?: { root?: string; trusted?: boolean };
  plugins?: PluginParams[];
  /** Folders scanned for plugins (children with a manifest, or the install cache layout). */
  pluginDirs?: string[];
  managed?: { requirements?: string };
  /** Session hooks, in the hooks.json `hooks` shape. */
  hooks?: HooksByEvent;
  /** Run enabled hooks that were never reviewed, for this session only. */
  bypassTrust?: boolean;
  /**
   * Run the login shell once per session (and per reload), capture its
   * environment and run login-shell hooks as `$SHELL -c` with it
   * (docs/performance.md). Default: `hookd serve --login-env-cache`.
   */
  loginEnvCache?: boolean;
  features?: { hookCommandRewrite?: boolean };
  /** claude: extra settings files, a layer after the project's (Claude Code's --settings). */
  settings?: string[];
}

export interface PluginParams {
  root: string;
  /** Default: the manifest's name. */
  name?: string;
  /** Default `local`. */
  marketplace?: string;
  enabled?: boolean;
  /** Default: a per-plugin folder under the XDG data home. */
  dataDir?: string | null;
}

export interface InitializeResult {
  serverInfo: { name: string; version: string };
  protocolVersion: number;
  profile: string;
  session: { id: string; spillDir: string };
  capabilities: { events: EventName[]; handlerTypes: HandlerType[] };
  hooks: HooksSummary;
}

/** Counts of discovered hooks (also hooks/reload's result and hooks/changed's params). */
export interface HooksSummary {
  installed: number;
  runnable: number;
  warnings: number;
}

// ------------------------------------------------------------- hooks/list

export interface ListParams {
  event?: EventName;
}

export interface ListResult {
  hooks: HookInfo[];
  warnings: Warning[];
}

export interface HookInfo {
  /** `<source>:<event_snake>:<group>:<handler>`: where the hook is. */
  key: string;
  event: EventName;
  /** null when absent, and for events that ignore matchers. */
  matcher: string | null;
  source: HookSource;
  handler: HandlerInfo;
  /** `sha256:<64 hex>`: what the hook is (trust is stored against it). */
  hash?: string;
  trust: TrustState;
  enabled: boolean;
  /** Whether it would run now. */
  runnable: boolean;
  /** It runs only because trust is bypassed. */
  bypassed?: boolean;
  /** The hash recorded at the last review; differs from hash exactly when trust is "modified". */
  trustedHash?: string;
  /** Why a hook that is not runnable would be skipped. */
  skipReason?: SkipReason;
  /** The agent or skill a scoped hook belongs to (claude; docs/scoped-hooks.md). */
  scope?: HookScope;
}

export interface HookSource {
  layer: Layer;
  path: string;
  plugin?: string;
}

/** A handler with defaults applied. */
export interface HandlerInfo {
  type: HandlerType;
  command?: string;
  commandWindows?: string;
  /** Effective timeout in seconds. */
  timeout: number;
  async: boolean;
  statusMessage: string | null;
  additionalContextLimit?: number;
  server?: string;
  tool?: string;
  input?: JSONObject;
}

/** A discovery problem; the message ends with the position in the file. */
export interface Warning {
  source: string;
  message: string;
  event?: EventName;
  group?: number;
  handler?: number;
}

// -------------------------------------------------- hooks/trust, setEnabled

export interface TrustParams {
  keys: string[];
}

export interface TrustResult {
  trusted: { key: string; hash: string }[];
}

export interface SetEnabledParams {
  key: string;
  enabled: boolean;
}

export interface SetEnabledResult {
  key: string;
  enabled: boolean;
}

// ------------------------------------------------ scoped hooks (claude)

/** A scoped hook's scope in hooks/list: an agent's or a skill's frontmatter hooks. */
export interface HookScope {
  kind: 'agent' | 'skill';
  /** The agent type (frontmatter name) or skill name (`<plugin>:<skill>` for a plugin's). */
  name: string;
  /** The agent's .md or the skill's SKILL.md. */
  path: string;
  /** A skill activated in the session; an agent with a subagent running. */
  active: boolean;
  once?: boolean;
  /** A once-only handler that already ran. */
  spent?: boolean;
}

/** The scope of a hook that ran, in hooks/run results. */
export interface RunScope {
  kind: 'agent' | 'skill';
  name: string;
  once?: boolean;
}

export interface ActivateSkillParams {
  name: string;
  /** The agent that invoked the skill (its agent_id); absent: the main agent. */
  agentId?: string;
}

export interface ActivateSkillResult {
  name: string;
  /** Keys of the hooks the skill adds to the session. */
  hooks: string[];
  /** Every skill activated in the session so far. */
  active: string[];
}

// --------------------------------------------------------------- hooks/run

export interface RunParams {
  event: EventName;
  /** Fills turn_id for turn-scoped events. */
  turnId?: string;
  /**
   * The event's own fields (tool_name, tool_input, prompt, ...). hookd adds the
   * common ones from the session; a field given here wins, except hook_event_name.
   */
  input?: JSONObject;
}

/** The combined outcome of one event: the same shape for every event. */
export interface RunResult {
  event: EventName;
  decision: Decision;
  reason?: string | null;
  /** PreToolUse: the rewritten tool input to use instead. */
  updatedInput?: JSONObject | null;
  /** PermissionRequest: the verdict for the approval prompt. */
  permission?: Permission | null;
  /** false: the host must stop (per event rules), with stopReason. */
  continue: boolean;
  stopReason?: string | null;
  /** PostToolUse: text that replaces the tool result for the model. */
  feedback?: string | null;
  /** Stop, SubagentStop: the prompt to continue with. */
  continuation?: string | null;
  /** Stop, SubagentStop (codex): continuation's fragments, one per blocking handler, with the id Codex wraps each in (<hook_prompt hook_run_id="...">). */
  continuationParts?: ContinuationPart[] | null;
  /** Texts for the model, in configuration order. */
  additionalContext?: ContextEntry[] | null;
  /** Warnings for the user, never for the model. */
  systemMessages?: HookMessage[] | null;
  /** One entry per handler that ran, in configuration order. */
  hooks: HookRun[];
  /** Every handler that matched but did not run. */
  skipped: Skip[];
  /** Names this run in hooks/status notifications and async results. */
  runId?: string;
  /** Event-specific fields a profile passes through to the host (claude); absent in the codex profile. */
  output?: JSONObject;
}

export interface ContinuationPart {
  /** The key of the blocking hook. */
  hook: string;
  /** The host's id of that hook's run (codex: "<event_label>:<n>:<source path>"). */
  runId?: string;
  text: string;
}

export interface Permission {
  behavior: 'allow' | 'deny';
  message?: string;
}

export interface ContextEntry {
  /** The key of the hook that produced it. */
  hook: string;
  /** The text, or a preview when it was spilled. */
  text: string;
  /** The file holding the whole text, when it was too long. */
  spilled?: string;
  bytes?: number;
}

export interface HookMessage {
  hook: string;
  text: string;
}

export interface HookRun {
  key: string;
  status: HookStatus;
  /** null when the process had no exit status (signal, spawn error). */
  exitCode: number | null;
  durationMs: number;
  /** Why a failed handler failed, in one line. */
  error: string | null;
  stderr?: string;
  async: boolean;
  /** Bytes past the capture cap that were not kept in memory. */
  stdoutDropped?: number;
  stderrDropped?: number;
  /** The spill file holding the whole stream, when it outgrew the cap. */
  stdoutSpilled?: string;
  stderrSpilled?: string;
  /** The handler's own "metadata" and "logs" output fields, where the profile has them (soong). */
  metadata?: unknown;
  logs?: unknown;
  /** The agent or skill of a scoped hook that ran. */
  scope?: RunScope;
  /** The host's id of this run (codex: "<event_label>:<n>:<source path>"). */
  runId?: string;
}

export interface Skip {
  key: string;
  reason: SkipReason;
}

// ---------------------------------------------------------- async results

/** The result of an async handler (hooks/asyncCompleted, hooks/takePending). */
export interface AsyncResult {
  /** The hooks/run that started the handler. */
  runId: string;
  hook: string;
  event: EventName;
  additionalContext?: ContextEntry[] | null;
  systemMessages?: HookMessage[] | null;
  status: HookStatus;
  error: string | null;
  exitCode: number | null;
  durationMs: number;
  /** claude asyncRewake: the text for the model's next request when the handler exited 2 (stderr, else stdout). */
  rewake?: string;
}

export interface TakePendingResult {
  /** Oldest first; taken results are removed from hookd's queue. */
  results: AsyncResult[];
  /** Results hookd dropped (oldest first) at its bounds since the last take: docs/robustness.md. */
  dropped: number;
}

// ----------------------------------------------------- hookd -> host calls

/** hookd asks the host to call a tool on an MCP server the host holds. */
export interface CallToolParams {
  server: string;
  tool: string;
  arguments: JSONObject;
  timeoutMs: number;
}

/** model/evaluate: a claude prompt or agent hook needs the host's model. */
export interface EvaluateParams {
  /** The hooks/run this hook runs for. */
  runId: string;
  hook: string;
  kind: 'prompt' | 'agent';
  /** The handler's prompt with $ARGUMENTS replaced by the compact input JSON. */
  prompt: string;
  /** The handler's model, or null for the session's main model. */
  model: string | null;
  input: JSONObject;
  timeoutMs: number;
}

export interface EvaluateResult {
  ok: boolean;
  reason?: string;
}

/** An MCP CallToolResult. hookd reads structuredContent, else the first text that parses as JSON, else the text. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JSONObject;
  isError?: boolean;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource_link' | 'resource'; [field: string]: unknown };

/** window/logMessage types. */
export type MessageType = 1 | 2 | 3 | 4;

export interface LogMessageParams {
  /** 1 error, 2 warning, 3 info, 4 log. */
  type: MessageType;
  message: string;
}

/** hooks/status: a handler with a statusMessage started or finished. */
export interface StatusParams {
  runId: string;
  hook: string;
  statusMessage: string;
  state: 'started' | 'finished';
}

export type AsyncCompletedParams = AsyncResult;

/** hooks/changed: hookd reloaded by itself. */
export type ChangedParams = HooksSummary;

export interface CancelParams {
  id: number | string;
}

// ------------------------------------------------------------ method maps

/** Requests a host sends to hookd. */
export interface HostRequests {
  initialize: { params: InitializeParams; result: InitializeResult };
  'hooks/list': { params: ListParams; result: ListResult };
  'hooks/reload': { params: Record<string, never>; result: HooksSummary };
  'hooks/trust': { params: TrustParams; result: TrustResult };
  'hooks/setEnabled': { params: SetEnabledParams; result: SetEnabledResult };
  'hooks/activateSkill': { params: ActivateSkillParams; result: ActivateSkillResult };
  'hooks/run': { params: RunParams; result: RunResult };
  'hooks/takePending': { params: Record<string, never>; result: TakePendingResult };
  shutdown: { params: undefined; result: null };
}

/** Notifications a host sends to hookd. */
export interface HostNotifications {
  initialized: Record<string, never>;
  '$/cancelRequest': CancelParams;
  exit: undefined;
}

/** Requests hookd sends to the host. */
export interface HookdRequests {
  'mcp/callTool': { params: CallToolParams; result: CallToolResult };
  'model/evaluate': { params: EvaluateParams; result: EvaluateResult };
}

/** Notifications hookd sends to the host. */
export interface HookdNotifications {
  'window/logMessage': LogMessageParams;
  'hooks/status': StatusParams;
  'hooks/asyncCompleted': AsyncCompletedParams;
  'hooks/changed': ChangedParams;
}
