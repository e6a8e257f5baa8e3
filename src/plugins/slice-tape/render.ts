// Entry text (spec ST-17, ST-20..ST-23): pure functions from the sealed turns of one run to the
// model-visible `[slice tape v1 …]` entry. Every character budget is in code points, counted by the
// `TextOps` passed in; `entryMaxChars` is a hard cap, met by reducing in the specified order and,
// as the last resort, by the compact form. Locators and recall calls are never cut.

import { FULL_READ_INDEX, readFacts, readIndexLine, type ReadHistory, type ReadIndexCaps, type ReadRef } from './reads.js';
import type { HistoryConfig } from './config.js';
import { tailCodePoints, type TextOps } from './text.js';

/** The start every entry's header shares: `[slice tape v1 · turn N]` (one turn) or `[slice tape v1 · turns N-M · …]`. */
export const TAPE_PREFIX = '[slice tape v1 · turn';
/** Headers of entries written by earlier builds; they still parse as frozen entries (ST-19). */
export const LEGACY_PREFIXES: readonly string[] = ['[slice checkpoint v1 · turns ', '# SESSION TAPE'];
export const SNAPSHOT_NOTE_PREFIX = '[slice note · ';
/** Sealed user messages longer than `pinUserChars` keep this head and tail (ST-21). */
export const USER_HEAD = 600;
export const USER_TAIL = 300;
/** Hex digits of the reply marker's SHA-256 (X-01). */
const REPLY_HASH_HEX = 12;
/** Reply head and tail once excerpts must narrow (ST-23 step 2), before the divisor. */
const REPLY_HEAD = 1400;
const REPLY_TAIL = 500;
/** Read-index label and line caps once excerpts must narrow, before the divisor. */
const READ_LABEL = 160;
const READ_LINE = 1600;
/** Narrowing divisors for ST-23 step 2. */
const DIVISORS = [2, 4, 8, 16];
/** Code points of a tool line's subject before narrowing. */
const SUBJECT_MAX = 160;

/** One result block of a sealed turn, by its original append record. */
export interface ToolLine {
  readonly seq: number;
  /** Set when the logged event holds several result blocks. */
  readonly block?: number;
  readonly name: string;
  /** What the call was about: its path, pattern, command or query, as the model wrote it. */
  readonly subject?: string;
  /** Code points of the result text. */
  readonly size: number;
  /** For a result over one page, the exact call of each page (`2 pages: expand_result(…) expand_result(…)`). */
  readonly pages?: string;
  /** The read this result is, for a direct read (ST-24's facts ride on its line since issue 30). */
  readonly read?: ReadRef;
}

/** What one sealed turn contributes to an entry. */
export interface TurnItem {
  readonly turn: number;
  /** Texts of the human's messages, in order. */
  readonly users: string[];
  /** Owner turns of superseded runtime snapshots sealed here (ST-17). */
  readonly snapshots: number[];
  /** The turn's last non-empty assistant text. */
  reply: string;
  readonly tools: ToolLine[];
  readonly reads: ReadRef[];
}

interface Level {
  /** Code points of a tool line's subject. */
  readonly subject: number;
  /** Users at most this long stay verbatim (pinUserChars, or 0 once narrowing). */
  readonly verbatimUser: number;
  readonly userHead: number;
  readonly userTail: number;
  /** Replies at most this long stay verbatim (pinReplyChars, Infinity when 0, or 0 once narrowing). */
  readonly verbatimReply: number;
  readonly replyHead: number;
  readonly replyTail: number;
  readonly reads: ReadIndexCaps;
}

/** The cut marker of sealed user and reply text (ST-21 [U]). */
export const recallMarker = (omitted: number): string => `…[+${omitted} chars, recall_turn]…`;

/**
 * Head and tail of `text` around `marker(<omitted code points>)` (default `…[+<k> chars, recall_turn]…`);
 * the text itself when it is at most `verbatimUpTo` code points or fits head + tail.
 */
export function excerpt(ops: TextOps, text: string, verbatimUpTo: number, head: number, tail: number, marker = recallMarker): string {
  const total = ops.codePointLength(text);
  if (total <= verbatimUpTo || total <= head + tail) return text;
  return `${ops.capCodePoints(text, head)}${marker(total - head - tail)}${tailCodePoints(ops, text, tail)}`;
}

/**
 * `[reply @<h>]\n<text>\n[end reply @<h>]`, h = 12 hex of SHA-256 of `text` (ST-21's frame, shortened by
 * issue 30: the entry names the turn; the hash keeps a reply that quotes a marker from closing early).
 */
export function replyFrame(ops: TextOps, text: string): string {
  const h = ops.sha256Hex(text).slice(0, REPLY_HASH_HEX);
  return `[reply @${h}]\n${text}\n[end reply @${h}]`;
}

/** The in-entry stand-in for superseded snapshots (ST-17 [U]). */
export function snapshotNote(owners: readonly number[]): string {
  const noun = owners.length === 1 ? 'runtime-context snapshot' : `${owners.length} runtime-context snapshots`;
  const turns = [...new Set(owners)].sort((a, b) => a - b);
  return `${SNAPSHOT_NOTE_PREFIX}${noun} superseded by a later one; not repeated here · verbatim: ${turns.map((t) => `recall_turn({"turn":"${t}"})`).join(', ')}]`;
}

/**
 * `[tool seq Q[ block B] · <name> "<subject>" · <size> chars[ · <pages>]]`, for a direct read
 * `[tool seq Q · read "<path>" · <read facts>[ · <pages>]]` (ST-22 as issue 30 left it): `seq Q` (with `block B`) is the result's locator, `expand_result({"seq":Q,
 * "formatVersion":3[,"block":B]})` as the tool's description says, spelled out call by call only for a
 * result over one page; the subject tells which of a turn's calls it was; no turn or step number (the
 * entry names its turn; steps shift when a turn gains one). A direct read adds what the read index
 * said of it (ST-24): the window's lines, the fingerprint, a window other than the default, and the
 * comparison with the same key's read of an earlier turn. `subjectMax` and `labelMax` cap the subject
 * and the window label (code points, `…` where cut); the locator is whole.
 */
export function toolLine(ops: TextOps, tool: ToolLine, history: ReadHistory, subjectMax = SUBJECT_MAX, labelMax?: number): string {
  const cap = (text: string, max: number | undefined): string => (max !== undefined && ops.codePointLength(text) > max ? `${ops.capCodePoints(text, Math.max(1, max - 1))}…` : text);
  const subject = tool.subject === undefined ? '' : ` ${JSON.stringify(cap(tool.subject, subjectMax))}`;
  const read = tool.read === undefined ? '' : ` · ${readFacts(tool.read, history, (text) => cap(text, labelMax))}`;
  // A read's size is the lines its facts give.
  return `[tool seq ${tool.seq}${tool.block === undefined ? '' : ` block ${tool.block}`} · ${tool.name}${subject}${tool.read === undefined ? ` · ${tool.size} chars` : ''}${read}${tool.pages === undefined ? '' : ` · ${tool.pages}`}]`;
}

/**
 * The entry header (ST-20, shortened by issue 30: the recall guidance lives in the recall tools'
 * descriptions, sent once with the tools, instead of in every entry): `[slice tape v1 · turn N]` for
 * one turn, else the span and the count.
 */
export function entryHeader(first: number, last: number, count: number): string {
  if (first === last) return `${TAPE_PREFIX} ${first}]`;
  return `${TAPE_PREFIX}s ${first}-${last} · ${count} turn(s) sealed]`;
}

/** The compact form, used when nothing else fits (ST-23 step 3 [U]). */
export function compactEntry(first: number, last: number, count: number): string {
  return `${TAPE_PREFIX}s ${first}-${last} · ${count} turn(s) sealed · details: recall_turn({"turn":"${first}"}); repeat for each turn through ${last}]`;
}

function renderAt(ops: TextOps, items: readonly TurnItem[], history: ReadHistory, level: Level): string {
  const turns = items.map((i) => i.turn);
  const count = new Set(turns).size;
  const lines = [entryHeader(Math.min(...turns), Math.max(...turns), count)];
  for (const item of items) {
    // An entry of one turn names it in its header already.
    if (count > 1) lines.push(`[turn ${item.turn}]`);
    item.users.forEach((text, index) => {
      const body = excerpt(ops, text, level.verbatimUser, level.userHead, level.userTail);
      lines.push(index === 0 ? body : `[user]\n${body}`);
    });
    if (item.snapshots.length > 0) lines.push(snapshotNote(item.snapshots));
    if (item.reply !== '') {
      lines.push(replyFrame(ops, excerpt(ops, item.reply, level.verbatimReply, level.replyHead, level.replyTail)));
    }
    if (item.reads.length > 0) lines.push(readIndexLine(item.reads, item.turn, history, ops, level.reads));
    for (const tool of item.tools) lines.push(toolLine(ops, tool, history, level.subject, level.reads.label));
  }
  return lines.join('\n');
}

/**
 * The reduction ladder of ST-23, with issue 30's change: a tool line is a result's locator, so it is
 * never dropped; excerpts, the read index and subjects narrow instead, then the compact form.
 */
function levels(history: Pick<HistoryConfig, 'pinUserChars' | 'pinReplyChars'>): Level[] {
  const pin = history.pinReplyChars;
  // A pinned reply keeps two thirds of the pin from its head and a third from its tail.
  const replyHead = pin === 0 ? REPLY_HEAD : Math.ceil((2 * pin) / 3);
  const replyTail = pin === 0 ? REPLY_TAIL : pin - replyHead;
  const whole: Level = { subject: SUBJECT_MAX, verbatimUser: history.pinUserChars, userHead: USER_HEAD, userTail: USER_TAIL, verbatimReply: pin === 0 ? Infinity : pin, replyHead, replyTail, reads: FULL_READ_INDEX };
  const ladder = [whole];
  for (const d of DIVISORS) {
    ladder.push({
      subject: Math.floor(SUBJECT_MAX / d), verbatimUser: 0, userHead: Math.floor(USER_HEAD / d), userTail: Math.floor(USER_TAIL / d),
      verbatimReply: 0, replyHead: Math.floor(Math.min(REPLY_HEAD, replyHead) / d), replyTail: Math.floor(Math.min(REPLY_TAIL, replyTail) / d),
      reads: { entries: Math.max(1, Math.floor(FULL_READ_INDEX.entries / d)), label: Math.floor(READ_LABEL / d), line: Math.floor(READ_LINE / d) },
    });
  }
  return ladder;
}

/**
 * The text of one new entry for `items` (one or more sealed turns, in order), at most
 * `entryMaxChars` code points: the first level of the ladder that fits, else the compact form.
 */
export function renderEntry(ops: TextOps, items: readonly TurnItem[], history: ReadHistory, config: Pick<HistoryConfig, 'pinUserChars' | 'pinReplyChars' | 'entryMaxChars'>): string {
  for (const level of levels(config)) {
    const text = renderAt(ops, items, history, level);
    if (ops.codePointLength(text) <= config.entryMaxChars) return text;
  }
  const turns = items.map((i) => i.turn);
  return compactEntry(Math.min(...turns), Math.max(...turns), new Set(turns).size);
}

/** Whether `text` starts like a tape entry, current or legacy (ST-19). */
export function hasEntryPrefix(text: string): boolean {
  return text.startsWith(TAPE_PREFIX) || LEGACY_PREFIXES.some((p) => text.startsWith(p));
}
