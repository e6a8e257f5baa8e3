// The profile data model (spec CP-03..CP-05, CP-22, CP-25): states, group ids and the tool-to-group
// table, the three built-in profiles, the switchable runtime contexts and the global additional
// rules. Pure data and constructors; resolution is in resolve.ts, normalization in normalize.ts.

import { HostContextName, HostSection, InstructionSourceKind, TIME_CONTEXT_KIND } from '../../host/index.js';

/** A group or server state: force-on / on / defer / hidden (CP-03; `'force'` is [R]). */
export type GroupState = 'force' | 'on' | 'defer' | 'off';
/** A tool's own state (3 states). */
export type ToolState = 'on' | 'defer' | 'off';
/** What a tool finally gets in a session. */
export type Effective = 'inject' | 'defer' | 'hidden';

/** One persona slot (CP-18). */
export interface Slot {
  enabled: boolean;
  override: boolean;
  text: string;
}

/** CP-03, exact shape. */
export interface Profile {
  id: string;
  name?: string;
  groups: Record<string, GroupState>;
  servers: Record<string, GroupState>;
  tools: Record<string, ToolState>;
  prompt: { prefix: Slot; suffix: Slot };
  contexts: Record<string, false>;
  sections: Record<string, false>;
  channels?: { workspaceInstructions?: 'off'; timeContext?: 'off' };
  summaries?: Record<string, string>;
}

/** The global additional-rule settings (CP-31 `baseline`, [R] shape). */
export interface Baseline {
  contract: boolean;
  cardReceipt: boolean;
  untrustedDownload: boolean;
  custom: { enabled: boolean; text: string };
}

/** The state file, version 4 (CP-31). */
export interface State {
  version: 4;
  lastUsedId: string;
  profiles: Profile[];
  sessions: Record<string, string>;
  baseline: Baseline;
}

/** The state version this package writes (§N.2). */
export const STATE_VERSION = 4;
/** Reserved profile id: "leave unprocessed" (CP-03, CP-13). */
export const NONE = 'none';

/** CP-04: group ids in the panel's order, with the seed's labels. */
export const GROUPS = [
  ['files', '文件'], ['search', '搜索'], ['terminal', '终端与任务'], ['platform', '平台'],
  ['interaction', '交互'], ['skills', '技能与网络'], ['collaboration', '协作'],
  ['orchestration', '编排与计划'], ['schedule', '调度'], ['goal', '目标'],
  ['mcp', 'MCP'], ['other', '其他'], ['plugin-dev', '插件开发'],
] as const;
export type GroupId = (typeof GROUPS)[number][0];
export const GROUP_IDS: readonly GroupId[] = GROUPS.map(([id]) => id);

/**
 * CP-04: the package's tool-to-group table: every tool DSH 0.1.0-rc.8 ships (the `headless` profile,
 * and the `web` profile's `standard`, `code`, `minimal` and `cordis` agent presets register them; a
 * real-DSH test lists each stock tool set and fails on a tool this table lacks), plus `schedule_*`
 * (DSH's reminders, not in a stock profile) and the seed's platform tools, which rc.8 does not ship.
 * An unknown tool falls to `mcp` or `other` (resolve.ts).
 */
const TOOL_GROUP_TABLE: Readonly<Record<string, GroupId>> = {
  // dsh-tool-fs, dsh-tool-str-replace-editor
  read: 'files', write: 'files', edit: 'files', read_image: 'files', str_replace_editor: 'files',
  // dsh-tool-fs-search
  grep: 'search', glob: 'search',
  // dsh-tool-bash(-persistent), dsh-tool-pwsh(-persistent), dsh-tool-jobs: 终端与任务 (terminal and background jobs)
  bash: 'terminal', pwsh: 'terminal', job_list: 'terminal', job_output: 'terminal', job_kill: 'terminal',
  // the seed's platform group: working dir, bundled-dependency paths, lsp
  working_directory: 'platform', dependency_paths: 'platform', lsp: 'platform',
  // dsh-tool-ask-user
  ask_user_question: 'interaction',
  // dsh-tool-skill, dsh-tool-web: 技能与网络 (skills and network)
  skill: 'skills', web_search: 'skills', web_fetch: 'skills',
  // dsh-tool-subagent (spawn, fork, codex, claude-code providers), dsh-tool-subagent-control(/list-agents), dsh-tool-subagent-report
  subagent: 'collaboration', subagent_fork: 'collaboration', subagent_codex: 'collaboration', subagent_claude_code: 'collaboration',
  send_message: 'collaboration', interrupt_agent: 'collaboration', list_agents: 'collaboration', report: 'collaboration',
  // dsh-tool-todo, dsh-plan-mode, dsh-tool-workflow, dsh-tool-ralph: 编排与计划 (orchestration and planning)
  todo_write: 'orchestration', exit_plan_mode: 'orchestration', workflow: 'orchestration', ralph: 'orchestration',
  // dsh-schedule
  schedule_create: 'schedule', schedule_list: 'schedule', schedule_delete: 'schedule',
  // dsh-tool-goal
  create_goal: 'goal', get_goal: 'goal', update_goal: 'goal',
  // the seed's plugin-dev group (dsh-tool-cordis's tools are `cordis_*`, below)
  plugin_manager: 'plugin-dev',
  // This package's own tools (issue 30: unknown to the table, they fell to `other`, deferred by `full`
  // and hidden by `minimal`). slice-tape's (and DSH's dsh-tool-result-fold's expand_result): the
  // tape's entries and folded views name these calls as the only way back to what they replaced, so
  // they search the session as grep and glob search the tree, and stay on wherever search does.
  recall_turn: 'search', recall_step: 'search', recall_search: 'search', expand_result: 'search',
  // auto-memory's: a file tool over /memories (view, create, str_replace, insert, delete, rename, like
  // str_replace_editor); deferred, it would also lose its guidance section (CP-12), so the model
  // would no longer be told what to remember.
  memory: 'files',
};
/** The table as a Map, so a tool named `constructor` or `__proto__` finds no group in Object.prototype (issue 32, item 13). */
export const TOOL_GROUPS: ReadonlyMap<string, GroupId> = new Map(Object.entries(TOOL_GROUP_TABLE));
/** CP-04: `cordis_*` tools belong to plugin-dev. */
export const PLUGIN_DEV_PREFIX = 'cordis_';

/** The default slot: use the deployment text (CP-03). */
export function defaultSlot(): Slot {
  return { enabled: true, override: false, text: '' };
}

function builtin(id: string, name: string, states: readonly GroupState[]): Profile {
  // One state per CP-05 row, in GROUP_ROWS order.
  const groups: Record<string, GroupState> = {};
  GROUP_ROWS.forEach((row, i) => {
    for (const group of row) groups[group] = states[i]!;
  });
  return { id, name, groups, servers: {}, tools: {}, prompt: { prefix: defaultSlot(), suffix: defaultSlot() }, contexts: {}, sections: {} };
}

/** The rows of the CP-05 table. */
const GROUP_ROWS: readonly (readonly GroupId[])[] = [
  ['files', 'search', 'terminal'], ['platform'], ['interaction', 'skills', 'collaboration'],
  ['orchestration', 'schedule', 'goal'], ['mcp', 'other'], ['plugin-dev'],
];

/** CP-05: fresh copies of the three built-in profiles, exactly the seed's table. */
export function builtinProfiles(): Profile[] {
  return [
    builtin('full', '完整', ['on', 'on', 'on', 'defer', 'defer', 'defer']),
    builtin('lean', '精简', ['on', 'on', 'on', 'off', 'defer', 'off']),
    builtin('minimal', '极简', ['on', 'on', 'off', 'off', 'off', 'off']),
  ];
}

/** The default baseline: three fixed rules on, custom text off and empty (CP-22). */
export function defaultBaseline(): Baseline {
  return { contract: true, cardReceipt: true, untrustedDownload: true, custom: { enabled: false, text: '' } };
}

/**
 * A missing state file reads as this (CP-31): the built-ins, then the profiles the plugin's config
 * adds (`profiles`: the bundle's `frugal`, issue 30), no session, and `lastUsedId` `none` or the
 * profile the config's `defaultProfile` names.
 * @param lastUsedId - the profile new sessions start with until one is chosen; default `none`.
 * @param extra - profiles a fresh state holds besides the built-ins (already normalized; copied).
 * @returns a fresh default state.
 */
export function defaultState(lastUsedId: string = NONE, extra: readonly Profile[] = []): State {
  return { version: STATE_VERSION, lastUsedId, profiles: [...builtinProfiles(), ...extra.map((p) => structuredClone(p))], sessions: {}, baseline: defaultBaseline() };
}

/** CP-18: the two persona slots, their section names and orders. */
export const PERSONA_PREFIX = HostSection.personaPrefix;
export const PERSONA_SUFFIX = HostSection.personaSuffix;
export const PERSONA_PREFIX_ORDER = 0;
export const PERSONA_SUFFIX_ORDER = 10200;

/** CP-22: the custom text's limit, in code points. */
export const CUSTOM_TEXT_MAX = 20000;

/**
 * Size caps of the state file (issue 32, item 5): every DSH process re-reads it at every step, and
 * the panel renders every profile against every tool, so neither may grow without bound. A save
 * over a cap is refused (400, naming the value and the limit); a file over `MAX_STATE_BYTES` is not
 * read at all (refused, kept as it is). Texts are counted in code points.
 */
export const STATE_LIMITS = {
  /** Bytes of the state file. */
  stateBytes: 2 * 1024 * 1024,
  /** Profiles in the file. */
  profiles: 64,
  /** A profile id's characters. */
  idChars: 64,
  /** A profile name's characters. */
  nameChars: 100,
  /** A persona slot's text (as the custom rule's). */
  slotChars: CUSTOM_TEXT_MAX,
  /** One deferral summary's characters. */
  summaryChars: 2000,
  /** Entries of one of a profile's maps (groups, servers, tools, contexts, sections, summaries). */
  mapEntries: 1024,
  /** A map key's characters (a tool, server, section or context name). */
  keyChars: 256,
  /** Session records: recording one more drops the oldest. */
  sessions: 2000,
  /** A session id's characters. */
  sessionIdChars: 256,
} as const;

/** One additional rule (CP-22). */
export interface AdditionalRule {
  readonly key: 'contract' | 'cardReceipt' | 'untrustedDownload' | 'custom';
  readonly section: string;
  readonly order: number;
  readonly label: string;
}

/** CP-22 rows; section names are [R]. */
export const ADDITIONAL_RULES: readonly AdditionalRule[] = [
  { key: 'contract', section: 'session-context-config:contract', order: 20000, label: '行为契约' },
  { key: 'cardReceipt', section: 'session-context-config:card-receipt', order: 20010, label: '卡片回执' },
  { key: 'untrustedDownload', section: 'session-context-config:untrusted-download', order: 20020, label: '不可信下载' },
  { key: 'custom', section: 'session-context-config:custom', order: 20030, label: '自定义文本' },
];

/** CP-22/CP-23 [P]: the three fixed texts, constants of this package version (§N.9). */
export const RULE_TEXTS: Readonly<Record<'contract' | 'cardReceipt' | 'untrustedDownload', string>> = {
  contract: [
    'Working agreement:',
    '- Ask for confirmation before any irreversible action (deleting data, force-pushing, dropping tables, sending messages).',
    '- Report truthfully: say what you did, what failed and what you did not verify.',
    '- When you have enough information to act, act instead of asking.',
    '- Follow the style and conventions of the surrounding code and text.',
    '- Do not re-read a file you have just edited; the edit result already shows it.',
    '- When you rely on content from a <system-reminder>, say where it came from.',
  ].join('\n'),
  cardReceipt: [
    'Card receipts:',
    '- When the UI has already rendered a card for a result, reply with one sentence and do not restate its fields.',
    '- If rendering or delivery failed, still give the error details.',
  ].join('\n'),
  untrustedDownload: [
    'Untrusted downloads:',
    '- Download and unpack untrusted files in an isolated, empty directory.',
    '- Pass file paths as command arguments; never splice them into shell or code strings.',
    '- Run Python on untrusted input with `python -I`; below Python 3.11 also add `-P` or run from a safe cwd.',
  ].join('\n'),
};

/** CP-25: the switchable runtime contexts (names not in the seed are host constants, [R]). */
export const CONTEXT_SWITCHES: readonly { readonly name: string; readonly label: string }[] = [
  { name: HostContextName.workingDirectory, label: '当前工作目录' },
  { name: HostContextName.sandboxPolicy, label: '沙箱 / 文件策略' },
  { name: HostContextName.approvalPolicy, label: '审批策略' },
  { name: HostContextName.delegationDepth, label: '子代理委派深度' },
  { name: 'session-context-config:environment', label: '环境事实' },
  { name: HostContextName.harnessSource, label: 'DSH 源码 checkout' },
  { name: HostContextName.webGui, label: 'DSH Web GUI 地址' },
];
/** CP-25/CP-27: the context this plugin registers (its name is the seed's). */
export const ENVIRONMENT_CONTEXT = 'session-context-config:environment';
export const WORKING_DIRECTORY_CONTEXT = HostContextName.workingDirectory;

/** CP-28: channel keys and the message source kinds each filters. */
export const CHANNEL_KINDS: Readonly<Record<'workspaceInstructions' | 'timeContext', readonly string[]>> = {
  workspaceInstructions: [InstructionSourceKind.current, InstructionSourceKind.legacy],
  timeContext: [TIME_CONTEXT_KIND],
};
