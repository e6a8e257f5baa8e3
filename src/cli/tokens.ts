// `dsh-context inspect`'s token breakdown, in DeepSeek V3 tokens (the engine's countTokens, equal to
// the reference tokenizer): the plugins' system-prompt sections, their tool definitions (full, and
// under a context profile what the profile sends instead: a deferred placeholder, nothing, or
// `tool_search`), and the messages of request 1, against the model's context window. Two simulated
// sessions give it: one with the profile (what the model gets) and, when a profile applies, one
// without (the definitions the profile replaced).

import { countTokens } from '../engine/index.js';
import { CODE_MODE_TOOL, FILE_TOOL_NAMES, type ToolSchema } from '../host/index.js';
import { definitionTokens, toolDefinitionJson } from '../plugins/context-profiles/placeholders.js';
import type { FirstRequest } from './offline-request.js';

/**
 * DeepSeek V3's context window: 131,072 tokens (`model_max_length` of its tokenizer configuration,
 * the 128K the DeepSeek API documents for deepseek-chat).
 */
export const DEEPSEEK_V3_CONTEXT_WINDOW = 131_072;

/** The simulated host's own tools: stand-ins for DSH's, whose real definitions inspect does not have. */
const HOST_TOOLS: ReadonlySet<string> = new Set([...FILE_TOOL_NAMES, CODE_MODE_TOOL]);

/** One of the plugins' tools, in tokens. */
export interface ToolTokens {
  readonly name: string;
  /**
   * `on`: sent as defined; `deferred`: the profile sends a slim placeholder instead; `off`: the
   * profile hides it; `added`: only the profile sends it (`tool_search`).
   */
  readonly state: 'on' | 'deferred' | 'off' | 'added';
  /** Tokens of what the model is sent for it (0 when off). */
  readonly tokens: number;
  /** Tokens of its full definition (absent for an added tool). */
  readonly full?: number;
  /** What the model is sent for it: its chat-completions JSON (absent when off). */
  readonly definition?: string;
}

export interface TokenReport {
  readonly tokenizer: 'DeepSeek V3';
  readonly contextWindow: number;
  /** The context profile the session starts with (`none`: context-profiles leaves it alone). */
  readonly profile: string;
  readonly systemPrompt: {
    /** Tokens of the plugins' sections as sent (the sections joined by blank lines, as DSH joins them). */
    readonly tokens: number;
    readonly sections: readonly { readonly name: string; readonly tokens: number; readonly text: string }[];
    /** The same without the profile. */
    readonly withoutProfile: number;
  };
  readonly tools: {
    /** Tokens of the plugins' tool definitions as sent (each as its chat-completions JSON). */
    readonly tokens: number;
    readonly withoutProfile: number;
    readonly tools: readonly ToolTokens[];
  };
  /** Tokens of request 1's messages (each message's text). */
  readonly messages: number;
  /** What the profile saves: (sections + tools without it) − (with it). */
  readonly saved: number;
  readonly total: number;
  readonly free: number;
}

// A tool's definition is counted as context-profiles counts it for its panel: the chat-completions
// JSON DSH's DeepSeek adapter sends (placeholders.ts).
const toolDefinition = toolDefinitionJson;
const toolTokens = definitionTokens;

/** Tokens of a message's text as the model gets it (its text blocks joined, as DSH's adapter joins them). */
export function messageTokens(blocks: readonly string[]): number {
  return countTokens(blocks.join(''));
}

/**
 * The breakdown of request 1 (`withProfile`), compared with the same session without a profile
 * (`withoutProfile`; the same request when no profile applies).
 * @param withProfile request 1 of the session under `profile`
 * @param withoutProfile request 1 of the same session with no profile
 * @param profile the profile's id (`none` for no profile)
 * @param contextWindow the model's context window in tokens
 * @returns the token report
 */
export function tokenReport(withProfile: FirstRequest, withoutProfile: FirstRequest, profile: string, contextWindow: number): TokenReport {
  const pluginTools = (request: FirstRequest): Map<string, ToolSchema> =>
    new Map(request.tools.filter((t) => !HOST_TOOLS.has(t.name)).map((t) => [t.name, t]));
  const now = pluginTools(withProfile);
  const before = pluginTools(withoutProfile);
  const names = [...new Set([...before.keys(), ...now.keys()])].sort();
  const tools = names.map((name): ToolTokens => {
    const sent = now.get(name);
    const full = before.get(name);
    if (full === undefined) return { name, state: 'added', tokens: toolTokens(sent!), definition: toolDefinition(sent!) };
    const fullTokens = toolTokens(full);
    if (sent === undefined) return { name, state: 'off', tokens: 0, full: fullTokens };
    const same = JSON.stringify(sent) === JSON.stringify(full);
    return { name, state: same ? 'on' : 'deferred', tokens: same ? fullTokens : toolTokens(sent), full: fullTokens, definition: toolDefinition(sent) };
  });
  const systemText = (request: FirstRequest): string => request.sections.map((s) => s.text).join('\n\n');
  const sectionTokens = countTokens(systemText(withProfile));
  const sectionsBefore = countTokens(systemText(withoutProfile));
  const toolsNow = tools.reduce((n, t) => n + t.tokens, 0);
  const toolsBefore = [...before.values()].reduce((n, t) => n + toolTokens(t), 0);
  const messages = withProfile.messages.reduce((n, m) => n + messageTokens(m.blocks), 0);
  const total = sectionTokens + toolsNow + messages;
  return {
    tokenizer: 'DeepSeek V3',
    contextWindow,
    profile,
    systemPrompt: { tokens: sectionTokens, sections: withProfile.sections.map((s) => ({ name: s.name, tokens: countTokens(s.text), text: s.text })), withoutProfile: sectionsBefore },
    tools: { tokens: toolsNow, withoutProfile: toolsBefore, tools },
    messages,
    saved: sectionsBefore + toolsBefore - sectionTokens - toolsNow,
    total,
    free: contextWindow - total,
  };
}
