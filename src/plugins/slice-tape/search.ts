// recall_search (spec ST-33..ST-35): scored search over the durable log. Dialogue kinds by default;
// raw tool output, the session's largest and noisiest text, only through bounded slots unless asked
// for. The recall tools' own calls and results are never indexed, and every hit carries the exact
// call that returns its original. A search costs one pass per query term over every document, and
// both the query (the model's) and the log (days of tool output) are unbounded, so the terms and
// the total work are capped, and the page says when either cap left something out (issue 32 item 14).

import type { ContentBlock, UserMessage } from '../../host/message.js';
import { SessionEventType, SourceKind } from '../../host/names.js';
import type { SessionEvent } from '../../host/session.js';
import { isOriginal, Ledger, resultBlocks, textOf, type ToolResultData } from './ledger.js';
import { resultLocator } from './pages.js';
import { turnLocator } from './recall.js';
import type { TextOps } from './text.js';

export type SearchKind = 'user' | 'assistant' | 'context' | 'tool_input' | 'tool_error' | 'tool_output';
export type SearchScope = 'auto' | 'dialogue';

/** Kinds searched by default (ST-33 [U]). */
export const DEFAULT_SEARCH_KINDS: readonly SearchKind[] = ['user', 'assistant', 'context', 'tool_input', 'tool_error'];
export const SEARCH_KINDS: readonly SearchKind[] = [...DEFAULT_SEARCH_KINDS, 'tool_output'];
/** scope "auto" admits at most this many tool-output hits… */
export const TOOL_OUTPUT_SLOTS = 3;
/** …of at most this many code points each (also the snippet size of every tool hit). */
export const TOOL_SNIPPET_CHARS = 600;
/** Snippet size of dialogue hits. */
const DIALOGUE_SNIPPET_CHARS = 180;
export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;
/** Distinct query terms searched at most; later terms are dropped, and the page says so. */
export const MAX_SEARCH_TERMS = 32;
/**
 * Most work one search may do: characters searched × (terms + 1), a lowercasing pass and one scan per
 * term (1–2 ns a unit: 32 terms that keep `indexOf` busiest took 0.5 s on a busy 2-core host).
 * Documents are searched newest first while they fit.
 */
export const MAX_SEARCH_WORK = 2 ** 28;
/** Code points of the query the page repeats. */
export const SHOWN_QUERY_CHARS = 200;
/** The recall family: their inputs are queries about history and their outputs copies of it (ST-34). */
export const RECALL_TOOLS: readonly string[] = ['recall_turn', 'recall_search', 'recall_step', 'expand_result'];

interface Doc {
  readonly turn: number;
  readonly step?: number;
  readonly kind: SearchKind;
  readonly text: string;
  readonly seq: number;
  readonly block?: number;
  readonly locator: string;
}

/** One hit: where, what kind, a bounded snippet and the follow-up call. */
export interface SearchHit extends Doc {
  readonly score: number;
  readonly snippet: string;
}

/** What a search's caps left out. */
export interface SearchBounds {
  /** Distinct terms in the query, and how many of them were searched (at most MAX_SEARCH_TERMS). */
  readonly terms: number;
  readonly searchedTerms: number;
  /** Documents (and their characters) not searched because the work cap was reached. */
  readonly skippedDocuments: number;
  readonly skippedChars: number;
}

/** A search's hits, best first, and what its caps left out. */
export interface SearchOutcome {
  readonly hits: SearchHit[];
  readonly bounds: SearchBounds;
}

/** The kinds to search: explicit `kinds` win; otherwise the scope's (ST-33). */
export function searchKinds(scope: SearchScope, kinds: readonly SearchKind[] | undefined): readonly SearchKind[] {
  if (kinds !== undefined && kinds.length > 0) return kinds;
  return scope === 'auto' ? SEARCH_KINDS : DEFAULT_SEARCH_KINDS;
}

/** The searchable documents of the log, each with its locator. */
function documents(events: readonly SessionEvent[], kinds: ReadonlySet<SearchKind>): Doc[] {
  const ledger = new Ledger(events);
  const docs: Doc[] = [];
  for (const event of events) {
    if (!isOriginal(event)) continue;
    const turn = ledger.turnOf(event.seq);
    if (event.type === SessionEventType.userMessage) {
      if (turn < 1) continue;
      const message = event.data as UserMessage;
      const kind: SearchKind = message.source.kind === SourceKind.user ? 'user' : 'context';
      const text = textOf(message.content);
      if (kinds.has(kind) && text.trim() !== '') docs.push({ turn, kind, text, seq: event.seq, locator: turnLocator(turn, 'dialogue') });
    } else if (event.type === SessionEventType.assistantMessage) {
      const data = event.data as { step: number; message: { content: readonly ContentBlock[] } };
      const text = textOf(data.message.content);
      if (kinds.has('assistant') && text.trim() !== '') docs.push({ turn, step: data.step, kind: 'assistant', text, seq: event.seq, locator: turnLocator(turn, 'dialogue') });
      if (!kinds.has('tool_input')) continue;
      for (const block of data.message.content) {
        // A tool input lives in the turn's full record, which holds the arguments verbatim.
        if (block.type !== 'tool-call' || RECALL_TOOLS.includes(block.name)) continue;
        docs.push({ turn, step: data.step, kind: 'tool_input', text: `${block.name} ${block.arguments}`, seq: event.seq, locator: turnLocator(turn, 'full') });
      }
    } else if (event.type === SessionEventType.toolResult) {
      const data = event.data as ToolResultData;
      const blocks = resultBlocks(event);
      blocks.forEach((b, i) => {
        // Only the recall family's own blocks are skipped; ordinary siblings in the event stay.
        if (RECALL_TOOLS.includes(ledger.toolName(b.toolCallId))) return;
        const kind: SearchKind = b.isError === true ? 'tool_error' : 'tool_output';
        const text = textOf(b.content);
        const block = blocks.length > 1 ? i + 1 : undefined;
        if (kinds.has(kind) && text.trim() !== '') {
          // Every page's call for a result over one page (issue 30), so the follow-up is one step.
          docs.push({ turn, step: data.step, kind, text, seq: event.seq, ...(block !== undefined ? { block } : {}), locator: resultLocator({ seq: event.seq, ...(block !== undefined ? { block } : {}) }, text) });
        }
      });
    }
  }
  return docs;
}

function terms(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}_.-]+/u).filter((t) => t !== ''))];
}

/** A query of several words found as written (case and runs of white space aside) outranks any count of its words found apart. */
const PHRASE_BONUS = 100_000;

/** Lowercased, white-space runs made one space: how a phrase is compared. */
function folded(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** At most `max` code points around the first match, whitespace collapsed, `…` where cut. */
function snippet(ops: TextOps, text: string, at: number, max: number): string {
  const before = ops.codePointLength(text.slice(0, at));
  const start = Math.max(0, before - Math.floor(max / 2));
  const from = ops.capCodePoints(text, start).length;
  const piece = ops.capCodePoints(text.slice(from), max);
  const cut = from + piece.length < text.length;
  return `${from > 0 ? '…' : ''}${piece.replace(/\s+/g, ' ').trim()}${cut ? '…' : ''}`;
}

/**
 * Hits for `query`, best first: documents matching more query terms first, then more occurrences
 * (capped, so a flood cannot outrank a short exact answer), then newer. In scope "auto" without
 * explicit kinds, tool output gets at most TOOL_OUTPUT_SLOTS hits beside the `limit` of the others;
 * otherwise `limit` applies to all. Only the first MAX_SEARCH_TERMS distinct terms are searched,
 * and documents newest first while their work fits MAX_SEARCH_WORK; `bounds` says what was left out.
 */
export function search(events: readonly SessionEvent[], query: string, scope: SearchScope, kinds: readonly SearchKind[] | undefined, limit: number, ops: TextOps): SearchOutcome {
  const searched = searchKinds(scope, kinds);
  const slotted = (kinds === undefined || kinds.length === 0) && scope === 'auto';
  const all = terms(query);
  const wanted = all.slice(0, MAX_SEARCH_TERMS);
  const bounds = { terms: all.length, searchedTerms: wanted.length, skippedDocuments: 0, skippedChars: 0 };
  if (wanted.length === 0) return { hits: [], bounds };
  const phrase = wanted.length > 1 ? folded(query).trim() : undefined;
  const hits: SearchHit[] = [];
  const docs = documents(events, new Set(searched));
  let budget = MAX_SEARCH_WORK;
  for (let d = docs.length - 1; d >= 0; d--) {
    const doc = docs[d]!;
    const work = doc.text.length * (wanted.length + 1);
    if (work > budget) {
      bounds.skippedDocuments++;
      bounds.skippedChars += doc.text.length;
      continue;
    }
    budget -= work;
    const lower = doc.text.toLowerCase();
    let matched = 0;
    let occurrences = 0;
    let first = -1;
    for (const term of wanted) {
      let i = lower.indexOf(term);
      if (i < 0) continue;
      matched++;
      if (first < 0 || i < first) first = i;
      for (; i >= 0 && occurrences < 10; i = lower.indexOf(term, i + term.length)) occurrences++;
    }
    if (matched === 0) continue;
    const tool = doc.kind === 'tool_output' || doc.kind === 'tool_error';
    // Issue 30: a phrase the model copied from a result finds that result before others that share its words.
    let exact = false;
    if (phrase !== undefined && matched === wanted.length) {
      // The phrase test (a folding pass and a scan) is work too: charged to the budget like the terms' scans.
      budget -= 2 * doc.text.length;
      exact = folded(doc.text).includes(phrase);
    }
    hits.push({ ...doc, score: (exact ? PHRASE_BONUS : 0) + matched * 1000 + Math.min(occurrences, 10), snippet: snippet(ops, doc.text, first, tool ? TOOL_SNIPPET_CHARS : DIALOGUE_SNIPPET_CHARS) });
  }
  // Back to log order, so that hits of one event that tie keep the order they have there.
  hits.reverse().sort((a, b) => b.score - a.score || b.seq - a.seq || (a.block ?? 0) - (b.block ?? 0));
  if (!slotted) return { hits: hits.slice(0, limit), bounds };
  let tools = 0;
  let others = 0;
  return { hits: hits.filter((hit) => (hit.kind === 'tool_output' ? tools++ < TOOL_OUTPUT_SLOTS : others++ < limit)), bounds };
}

/** The page: a header saying what was searched (and what the caps left out), then one line per hit ending in its follow-up call. */
export function renderHits(query: string, outcome: SearchOutcome, searched: readonly SearchKind[], ops: TextOps): string {
  const { hits, bounds } = outcome;
  const capped = ops.capCodePoints(query, SHOWN_QUERY_CHARS);
  const shown = JSON.stringify(capped) + (capped.length < query.length ? '…' : '');
  const notes = [
    ...(bounds.searchedTerms < bounds.terms ? [`only the first ${bounds.searchedTerms} of its ${bounds.terms} distinct terms were searched`] : []),
    ...(bounds.skippedDocuments > 0
      ? [`${bounds.skippedDocuments} older document(s) of ${bounds.skippedChars} characters were not searched (the search budget is ${MAX_SEARCH_WORK} characters × (terms + 1)); use fewer terms or narrower kinds`]
      : []),
  ].map((note) => ` · ${note}`).join('');
  if (hits.length === 0) {
    return `[recall_search ${shown} · 0 hits over kinds ${searched.join(', ')}${notes} · not found by this search, which does not mean it never happened; broaden the query, try other kinds, or read a turn with recall_turn]`;
  }
  const lines = [`[recall_search ${shown} · ${hits.length} hit(s) over kinds ${searched.join(', ')}${notes} · historical record; each hit ends with the call that returns its original]`];
  for (const hit of hits) {
    const where = `turn ${hit.turn}${hit.step === undefined ? '' : ` step ${hit.step}`}${hit.kind.startsWith('tool_') && hit.kind !== 'tool_input' ? ` seq ${hit.seq}${hit.block === undefined ? '' : ` block ${hit.block}`}` : ''}`;
    lines.push(`- ${where} [${hit.kind}] ${hit.snippet} → ${hit.locator}`);
  }
  return lines.join('\n');
}
