// Every DSH name our code depends on, in one place (spec X-12: the host seam is the only code that
// knows DSH's strings). Plugins and the simulated host import these instead of spelling them out, so
// a rename in a future DSH release is one edit here. Values are exact; see
// /work/shared/ref/dsh-host-contract.md §1–9 for where each comes from.

/** Cordis event names DSH dispatches, grouped by subject. */
export const HostEvent = {
  /** emit `{ agent }`: agent published. */
  agentCreated: 'agent/created',
  /** emit `{ agent, source }`: once per loop instance, before the driver can run. */
  agentSessionStart: 'agent/session-start',
  /** emit `{ agent, status }`. */
  agentStatus: 'agent/status',
  /** waterfall `({ agent, messages, turn, step, signal }, next) → PreStepDecision`. */
  agentPreStep: 'agent/pre-step',
  /** waterfall `({ agent, turn, step, signal }, next) → LlmCallConfig`: the step's provider/model call configuration. */
  agentRequest: 'agent/request',
  /** serial `{ agent, turn, signal }`: the turn is about to close. */
  agentTurnStopping: 'agent/turn-stopping',
  /** emit `{ agent, turn, step, error }`. */
  agentError: 'agent/error',
  /** emit `{ agent }`: the agent left the registry. */
  agentDisposed: 'agent/disposed',
  /** emit `{ agent, message }`. */
  agentInboxInserted: 'agent/inbox/inserted',
  /** emit `{ agent, message }`. */
  agentInboxDiscarded: 'agent/inbox/discarded',
  /** emit `{ agent, message, turn }`. */
  agentInboxClaimed: 'agent/inbox/claimed',
  /** emit `(session)`. */
  sessionCreated: 'session/created',
  /** emit `(session, event)`, after every append to a store-attached session. */
  sessionEvent: 'session/event',
  /** waterfall `(exec, next) → PreToolDecision`. */
  toolsPreExecute: 'tools/pre-execute',
  /** waterfall `(exec, next) → ToolExecutionResult`, around the body. */
  toolsExecute: 'tools/execute',
  /** waterfall `(exec, result, next) → PostToolDecision`. */
  toolsPostExecute: 'tools/post-execute',
  /** waterfall `(dispatch, next) → ContentBlock[]`: reshape the logged copy of a nested call. */
  toolsCodeDispatchLog: 'tools/code-dispatch-log',
  /** emit `(exec, result)`: the final, frozen outcome of every execution. */
  toolsResult: 'tools/result',
  /** emit `()`, unfiltered: the tool set or its presentation changed. */
  toolsChange: 'tools/change',
  /** waterfall `(assembly, context, next) → PromptAssembly`. */
  systemPromptAssemble: 'system-prompt/assemble',
  /** emit `()`, unfiltered: a section, context or variable was (un)registered. */
  systemPromptChange: 'system-prompt/change',
} as const;
export type HostEventName = (typeof HostEvent)[keyof typeof HostEvent];

/** Session event `type`s (contract §5.1). Do not invent new ones: DSH refuses to reload them. */
export const SessionEventType = {
  turnStart: 'turn/start',
  turnEnd: 'turn/end',
  stepStart: 'step/start',
  stepEnd: 'step/end',
  userMessage: 'user/message',
  assistantChunk: 'assistant/chunk',
  assistantMessage: 'assistant/message',
  toolCall: 'tool/call',
  toolResult: 'tool/result',
  /** rc.8: a nested Code Mode call started, `{ rootCallId, parentCallId, subCallId, name, arguments }` (no turn or step). */
  toolCodeDispatchStart: 'tool/code-dispatch-start',
  /** rc.8: a nested Code Mode call settled, the start record's fields plus `isError` and `content`. */
  toolCodeDispatch: 'tool/code-dispatch',
  /** Session format 3 (DSH 0.1.5) only, absent from rc.8: one log record per nested Code Mode call, `{ rootCallId, name, arguments, isError, content, … }`. */
  toolPtcDispatch: 'tool/ptc-dispatch',
  /** A system-role surface message (format 3 persists prompt updates on the surface). */
  systemMessage: 'system/message',
  inboxSpliced: 'agent/inbox/spliced',
  requestHeader: 'request/header',
  compactionStart: 'compaction/start',
  compactionSummary: 'compaction/summary',
  compactionEnd: 'compaction/end',
} as const;
export type SessionEventTypeName = (typeof SessionEventType)[keyof typeof SessionEventType];

/** Service names looked up with `ctx.get(name)` or read as `ctx[name]`. */
export const HostService = {
  fs: 'fs',
  tools: 'tools',
  systemPrompt: 'systemPrompt',
  /**
   * A spill store plugins can read back (see spill.ts): the full text of results the host logged as a
   * preview. NOT a DSH rc.8 service: rc.8's `spillStore` only saves (`saveText`), so there slice-tape
   * names the spill file instead of restoring it; the simulated host provides this with its `spill` option.
   */
  spill: 'spill',
  /** The model runtime: capabilities (`resolveModelInfo`) and model calls (`stream`), see model.ts. */
  llm: 'llm',
  /** DSH's web server (`@deepseek-ai/dsh-host-webserver`): `register({ kind, path, handler })`, see http.ts. Mounted only by profiles with a web surface, possibly after our plugins. */
  webServer: 'webServer',
  /** DSH's agent-preset roster (web profile): `composedPreset(agent.ctx)`, `read(id)`. */
  agentPresets: 'agentPresets',
  /** The agent's default model selection (`currentSelection()`), the route a plugin's own model calls use. */
  agentDefaultModel: 'agentDefaultModel',
} as const;

/**
 * The registered symbol (`Symbol.for`) under which Cordis's service proxies answer with the service
 * object itself (`symbols.original` in @deepseek-ai/cordis 4.0.1). `ctx.get(name)` returns a new
 * proxy at every call, so only this names a provider across calls.
 */
export const CORDIS_ORIGINAL_SYMBOL = 'cordis.original';

/** DSH's first-party file tools (package tool-fs); each takes `file_path`. */
export const FileToolName = { read: 'read', write: 'write', edit: 'edit' } as const;
export const FILE_TOOL_NAMES: readonly string[] = [FileToolName.read, FileToolName.write, FileToolName.edit];

/** The Code Mode tool; `register` refuses this name for anyone but the host. */
export const CODE_MODE_TOOL = 'run_code';

/**
 * DSH rc.8's guidance sections named after a family of tools instead of one tool (`tool:<family>`):
 * dsh-tool-jobs's `tool:jobs` ("Track every background job id you start…") is about `job_list`,
 * `job_output`, `job_kill`; dsh-tool-goal's `tool:goal` ("Use goal tools…") about the three goal
 * tools; dsh-tool-cordis's `tool:cordis` ("# Dynamic Cordis Plugins") about its `cordis_*` tools.
 * Every other `tool:<name>` section of rc.8 names its one tool.
 */
export const HOST_GUIDANCE_FAMILIES: Readonly<Record<string, { readonly tools?: readonly string[]; readonly prefix?: string }>> = {
  jobs: { tools: ['job_list', 'job_output', 'job_kill'] },
  goal: { tools: ['create_goal', 'get_goal', 'update_goal'] },
  cordis: { prefix: 'cordis_' },
};

/** Row id of DSH's built-in instruction loader in the base bundle and in the stock agent presets (contract §11). */
export const BUILTIN_INSTRUCTIONS_ROW = 'agent-instructions';
/** The package (plugin `name` in a row) of DSH's built-in instruction loader. */
export const BUILTIN_INSTRUCTIONS_PLUGIN = '@deepseek-ai/dsh-agent-instructions';

/** Message source kinds DSH itself produces (plugins add their own kinds). */
export const SourceKind = { user: 'user', plugin: 'plugin', model: 'model', tool: 'tool' } as const;

/** The `plugin` of a compaction summary's source `{ kind: 'plugin', plugin: 'compact', compactionId }`. */
export const COMPACTION_PLUGIN = 'compact';
/**
 * How DSH's compaction backend (`dsh-compaction-basic`) frames a summary in its checkpoint message:
 * three text blocks, `<preamble>\n\n<compacted-summary>`, the summary, `</compacted-summary>`.
 */
export const CompactionFrame = {
  preamble: 'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context. Treat the captured context as established background and build on it without restating it. Continue the task directly from the messages that follow, without acknowledging this checkpoint.',
  open: '<compacted-summary>',
  close: '</compacted-summary>',
} as const;

/** The runtime-context snapshot's plugin name and intro (contract §6 step 2c). */
export const RUNTIME_CONTEXT_PLUGIN = '@deepseek-ai/dsh-system-prompt';
export const RUNTIME_CONTEXT_INTRO = 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.';

/**
 * The format numeric log locators name (`expand_result({"seq":Q,"formatVersion":3})`, ST-20, ST-22,
 * ST-32): a seq is the event's index in the log as the host holds it. DSH 0.1.5 writes session format
 * 3, whose v2→v3 migration inserted events, so an older number can name another result. DSH 0.1.0-rc.8
 * writes header `version: 0`, accepts no other, and never renumbers (a seq is the same after a
 * resume): its seqs are format-3 locators as they stand, and the tape's texts keep saying 3.
 */
export const SESSION_FORMAT_VERSION = 3;
/**
 * DSH's spill limit (the headless profile's `spill-policy` `maxInlineBytes`): a tool result whose
 * text is over this many UTF-8 bytes reaches the model as a preview with the path of a file holding
 * the rest (`read` is exempt).
 */
export const SPILL_INLINE_BYTES = 50_000;
/** Message source kinds of DSH's instruction loader (current and older) and its time sampler (seed 004). */
export const InstructionSourceKind = { current: 'agent-instructions', legacy: 'workspace-instructions' } as const;
export const TIME_CONTEXT_KIND = 'time-context';

/** System-prompt section names DSH registers that plugins refer to (seed 004). */
export const HostSection = {
  identity: 'harness:identity',
  personaPrefix: 'deployment:persona-prefix',
  personaSuffix: 'deployment:persona-suffix',
} as const;

/**
 * Runtime-context names DSH registers (seed 004 names the first two; the rest are our spelling of
 * the contexts it describes). [uncertain: sandbox, approval, delegation depth, Web GUI]
 */
export const HostContextName = {
  workingDirectory: 'working-directory:current',
  sandboxPolicy: 'sandbox:policy',
  approvalPolicy: 'approval:policy',
  delegationDepth: 'subagent:delegation-depth',
  harnessSource: 'harness:source',
  webGui: 'app:web-gui',
} as const;
