// `dsh-context session`: what a DSH session cost, turn by turn, read from its persisted log. The
// provider's own counts come from the usage DSH logs on each `assistant/message` (and on a
// compaction's `compaction/summary`): DSH's counts are disjoint, `inputTokens` the prompt tokens the
// provider's cache missed and `cacheReadTokens` those it hit (llm-deepseek's mapUsage), so the cost
// is miss × input price + hit × cache price + output × output price. Beside it, what our plugins did
// in each turn (slice-tape's entries and folds, in DeepSeek V3 tokens before → after, and the
// model's recalls) and what DSH did (its compactions, its tool-result pruner's rewrites).

import { countTokens } from '../engine/index.js';
import { SessionEventType, type SessionEvent, type SessionHeader } from '../host/index.js';
import { foldHeader } from '../plugins/slice-tape/fold.js';
import { RECALL_TOOLS } from '../plugins/slice-tape/search.js';
import { HISTORY_PLUGIN } from '../plugins/slice-tape/seal.js';
import type { SessionLog } from '../fs/session-log.js';

/** Prices in US dollars per million tokens. */
export interface Prices {
  /** A prompt token the provider's cache missed. */
  readonly input: number;
  /** A prompt token read from the provider's cache. */
  readonly cacheRead: number;
  readonly output: number;
}

/**
 * DeepSeek's API prices (deepseek-chat, V3.2) at the time of writing, USD per million tokens: a
 * cache miss 0.28, a cache hit 0.028 (a tenth), output 0.42.
 */
export const DEEPSEEK_PRICES: Prices = { input: 0.28, cacheRead: 0.028, output: 0.42 };

/** Token counts as the provider reported them. */
export interface Usage {
  readonly input: number;
  readonly cacheRead: number;
  readonly output: number;
  /** Of `output`, the reasoning tokens, when the provider said. */
  readonly reasoning: number;
}

/** A surface replacement and what it did to the context, in DeepSeek V3 tokens of the visible text. */
export interface Replacement {
  readonly seq: number;
  /** The visible nodes it replaced. */
  readonly nodes: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/** One user turn. */
export interface TurnReport {
  readonly turn: number;
  /** Model requests answered in the turn (`assistant/message`). */
  readonly requests: number;
  readonly usage: Usage;
  readonly cost: number;
  /** cacheRead ÷ (input + cacheRead); null without prompt tokens. */
  readonly cacheHitRate: number | null;
  /** slice-tape entries sealed at the turn's first step. */
  readonly tape: readonly Replacement[];
  /** Tool results slice-tape folded. */
  readonly folds: readonly Replacement[];
  /** Recall tool calls the model made (`recall_turn`, `recall_step`, `recall_search`, `expand_result`). */
  readonly recalls: readonly { readonly tool: string; readonly seq: number }[];
  /** Tool results DSH's tool-result pruner rewrote. */
  readonly pruned: readonly Replacement[];
}

/** One of DSH's compactions. */
export interface CompactionReport {
  readonly id: string;
  /** The turn it ran in; null between turns (`/compact`). */
  readonly turn: number | null;
  readonly replacement?: Replacement;
  /** DSH's own estimate of the tokens it shadowed (`shadowedTokenCount`). */
  readonly estimatedTokens?: number;
  /** The summary call's usage and cost, when DSH made one. */
  readonly usage?: Usage;
  readonly cost: number;
}

export interface SessionReport {
  readonly file: string;
  readonly session: string;
  readonly cwd?: string;
  readonly createdAt?: number;
  readonly provider?: string;
  readonly model?: string;
  readonly contextWindow?: number;
  readonly prices: Prices & { readonly currency: 'USD'; readonly per: 1_000_000; readonly source: 'DeepSeek' | 'options' };
  readonly turns: readonly TurnReport[];
  readonly compactions: readonly CompactionReport[];
  readonly totals: {
    readonly requests: number;
    readonly usage: Usage;
    /** Turns and compaction summaries. */
    readonly cost: number;
    /** The same prompt tokens had none come from the cache. */
    readonly costWithoutCache: number;
    readonly cacheHitRate: number | null;
    readonly tape: { readonly entries: number; readonly tokensBefore: number; readonly tokensAfter: number };
    readonly folds: { readonly count: number; readonly tokensBefore: number; readonly tokensAfter: number };
    readonly recalls: number;
  };
}

interface Block {
  readonly type?: string;
  readonly text?: string;
  readonly name?: string;
  readonly arguments?: string;
  readonly content?: readonly Block[];
}

const ZERO: Usage = { input: 0, cacheRead: 0, output: 0, reasoning: 0 };
const FOLD_PREFIX = foldHeader(0, 0, 0, 0, '').split(' · ')[0]!;

const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const usageOf = (raw: unknown): Usage | undefined => {
  if (raw === null || typeof raw !== 'object') return undefined;
  const u = raw as Record<string, unknown>;
  return { input: number(u.inputTokens), cacheRead: number(u.cacheReadTokens), output: number(u.outputTokens), reasoning: number(u.reasoningTokens) };
};
const plus = (a: Usage, b: Usage): Usage => ({ input: a.input + b.input, cacheRead: a.cacheRead + b.cacheRead, output: a.output + b.output, reasoning: a.reasoning + b.reasoning });
const costOf = (u: Usage, p: Prices): number => (u.input * p.input + u.cacheRead * p.cacheRead + u.output * p.output) / 1_000_000;
const hitRate = (u: Usage): number | null => (u.input + u.cacheRead === 0 ? null : u.cacheRead / (u.input + u.cacheRead));

/** The model-visible text of a block list: text and reasoning, tool calls' names and arguments, tool results' content. */
function blocksText(blocks: readonly Block[] | undefined): string {
  if (!Array.isArray(blocks)) return '';
  return blocks.map((b) => (b.type === 'tool-call' ? `${b.name ?? ''} ${b.arguments ?? ''}` : b.type === 'tool-result' ? blocksText(b.content) : (b.text ?? ''))).join('');
}

/** The visible text of a surface node (`user/message`, `assistant/message`, `tool/result`). */
function nodeText(event: SessionEvent | undefined): string {
  if (event === undefined) return '';
  const data = event.data as { content?: readonly Block[]; message?: { content?: readonly Block[] } };
  return blocksText(data.message?.content ?? data.content);
}

/**
 * The report of a parsed log; see the file comment.
 * @param log - the header and events.
 * @param file - the log's path, for the report.
 * @param prices - USD per million tokens, and whether they are DeepSeek's.
 * @returns the report.
 */
export function sessionReport(log: SessionLog, file: string, prices: { readonly prices: Prices; readonly source: 'DeepSeek' | 'options' }): SessionReport {
  const p = prices.prices;
  const events = log.events;
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const replacement = (event: SessionEvent): Replacement => {
    const nodes = (event.sourceEventSeqs ?? []).map((seq) => bySeq.get(seq)).filter((e): e is SessionEvent => e !== undefined && e.surfaceOp !== undefined);
    return { seq: event.seq, nodes: nodes.length, tokensBefore: nodes.reduce((n, e) => n + countTokens(nodeText(e)), 0), tokensAfter: countTokens(nodeText(event)) };
  };
  interface Building { turn: number; requests: number; usage: Usage; tape: Replacement[]; folds: Replacement[]; recalls: { tool: string; seq: number }[]; pruned: Replacement[] }
  const turns = new Map<number, Building>();
  const compactions = new Map<string, { id: string; turn: number | null; replacement?: Replacement; estimatedTokens?: number; usage?: Usage }>();
  let open: Building | undefined;
  let provider: string | undefined;
  let model: string | undefined;
  let contextWindow: number | undefined;
  for (const event of events) {
    const data = (event.data ?? {}) as Record<string, unknown>;
    switch (event.type) {
      case SessionEventType.turnStart: {
        const turn = number(data.turn);
        open = turns.get(turn) ?? { turn, requests: 0, usage: ZERO, tape: [], folds: [], recalls: [], pruned: [] };
        turns.set(turn, open);
        break;
      }
      case SessionEventType.turnEnd:
        open = undefined;
        break;
      case 'request/context':
        provider = typeof data.provider === 'string' ? data.provider : provider;
        model = typeof data.model === 'string' ? data.model : model;
        contextWindow = typeof data.contextWindow === 'number' ? data.contextWindow : contextWindow;
        break;
      case SessionEventType.assistantMessage: {
        if (open === undefined) break;
        open.requests++;
        open.usage = plus(open.usage, usageOf(data.usage) ?? ZERO);
        const content = (data.message as { content?: readonly Block[] } | undefined)?.content ?? [];
        for (const block of content) if (block.type === 'tool-call' && RECALL_TOOLS.includes(block.name ?? '')) open.recalls.push({ tool: block.name!, seq: event.seq });
        break;
      }
      case SessionEventType.userMessage: {
        const source = (data.source ?? {}) as { kind?: string; plugin?: string; compactionId?: string };
        if (event.surfaceOp === undefined || event.surfaceOp === 'append') break;
        if (source.plugin === HISTORY_PLUGIN) open?.tape.push(replacement(event));
        else if (typeof source.compactionId === 'string') {
          const c = compactions.get(source.compactionId);
          if (c !== undefined) c.replacement = replacement(event);
        }
        break;
      }
      case SessionEventType.toolResult: {
        if (event.surfaceOp === undefined || event.surfaceOp === 'append' || open === undefined) break;
        (nodeText(event).startsWith(FOLD_PREFIX) ? open.folds : open.pruned).push(replacement(event));
        break;
      }
      case SessionEventType.compactionStart:
        if (typeof data.compactionId === 'string') compactions.set(data.compactionId, { id: data.compactionId, turn: open?.turn ?? null });
        break;
      case SessionEventType.compactionSummary: {
        const c = typeof data.compactionId === 'string' ? compactions.get(data.compactionId) : undefined;
        if (c === undefined) break;
        const usage = usageOf(data.usage);
        if (usage !== undefined) c.usage = usage;
        if (typeof data.shadowedTokenCount === 'number') c.estimatedTokens = data.shadowedTokenCount;
        break;
      }
    }
  }
  const turnReports = [...turns.values()].sort((a, b) => a.turn - b.turn).map((t): TurnReport => ({ ...t, cost: costOf(t.usage, p), cacheHitRate: hitRate(t.usage) }));
  const compactionReports = [...compactions.values()].map((c): CompactionReport => ({ ...c, cost: c.usage === undefined ? 0 : costOf(c.usage, p) }));
  const usage = [...turnReports.map((t) => t.usage), ...compactionReports.flatMap((c) => (c.usage !== undefined ? [c.usage] : []))].reduce(plus, ZERO);
  const sum = (items: readonly Replacement[], key: 'tokensBefore' | 'tokensAfter'): number => items.reduce((n, r) => n + r[key], 0);
  const tape = turnReports.flatMap((t) => t.tape);
  const folds = turnReports.flatMap((t) => t.folds);
  const header: SessionHeader = log.header;
  return {
    file,
    session: header.id,
    ...(header.cwd !== undefined ? { cwd: header.cwd } : {}),
    ...(typeof header.createdAt === 'number' ? { createdAt: header.createdAt } : {}),
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    prices: { ...p, currency: 'USD', per: 1_000_000, source: prices.source },
    turns: turnReports,
    compactions: compactionReports,
    totals: {
      requests: turnReports.reduce((n, t) => n + t.requests, 0) + compactionReports.filter((c) => c.usage !== undefined).length,
      usage,
      cost: costOf(usage, p),
      costWithoutCache: costOf({ ...usage, input: usage.input + usage.cacheRead, cacheRead: 0 }, p),
      cacheHitRate: hitRate(usage),
      tape: { entries: tape.length, tokensBefore: sum(tape, 'tokensBefore'), tokensAfter: sum(tape, 'tokensAfter') },
      folds: { count: folds.length, tokensBefore: sum(folds, 'tokensBefore'), tokensAfter: sum(folds, 'tokensAfter') },
      recalls: turnReports.reduce((n, t) => n + t.recalls.length, 0),
    },
  };
}
