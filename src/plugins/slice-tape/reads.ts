// The read index (spec ST-24..ST-28): successful text reads recorded in the log, their canonical
// observation per key and turn, fingerprints, and the comparison to earlier turns. These are
// historical returned windows, never a claim about the file as it is now.

import type { ContentBlock } from '../../host/message.js';
import { readWindowLines } from '../../host/read-envelope.js';
import type { SessionEvent } from '../../host/session.js';
import { resultBlocks, textOf, type Ledger, type ToolResultData } from './ledger.js';
import type { TextOps } from './text.js';

/** Tools whose successful text results are indexed (ST-25). */
export const READ_TOOLS: readonly string[] = ['read', 'read_section', 'read_file'];
/** Argument names that hold the path; every other argument is part of the window. */
const PATH_ARGUMENTS = ['path', 'file_path', 'filePath'];
/** Entries shown per line before `+N more` (ST-26). */
export const READ_INDEX_LIMIT = 10;
/** Hex digits of the read fingerprint (X-01). */
const FINGERPRINT_HEX = 8;

/** One successful read. `block` is set for a direct (logged result) read, absent for a nested one. */
export interface ReadRef {
  /** (target, tool, window, channel): only reads with the same key are compared. */
  readonly key: string;
  readonly target: string;
  readonly window: string;
  readonly tool: string;
  readonly turn: number;
  readonly step: number;
  /** The tool/result seq (direct) or the dispatch record seq (nested). */
  readonly seq: number;
  readonly block?: number;
  /** The outer call of a nested read. */
  readonly rootCallId?: string;
  readonly fingerprint: string;
  readonly lines: number;
}

/** Every read in log order, and per key the canonical observation of each turn, oldest first. */
export interface ReadHistory {
  readonly reads: readonly ReadRef[];
  readonly prior: ReadonlyMap<string, readonly ReadRef[]>;
}

/** JSON with keys sorted at every level, so equal windows give equal labels. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return Object.fromEntries(keys.map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

function parseArguments(value: unknown): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

interface ReadSite {
  readonly tool: string;
  readonly arguments: unknown;
  readonly turn: number;
  readonly step: number;
  readonly seq: number;
  readonly provenance: { readonly block: number } | { readonly rootCallId: string };
}

/**
 * Fingerprints and line counts already computed, by record (`<seq>:<block>`): log records never
 * change, so a session's cache stays valid, and a seal only measures what it has not seen.
 */
export type FingerprintCache = Map<string, { readonly fingerprint: string; readonly lines: number }>;

function readRef(site: ReadSite, content: readonly ContentBlock[], ops: TextOps, cache: FingerprintCache | undefined): ReadRef | undefined {
  if (!READ_TOOLS.includes(site.tool)) return undefined;
  const args = parseArguments(site.arguments);
  if (args === undefined) return undefined;
  const path = PATH_ARGUMENTS.map((k) => args[k]).find((v) => v !== undefined);
  if (typeof path !== 'string' || path.trim() === '') return undefined;
  // Image-only success is a read, but not a text observation: an empty-text fingerprint would
  // later "equal" any other image-only read (ST-25 [U]).
  if (!content.some((b) => b.type === 'text')) return undefined;
  const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !PATH_ARGUMENTS.includes(k)));
  const window = Object.keys(rest).length === 0 ? 'default' : sortedJson(rest);
  const direct = 'block' in site.provenance;
  const record = `${site.seq}:${'block' in site.provenance ? site.provenance.block : 0}`;
  let measured = cache?.get(record);
  if (measured === undefined) {
    const text = textOf(content);
    // The file's lines the window shows: DSH's read envelope (path, type, footer) is not the file's.
    measured = { fingerprint: ops.sha256Hex(text).slice(0, FINGERPRINT_HEX), lines: readWindowLines(text) ?? lineCount(text) };
    cache?.set(record, measured);
  }
  return {
    key: JSON.stringify([path, site.tool, window, direct ? 'result' : 'code']),
    target: path, window, tool: site.tool, turn: site.turn, step: site.step, seq: site.seq, ...site.provenance,
    ...measured,
  };
}

/** `0` for empty text, else the number of `\n`-separated lines (ST-24), without splitting. */
function lineCount(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/** The last read per key, in the order keys were first seen (ST-26). */
export function canonicalReads(reads: readonly ReadRef[]): ReadRef[] {
  const latest = new Map<string, ReadRef>();
  for (const read of reads) latest.set(read.key, read);
  return [...latest.values()];
}

/**
 * Every successful read in the log: direct calls of the counted tools (one per non-error result
 * block of an original tool/result) and nested calls from code (non-error dispatch records). Errors
 * never enter, so a failed retry cannot hide an earlier success (ST-25). With a `cache`, each record
 * is hashed once per session instead of at every seal.
 */
export function readHistory(ledger: Ledger, ops: TextOps, cache?: FingerprintCache): ReadHistory {
  const reads: { ref: ReadRef; order: number }[] = [];
  for (const event of ledger.events) {
    if (event.type !== 'tool/result' || event.surfaceOp !== 'append') continue;
    const data = event.data as ToolResultData;
    resultBlocks(event).forEach((block, index) => {
      const call = ledger.calls.get(block.toolCallId);
      if (call === undefined || block.isError === true) return;
      const ref = readRef({ tool: call.name, arguments: call.arguments, turn: data.turn, step: data.step, seq: event.seq, provenance: { block: index + 1 } }, block.content, ops, cache);
      if (ref !== undefined) reads.push({ ref, order: event.seq });
    });
  }
  for (const d of ledger.dispatches) {
    if (d.isError) continue;
    const ref = readRef({ tool: d.name, arguments: d.arguments, turn: d.turn, step: d.step, seq: d.seq, provenance: { rootCallId: d.rootCallId } }, d.content, ops, cache);
    if (ref !== undefined) reads.push({ ref, order: d.seq });
  }
  const ordered = reads.sort((a, b) => a.order - b.order).map((r) => r.ref);
  const byTurn = new Map<number, ReadRef[]>();
  for (const read of ordered) pushTo(byTurn, read.turn, read);
  const prior = new Map<string, ReadRef[]>();
  for (const turn of [...byTurn.keys()].sort((a, b) => a - b)) {
    for (const read of canonicalReads(byTurn.get(turn)!)) pushTo(prior, read.key, read);
  }
  return { reads: ordered, prior };
}

/**
 * The reads that belong with one logged tool/result: its own direct reads, and the nested reads
 * dispatched by code whose outer call is among its blocks (same turn and step, logged before it).
 */
export function readsForResult(history: ReadHistory, event: SessionEvent): ReadRef[] {
  const data = event.data as ToolResultData;
  const roots = new Set(resultBlocks(event).map((b) => b.toolCallId));
  return history.reads.filter((r) => (r.rootCallId === undefined
    ? r.seq === event.seq
    : roots.has(r.rootCallId) && r.turn === data.turn && r.step === data.step && r.seq < event.seq));
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Where a read is in the log (ST-24, without the step since issue 30: steps shift when a turn gains one). */
function location(read: ReadRef): string {
  return read.block === undefined ? `dispatch seq ${read.seq}` : `seq ${read.seq} block ${read.block}`;
}

/**
 * What the read index says of one direct read, for its tool line (issue 30): `<lines> lines, <fp>`,
 * then `, window <window>` unless the default, then `, = turn T seq Q` / `, ≠ turn T seq Q` against
 * the newest canonical read of the same key in an earlier turn (` block B` when not the first block).
 * @param read - the read.
 * @param history - every read of the session, for the comparison.
 * @param label - how the window label is capped.
 * @returns the facts, without brackets.
 */
export function readFacts(read: ReadRef, history: ReadHistory, label: (text: string) => string = (text) => text): string {
  const earlier = (history.prior.get(read.key) ?? []).filter((r) => r.turn < read.turn).at(-1);
  const where = (r: ReadRef): string => (r.block === undefined ? `dispatch seq ${r.seq}` : `seq ${r.seq}${r.block === 1 ? '' : ` block ${r.block}`}`);
  const cmp = earlier === undefined ? '' : `, ${earlier.fingerprint === read.fingerprint ? '=' : '≠'} turn ${earlier.turn} ${where(earlier)}`;
  return `${read.lines} lines${read.window === 'default' ? '' : `, window ${label(read.window)}`}${cmp}`;
}

/** Caps applied when an entry must shrink (ST-23 step 2); `undefined` fields mean no cap. */
export interface ReadIndexCaps {
  /** Entries shown before `+N more`. */
  readonly entries: number;
  /** Code points of a target or window label; a longer one keeps its head and ends in `…`. */
  readonly label?: number;
  /** Code points of the whole line; entries are dropped from the end (into `+N more`) until it fits. */
  readonly line?: number;
}

export const FULL_READ_INDEX: ReadIndexCaps = { entries: READ_INDEX_LIMIT };

/**
 * `[files read this turn: <entry>, …[, +<n> more]]` for one turn's reads (ST-24). Each entry names the
 * canonical observation's fingerprint and locator, and compares it with the newest canonical
 * observation of the same key from an earlier turn. Locators are never cut: only labels shorten,
 * and whole entries move into the `+N more` count.
 */
export function readIndexLine(reads: readonly ReadRef[], turn: number, history: ReadHistory, ops: TextOps, caps: ReadIndexCaps = FULL_READ_INDEX): string {
  const unique = canonicalReads(reads);
  const entries = unique.map((read) => {
    const earlier = (history.prior.get(read.key) ?? []).filter((r) => r.turn < turn).at(-1);
    const cmp = earlier === undefined ? '' : `, ${earlier.fingerprint === read.fingerprint ? '=' : '≠'} turn ${earlier.turn} ${location(earlier)}`;
    const channel = read.block === undefined ? `, code log; model visibility not implied; recall_turn({"turn":"${read.turn}","view":"full"})` : ', logged result';
    const label = (text: string): string => (caps.label !== undefined && ops.codePointLength(text) > caps.label ? `${ops.capCodePoints(text, Math.max(1, caps.label - 1))}…` : text);
    return `${label(read.target)} (${read.lines} lines, ${read.fingerprint}, ${location(read)}, ${read.tool} window ${label(read.window)}${channel}${cmp})`;
  });
  const render = (shown: number): string => {
    const more = unique.length - shown;
    return `[files read this turn: ${entries.slice(0, shown).join(', ')}${more > 0 ? `${shown > 0 ? ', ' : ''}+${more} more` : ''}]`;
  };
  let shown = Math.min(entries.length, caps.entries);
  let line = render(shown);
  while (caps.line !== undefined && shown > 0 && ops.codePointLength(line) > caps.line) line = render(--shown);
  return line;
}
