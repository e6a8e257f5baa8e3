// recall_turn and recall_step (spec ST-29, ST-30, ST-35): pages rendered from the durable log, so
// anything sealed, folded or spilled is reachable again. Turn ownership comes from the Ledger, the
// same attribution the tape and the search index use.

import type { ContentBlock, UserMessage } from '../../host/message.js';
import { SESSION_FORMAT_VERSION, SessionEventType } from '../../host/names.js';
import type { SessionEvent } from '../../host/session.js';
import type { SpillStore } from '../../host/spill.js';
import { isOriginal, Ledger, resultBlocks, textOf, type ToolResultData } from './ledger.js';
import { resultLocator } from './pages.js';
import { restoreParts } from './spill.js';
import type { TextOps } from './text.js';

export type RecallView = 'full' | 'dialogue';

/** Log records a turn's full page lists. */
const RECORD_TYPES: readonly string[] = [
  SessionEventType.userMessage, SessionEventType.assistantMessage, SessionEventType.toolCall, SessionEventType.toolResult,
  SessionEventType.toolCodeDispatchStart, SessionEventType.toolCodeDispatch, SessionEventType.toolPtcDispatch,
];

/** A positive integer given as a number or a digit string; undefined otherwise. */
export function parseOrdinal(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** `"7"`, `7` or `"slice-turn-7"` → 7 (ST-29 [U]); undefined otherwise. */
export function parseTurn(value: unknown): number | undefined {
  return parseOrdinal(typeof value === 'string' ? value.trim().replace(/^slice-turn-(?=[0-9])/, '') : value);
}

/** `expand_result({"seq":Q,"formatVersion":3[,"block":B]})`. */
export function seqLocator(seq: number, block?: number): string {
  return `expand_result({"seq":${seq},"formatVersion":${SESSION_FORMAT_VERSION}${block === undefined ? '' : `,"block":${block}`}})`;
}

/** `recall_turn({"turn":"T","view":"<view>"})`. */
export function turnLocator(turn: number, view: RecallView): string {
  return `recall_turn({"turn":"${turn}","view":"${view}"})`;
}

function status(ledger: Ledger, turn: number): string {
  const end = ledger.events.find((e) => e.type === SessionEventType.turnEnd && (e.data as { turn: number }).turn === turn);
  return end === undefined ? 'open' : (end.data as { reason: { kind: string } }).reason.kind;
}

/** The error for a turn the log does not hold: it lists the turns that do exist (ST-29 [U]). */
function unknownTurn(tool: string, turn: number, ledger: Ledger): Error {
  const known = ledger.completed;
  return new Error(`${tool}: no recorded turn ${turn} in this session ${known.length > 0 ? `(sealed turns: ${known.join(', ')})` : '(no sealed turns yet)'}`);
}

/** One dialogue line per tool result block: step, seq, name, size and its locator. */
function resultLines(event: SessionEvent, ledger: Ledger, ops: TextOps): string[] {
  const blocks = resultBlocks(event);
  const step = (event.data as ToolResultData).step;
  return blocks.map((b, i) => {
    const block = blocks.length > 1 ? i + 1 : undefined;
    const text = textOf(b.content);
    return `[tool step ${step} seq ${event.seq}${block === undefined ? '' : ` block ${block}`} · ${ledger.toolName(b.toolCallId)} · ${ops.codePointLength(text)} chars · ${resultLocator({ seq: event.seq, ...(block !== undefined ? { block } : {}) }, text)}]`;
  });
}

/**
 * The page of one turn. `full` (default): the human's text, each assistant step's text, generated
 * context (runtime snapshots, notices), then every original record of the turn as one JSON line
 * each (tool calls, results with their metadata, nested dispatches). `dialogue`: the same texts,
 * each once, with every tool result as a locator line. Throws for a turn the log does not hold.
 */
export function renderTurn(events: readonly SessionEvent[], turn: number, view: RecallView, ops: TextOps): string {
  const ledger = new Ledger(events);
  if (!events.some((e) => e.type === SessionEventType.turnStart && (e.data as { turn: number }).turn === turn)) throw unknownTurn('recall_turn', turn, ledger);
  const users: string[] = [];
  const contexts: string[] = [];
  const assistant: string[] = [];
  const records: string[] = [];
  for (const event of events) {
    if (!isOriginal(event) || ledger.turnOf(event.seq) !== turn) continue;
    if (RECORD_TYPES.includes(event.type)) records.push(JSON.stringify({ seq: event.seq, type: event.type, data: event.data }));
    if (event.type === SessionEventType.userMessage) {
      const message = event.data as UserMessage;
      const text = textOf(message.content);
      if (text.trim() === '') continue;
      if (message.source.kind === 'user') users.push(text);
      else {
        const plugin = (message.source as { plugin?: unknown }).plugin;
        contexts.push(`[${typeof plugin === 'string' ? plugin : message.source.kind}]\n${text}`);
      }
    } else if (event.type === SessionEventType.assistantMessage) {
      const data = event.data as { step: number; message: { content: readonly ContentBlock[] } };
      const text = textOf(data.message.content);
      if (text.trim() !== '') assistant.push(`[step ${data.step}]`, text);
    } else if (event.type === SessionEventType.toolResult && view === 'dialogue') {
      assistant.push(...resultLines(event, ledger, ops));
    }
  }
  const frame = view === 'dialogue'
    ? `view dialogue · each text once, tool results as locators; full records: ${turnLocator(turn, 'full')}`
    : 'view full · texts, then every original record of the turn';
  const lines = [
    `[recall_turn slice-turn-${turn} · status ${status(ledger, turn)} · ${frame} · historical record: what was said and done then, not current state]`,
    '## User', users.length > 0 ? users.join('\n\n') : '(no user text recorded in this turn)',
    '## Assistant', ...(assistant.length > 0 ? assistant : ['(no assistant text recorded in this turn)']),
  ];
  if (contexts.length > 0) lines.push('## Generated context', ...contexts);
  if (view === 'full') lines.push('## Records', ...records);
  return lines.join('\n');
}

/**
 * One step's recorded calls and results (ST-30). Spilled results are restored from the store; when
 * that is impossible the part is labelled a preview, with why and the exact `expand_result` locator.
 */
export async function renderStep(events: readonly SessionEvent[], turn: number, step: number, store: SpillStore | undefined, signal?: AbortSignal): Promise<string> {
  const ledger = new Ledger(events);
  const calls = [...ledger.calls.values()].filter((c) => c.turn === turn && c.step === step);
  const nested = ledger.dispatches.filter((d) => d.turn === turn && d.step === step);
  const results = ledger.stepResults(turn, step);
  if (calls.length === 0 && results.length === 0) {
    if (!events.some((e) => e.type === SessionEventType.turnStart && (e.data as { turn: number }).turn === turn)) throw unknownTurn('recall_step', turn, ledger);
    throw new Error(`recall_step: no recorded tool calls for turn ${turn} step ${step}`);
  }
  const body: string[] = [];
  let previews = 0;
  for (const event of results) {
    const blocks = resultBlocks(event);
    for (const [i, block] of blocks.entries()) {
      const locator = seqLocator(event.seq, blocks.length > 1 ? i + 1 : undefined);
      body.push(`[${block.isError === true ? 'error result' : 'result'} · ${ledger.toolName(block.toolCallId)} · seq ${event.seq} · ${locator}]`);
      for (const part of await restoreParts(block.content, store, signal)) {
        if (part.preview !== undefined) {
          previews++;
          body.push(`[preview, NOT the full output: ${part.preview.notice.omittedBytes} more bytes are stored at ${part.preview.notice.locator} and ${part.preview.reason}; full text: ${locator}]`);
        }
        body.push(part.text);
      }
    }
  }
  const kind = previews > 0 ? `logged tool record; ${previews} result part(s) below are previews` : 'verbatim tool record';
  return [
    `[recall_step turn ${turn} step ${step} · ${calls.length} call(s) · ${kind} · what was executed then, not current state]`,
    '## Calls', ...(calls.length > 0 ? calls.map((c) => `→ ${c.name}(${c.arguments})`) : ['(no calls recorded)']),
    ...(nested.length > 0 ? ['## Calls made from code (code log; model visibility not implied)', ...nested.map((d) => `→ ${d.name}(${typeof d.arguments === 'string' ? d.arguments : JSON.stringify(d.arguments ?? {})})${d.isError ? ' failed' : ''} · dispatch seq ${d.seq}`)] : []),
    '## Results', ...(body.length > 0 ? body : ['(no results recorded)']),
  ].join('\n');
}
