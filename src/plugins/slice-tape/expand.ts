// expand_result (spec ST-31, ST-32): one logged tool result, verbatim, by its durable seq (with the
// session format it was read in) or by stable turn/step/call ordinals, with optional block, line
// and regex selection. Stale numeric locators are refused before anything is looked up.

import { SESSION_FORMAT_VERSION } from '../../host/names.js';
import type { SessionEvent } from '../../host/session.js';
import type { SpillStore } from '../../host/spill.js';
import { checkGrepWork, compileGrep } from './grep.js';
import { Ledger, resultBlocks, type ToolResultBlock } from './ledger.js';
import { parseOrdinal } from './recall.js';
import { pageAnswer, paginate, type LocatorArgs } from './pages.js';
import { restoreParts } from './spill.js';

/** The ST-32 refusal, exact. */
export const STALE_SEQ_ERROR = `expand_result: numeric seq requires formatVersion ${SESSION_FORMAT_VERSION} from a fresh locator`;

/** expand_result's arguments, as the model may send them. */
export interface ExpandArgs {
  readonly seq?: unknown;
  readonly formatVersion?: unknown;
  readonly turn?: unknown;
  readonly step?: unknown;
  readonly call?: unknown;
  readonly block?: unknown;
  readonly grep?: unknown;
  readonly lines?: unknown;
  readonly page?: unknown;
}

const describe = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** A positive integer (or, with `zero`, also 0) given as a number or a digit string. */
function ordinal(value: unknown, zero = false): number | undefined {
  return zero && (value === 0 || (typeof value === 'string' && /^\s*0+\s*$/.test(value))) ? 0 : parseOrdinal(value);
}

/** Finds the original result event the arguments select; throws a clear error otherwise. */
function select(events: readonly SessionEvent[], args: ExpandArgs): SessionEvent {
  const ledger = new Ledger(events);
  if (args.seq !== undefined) {
    const seq = ordinal(args.seq, true);
    if (seq === undefined) throw new Error(`expand_result: seq must be a non-negative integer, got ${describe(args.seq)}`);
    // ST-32: before any lookup, so an old number can never silently name a different result.
    if (ordinal(args.formatVersion) !== SESSION_FORMAT_VERSION) throw new Error(STALE_SEQ_ERROR);
    const event = events[seq];
    if (event === undefined) throw new Error(`expand_result: no session event at seq ${seq} (the log has ${events.length})`);
    const original = ledger.originalResult(seq);
    if (original === undefined) throw new Error(`expand_result: seq ${seq} is a ${event.type} record, not a tool result`);
    return original;
  }
  const turn = ordinal(args.turn);
  const step = ordinal(args.step);
  const call = args.call === undefined ? 1 : ordinal(args.call);
  if (turn === undefined || step === undefined || call === undefined) {
    throw new Error(`expand_result needs {"seq":Q,"formatVersion":${SESSION_FORMAT_VERSION}} or {"turn":T,"step":S,"call":C} (call defaults to 1), got ${describe(args)}`);
  }
  const found = ledger.stepResults(turn, step);
  const event = found[call - 1];
  if (event === undefined) throw new Error(`expand_result: no tool result recorded at turn ${turn} step ${step} call ${call} (that step has ${found.length})`);
  return event;
}

/** `"a-b"` (1-based, inclusive) → the range; anything malformed → undefined (the filter is skipped). */
function lineRange(value: unknown): [number, number] | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  if (match === null) return undefined;
  const a = Number(match[1]);
  const b = Number(match[2]);
  return a >= 1 && a <= b ? [a, b] : undefined;
}

/**
 * Applies `lines` then `grep` (linear-time RE2, bounded work: grep.ts); malformed or empty filters
 * leave the text whole (ST-31 [U]).
 */
function filter(text: string, args: ExpandArgs): string {
  const range = lineRange(args.lines);
  const grep = compileGrep(args.grep);
  if (range === undefined && grep === undefined) return text;
  let lines = text.split('\n');
  if (range !== undefined) lines = lines.slice(range[0] - 1, range[1]);
  if (grep !== undefined) {
    checkGrepWork(grep, lines.reduce((sum, line) => sum + line.length, 0), lines.length);
    lines = lines.filter((line) => grep.test(line));
  }
  return lines.join('\n');
}

async function blockText(block: ToolResultBlock, where: string, store: SpillStore | undefined, signal?: AbortSignal): Promise<string> {
  const parts = await restoreParts(block.content, store, signal);
  const preview = parts.find((p) => p.preview !== undefined)?.preview;
  if (preview !== undefined) {
    throw new Error(`expand_result: the full text of ${where} (${preview.notice.omittedBytes} bytes beyond the logged preview) is stored at ${preview.notice.locator}, and ${preview.reason}; read that path with the file tools instead`);
  }
  return parts.map((p) => p.text).join('');
}

/**
 * The selected result's original text: verbatim for one block; for an event with several sibling
 * results and no `block`, each under a `[block B of N · <tool>]` line. Spilled parts are restored
 * each on its own; one that cannot be restored is an error naming where the text is. A text over
 * one page (pages.ts) comes a page at a time (`page`, default 1), under a header line naming the
 * page, its byte range and the next page's call; the pages' texts joined are the text.
 */
export async function expandResult(events: readonly SessionEvent[], args: ExpandArgs, store: SpillStore | undefined, signal?: AbortSignal): Promise<string> {
  const event = select(events, args);
  const ledger = new Ledger(events);
  const blocks = resultBlocks(event);
  let chosen = blocks.map((block, i) => ({ block, index: i + 1 }));
  if (args.block !== undefined) {
    const n = ordinal(args.block);
    if (n === undefined) throw new Error(`expand_result: block must be a positive integer, got ${describe(args.block)}`);
    if (n > blocks.length) throw new Error(`expand_result: no result block ${n} at seq ${event.seq} (it has ${blocks.length})`);
    chosen = [chosen[n - 1]!];
  }
  const page = args.page === undefined ? undefined : ordinal(args.page);
  if (args.page !== undefined && page === undefined) throw new Error(`expand_result: page must be a positive integer, got ${describe(args.page)}`);
  const texts: string[] = [];
  for (const { block, index } of chosen) {
    const text = filter(await blockText(block, `seq ${event.seq} block ${index}`, store, signal), args);
    texts.push(chosen.length > 1 ? `[block ${index} of ${blocks.length} · ${ledger.toolName(block.toolCallId)}]\n${text}` : text);
  }
  const text = texts.join('\n');
  // One page: the original itself. Over a page (issue 30): the page asked for, or the first, with a
  // header naming the next, so no answer is over DSH's spill limit.
  if (paginate(text).length === 1) {
    if (page !== undefined && page > 1) throw new Error(`expand_result: page ${page} does not exist; the result has 1 page`);
    return text;
  }
  const locator: LocatorArgs = {
    seq: event.seq,
    ...(chosen.length === 1 && blocks.length > 1 ? { block: chosen[0]!.index } : {}),
    ...(typeof args.lines === 'string' && args.lines !== '' ? { lines: args.lines } : {}),
    ...(typeof args.grep === 'string' && args.grep !== '' ? { grep: args.grep } : {}),
  };
  return pageAnswer(locator, text, page ?? 1);
}
