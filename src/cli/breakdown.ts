// The token breakdown of a captured first request, in DeepSeek V3 tokens, the way Claude Code's
// `/context` breaks its context down: DSH's system prompt by section and our plugins' sections, each
// tool (as sent, full or deferred), and each message by what it holds (the prompt, each instruction
// file, the skills, the memory index, each rule, each runtime-context fact).
//
// The request's total is the DeepSeek V3 tokens of what the model reads: the system prompt, each
// message's text, and each tool definition's JSON as sent. A message is split into parts at byte
// positions found in its text (section joins, `Instructions from:` headings, rule headings, skill
// lines, context facts); a part's tokens are what its text adds to the count of the text before it
// (the count of the prefix ending after it, less the count of the prefix before it), so the parts of
// a message add up to the message's count exactly. Text no part claims is the message's framing.

import { countTokens, utf8Length } from '../engine/index.js';
import { escapeReminder, type ToolSchema } from '../host/index.js';
import { toolDefinitionJson } from '../plugins/context-profiles/placeholders.js';
import type { ProbeReport } from './dsh-probe.js';
import { WORKSPACE_CONTEXT_MODULE } from './env.js';

/** Who put a part into the request. */
export type Owner = 'dsh' | 'plugins' | 'user';

/** A labelled span of a message. */
export interface Part {
  readonly name: string;
  readonly owner: Owner;
  readonly tokens: number;
  readonly bytes: number;
}

/** One message of the request (the system prompt is message 0). */
export interface MessageBreakdown {
  readonly index: number;
  readonly role: string;
  /** What it holds, in words: `system prompt`, `the prompt`, `instructions`, `skills`, `memory index`, `rules`, `runtime context`, else its source kind. */
  readonly kind: string;
  readonly owner: Owner;
  readonly tokens: number;
  readonly bytes: number;
  readonly parts: readonly Part[];
  /** Why it is not split further, when it is not. */
  readonly note?: string;
}

/** One tool. */
export interface ToolBreakdown {
  readonly name: string;
  readonly owner: Owner;
  /** As ProbeTool: `full`, `deferred` (a context profile's placeholder is sent), `added` (only this session has it), `hidden` (registered, not sent). */
  readonly state: 'full' | 'deferred' | 'added' | 'hidden';
  /** Tokens of what is sent for it (0 when hidden). */
  readonly tokens: number;
  /** Tokens of its registered definition, for `deferred` and `hidden` tools. */
  readonly full?: number;
}

/** A row of the summary table. */
export interface Category {
  readonly name: string;
  readonly owner: Owner;
  readonly tokens: number;
  /** What it is made of: sections, tools, files, rules, facts (framing included). */
  readonly items: readonly { readonly name: string; readonly tokens: number }[];
}

/** The breakdown of one request. */
export interface RequestBreakdown {
  readonly tokenizer: 'DeepSeek V3';
  readonly provider?: string;
  readonly model?: string;
  readonly contextWindow: number;
  /** `dsh`: the window DSH resolved for the model; `option`: `--context-window` (DSH reported none). */
  readonly contextWindowFrom: 'dsh' | 'option';
  readonly total: number;
  readonly free: number;
  readonly messages: readonly MessageBreakdown[];
  readonly tools: { readonly tokens: number; readonly tools: readonly ToolBreakdown[] };
  /** The summary rows, in order; they add up to `total`. */
  readonly categories: readonly Category[];
}

/** The names our plugins register, to tell their parts from DSH's. */
export interface PluginNames {
  readonly sections: ReadonlySet<string>;
  readonly tools: ReadonlySet<string>;
  readonly contexts: ReadonlySet<string>;
  /** Message source kinds (with their channel, `auto-memory/index`) our plugins produce. */
  readonly kinds: ReadonlySet<string>;
}

/** A request body as DSH's DeepSeek adapter sends it (the fields read here). */
interface ChatBody {
  readonly model?: string;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
  readonly tools?: readonly { readonly type: string; readonly function: { readonly name: string } }[];
}

interface Span {
  readonly name: string;
  readonly owner: Owner;
  readonly start: number;
  readonly end: number;
}

/** The DSH runtime-context plugin's source (`{ kind: 'plugin', plugin, form: 'snapshot', sections }`). */
const RUNTIME_CONTEXT_PLUGIN = '@deepseek-ai/dsh-system-prompt';
/** Headings a section of an instruction message starts with (workspace-context's render.ts, DSH's loader). */
const INSTRUCTION_HEADINGS = ['Instructions from: ', 'Additional instructions from: ', 'Updated instructions from: ', 'Instructions removed: '];
/** What each part of the runtime context is called in words. */
const CONTEXT_NAMES: Readonly<Record<string, string>> = { 'session-context-config:environment': 'environment facts' };

/**
 * The breakdown; see the file comment.
 * @param bodyText - the request body as sent (JSON text).
 * @param probe - what the probe reported from inside DSH.
 * @param ours - our plugins' names.
 * @param fallbackWindow - the window to use when DSH reported none.
 * @returns the breakdown.
 * @throws Error when the body is not a chat-completions request.
 */
export function breakDown(bodyText: string, probe: ProbeReport, ours: PluginNames, fallbackWindow: number): RequestBreakdown {
  const body = JSON.parse(bodyText) as ChatBody;
  if (!Array.isArray(body.messages)) throw new Error('the captured request has no messages array');
  const instructionOwner: Owner = (probe.rows ?? []).some((r) => r.name === WORKSPACE_CONTEXT_MODULE) ? 'plugins' : 'dsh';
  const messages = body.messages.map((message, index): MessageBreakdown => {
    const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
    if (index === 0 && message.role === 'system') return systemMessage(text, probe, ours);
    const seen = probe.messages?.[index - 1];
    if (seen === undefined || seen.text !== text) return whole(index, message.role, text, 'message', 'dsh', 'its source is unknown: the probe saw other messages');
    return sourcedMessage(index, message.role, text, seen.source as Source, ours, instructionOwner);
  });
  const tools = toolBreakdown(body, probe, ours);
  const total = messages.reduce((n, m) => n + m.tokens, 0) + tools.tokens;
  const contextWindow = probe.contextWindow ?? fallbackWindow;
  return {
    tokenizer: 'DeepSeek V3',
    ...(probe.provider !== undefined ? { provider: probe.provider } : {}),
    ...(probe.model !== undefined ? { model: probe.model } : {}),
    contextWindow,
    contextWindowFrom: probe.contextWindow !== undefined ? 'dsh' : 'option',
    total,
    free: contextWindow - total,
    messages,
    tools,
    categories: categories(messages, tools.tools),
  };
}

interface Source {
  readonly kind?: string;
  readonly channel?: string;
  readonly plugin?: string;
  readonly changes?: readonly { readonly path?: unknown }[];
  readonly rules?: readonly { readonly path?: unknown }[];
  readonly entries?: readonly { readonly name?: unknown }[];
  readonly sections?: readonly { readonly name?: unknown; readonly text?: unknown }[];
}

function systemMessage(text: string, probe: ProbeReport, ours: PluginNames): MessageBreakdown {
  const sections = probe.sections;
  if (sections === undefined || sections === null) return whole(0, 'system', text, 'system prompt', 'dsh', probe.sectionsNote ?? 'DSH reported no sections');
  const spans: Span[] = [];
  let at = 0;
  for (const section of sections) {
    const start = text.indexOf(section.text, at);
    if (start !== at) return whole(0, 'system', text, 'system prompt', 'dsh', 'its sections are not where DSH said they are');
    // A section takes the blank line that joins it to the next.
    const end = Math.min(text.length, start + section.text.length + 2);
    spans.push({ name: section.name, owner: ours.sections.has(section.name) ? 'plugins' : 'dsh', start, end });
    at = end;
  }
  return split(0, 'system', text, 'system prompt', 'dsh', spans);
}

function sourcedMessage(index: number, role: string, text: string, source: Source, ours: PluginNames, instructionOwner: Owner): MessageBreakdown {
  const kind = source?.kind;
  const channel = typeof source?.channel === 'string' ? `${kind}/${source.channel}` : undefined;
  if (kind === 'user') return whole(index, role, text, 'the prompt', 'user');
  if (kind === 'agent-instructions') {
    const paths = (source.changes ?? []).flatMap((c) => (typeof c.path === 'string' ? [c.path] : []));
    return split(index, role, text, 'instructions', instructionOwner, headed(text, paths, INSTRUCTION_HEADINGS, instructionOwner));
  }
  if (kind === 'skill-catalog') {
    const names = (source.entries ?? []).flatMap((e) => (typeof e.name === 'string' ? [e.name] : []));
    return split(index, role, text, 'skills', 'dsh', lines(text, names.map((name) => ({ name, prefix: `- \`${name}\`: ` })), 'dsh'));
  }
  if (channel === 'auto-memory/index') return whole(index, role, text, 'memory index', 'plugins');
  if (channel === 'auto-memory/rules') {
    const paths = (source.rules ?? []).flatMap((r) => (typeof r.path === 'string' ? [r.path] : []));
    return split(index, role, text, 'rules', 'plugins', headed(text, paths, ['Rule from: '], 'plugins'));
  }
  if (kind === 'plugin' && source.plugin === RUNTIME_CONTEXT_PLUGIN) {
    const facts = (source.sections ?? []).flatMap((s) => (typeof s.name === 'string' && typeof s.text === 'string' ? [{ name: s.name, text: s.text }] : []));
    const spans: Span[] = [];
    let at = 0;
    for (const fact of facts) {
      const start = text.indexOf(fact.text, at);
      if (start < 0) continue;
      spans.push({ name: CONTEXT_NAMES[fact.name] ?? fact.name, owner: ours.contexts.has(fact.name) ? 'plugins' : 'dsh', start, end: start + fact.text.length });
      at = start + fact.text.length;
    }
    return split(index, role, text, 'runtime context', 'dsh', spans);
  }
  const named = channel ?? (typeof source?.plugin === 'string' ? `${kind}/${source.plugin}` : String(kind ?? 'message'));
  return whole(index, role, text, named, ours.kinds.has(channel ?? String(kind)) ? 'plugins' : 'dsh');
}

/**
 * Spans that start at a heading naming each path (in order; a path escaped as the message escapes
 * it) and run to the next span's heading, the last to the message's closing frame.
 */
function headed(text: string, paths: readonly string[], headings: readonly string[], owner: Owner): Span[] {
  const starts: { name: string; start: number }[] = [];
  let at = 0;
  for (const path of paths) {
    let found = -1;
    for (const heading of headings) {
      const i = text.indexOf(`${heading}${escapeReminder(path)}\n\n`, at);
      if (i >= 0 && (found < 0 || i < found)) found = i;
    }
    if (found < 0) continue;
    starts.push({ name: path, start: found });
    at = found + 1;
  }
  const close = text.lastIndexOf('\n</system-reminder>');
  const limit = close >= 0 ? close : text.length;
  return starts.map((s, i) => ({ name: s.name, owner, start: s.start, end: i + 1 < starts.length ? starts[i + 1]!.start : Math.max(s.start, limit) }));
}

/** Spans of whole lines starting with each prefix, in order. */
function lines(text: string, items: readonly { name: string; prefix: string }[], owner: Owner): Span[] {
  const spans: Span[] = [];
  let at = 0;
  for (const item of items) {
    const start = text.indexOf(`\n${item.prefix}`, at);
    if (start < 0) continue;
    const newline = text.indexOf('\n', start + 1);
    const end = newline < 0 ? text.length : newline;
    spans.push({ name: item.name, owner, start: start + 1, end });
    at = end;
  }
  return spans;
}

function whole(index: number, role: string, text: string, kind: string, owner: Owner, note?: string): MessageBreakdown {
  const tokens = countTokens(text);
  return { index, role, kind, owner, tokens, bytes: utf8Length(text), parts: [], ...(note !== undefined ? { note } : {}) };
}

/**
 * A message split at `spans` (ordered, not overlapping); the text between and around them is the
 * message's framing. Each part's tokens are the prefix-count difference described in the file comment.
 */
function split(index: number, role: string, text: string, kind: string, owner: Owner, spans: readonly Span[]): MessageBreakdown {
  const pieces: { name: string; owner: Owner; start: number; end: number }[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at || span.end < span.start) continue;
    if (span.start > at) pieces.push({ name: `${kind} framing`, owner, start: at, end: span.start });
    if (span.end > span.start) pieces.push({ ...span });
    at = span.end;
  }
  if (at < text.length) pieces.push({ name: `${kind} framing`, owner, start: at, end: text.length });
  let before = 0;
  const parts = pieces.map((piece): Part => {
    const upTo = countTokens(text.slice(0, piece.end));
    const part = { name: piece.name, owner: piece.owner, tokens: upTo - before, bytes: utf8Length(text.slice(piece.start, piece.end)) };
    before = upTo;
    return part;
  });
  // Framing pieces of one message are one part.
  const merged: Part[] = [];
  for (const part of parts) {
    const same = merged.find((p) => p.name === part.name && p.name.endsWith(' framing'));
    if (same !== undefined) merged[merged.indexOf(same)] = { ...same, tokens: same.tokens + part.tokens, bytes: same.bytes + part.bytes };
    else merged.push(part);
  }
  return { index, role, kind, owner, tokens: before, bytes: utf8Length(text), parts: merged };
}

function toolBreakdown(body: ChatBody, probe: ProbeReport, ours: PluginNames): RequestBreakdown['tools'] {
  const states = new Map((probe.tools ?? []).map((t) => [t.name, t]));
  const owner = (name: string): Owner => (ours.tools.has(name) ? 'plugins' : 'dsh');
  const fullTokens = (registered: ToolSchema | undefined): number | undefined => (registered === undefined ? undefined : countTokens(toolDefinitionJson(registered)));
  const sent = (body.tools ?? []).map((tool): ToolBreakdown => {
    const name = tool.function.name;
    const probed = states.get(name);
    const state = probed?.state === 'deferred' || probed?.state === 'added' ? probed.state : 'full';
    const full = state === 'deferred' ? fullTokens(probed!.registered as ToolSchema) : undefined;
    return { name, owner: owner(name), state, tokens: countTokens(JSON.stringify(tool)), ...(full !== undefined ? { full } : {}) };
  });
  const hidden = (probe.tools ?? []).filter((t) => t.state === 'hidden').map((t): ToolBreakdown => {
    const full = fullTokens(t.registered as ToolSchema);
    return { name: t.name, owner: owner(t.name), state: 'hidden', tokens: 0, ...(full !== undefined ? { full } : {}) };
  });
  return { tokens: sent.reduce((n, t) => n + t.tokens, 0), tools: [...sent, ...hidden] };
}

/** The summary rows: system prompt, tools and message parts grouped by what they are and who added them. */
function categories(messages: readonly MessageBreakdown[], tools: readonly ToolBreakdown[]): Category[] {
  const rows = new Map<string, { name: string; owner: Owner; tokens: number; items: { name: string; tokens: number }[] }>();
  const add = (name: string, owner: Owner, tokens: number, item?: string): void => {
    const key = `${owner}\0${name}`;
    const row = rows.get(key) ?? { name, owner, tokens: 0, items: [] };
    row.tokens += tokens;
    if (item !== undefined) row.items.push({ name: item, tokens });
    rows.set(key, row);
  };
  for (const message of messages) {
    const name = message.index === 0 ? 'system prompt' : message.kind;
    if (message.parts.length === 0) add(name, message.owner, message.tokens);
    for (const part of message.parts) {
      // The runtime context's facts go by who sampled them (DSH's policies; context-profiles' environment facts).
      const own = message.kind === 'runtime context' && part.owner !== message.owner ? part.name : name;
      add(own, part.owner, part.tokens, own === part.name ? undefined : part.name);
    }
  }
  for (const tool of tools) if (tool.state !== 'hidden') add('tools', tool.owner, tool.tokens, tool.name);
  // The system prompt and the tools first (as a request has them), then the messages in order.
  const rank = (c: Category): number => (c.name === 'system prompt' ? 0 : c.name === 'tools' ? 1 : 2);
  return [...rows.values()].sort((a, b) => rank(a) - rank(b));
}
