// Reading the durable session log (spec ST-14, ST-35): which turn owns each record, which tool each
// call id names, the original tool/result behind a replacement, and the nested Code Mode dispatch
// records of both log formats. Sealing, the read index and every recall tool read the log through
// these helpers, so their turn attribution and locators always agree.

import type { ContentBlock, Message, UserMessage } from '../../host/message.js';
import { SessionEventType, SourceKind } from '../../host/names.js';
import type { SessionEvent } from '../../host/session.js';

export type ToolResultBlock = Extract<ContentBlock, { type: 'tool-result' }>;

/** `tool/result` data. */
export interface ToolResultData {
  readonly turn: number;
  readonly step: number;
  readonly message: { readonly content: readonly ContentBlock[]; readonly source?: { readonly callId?: string } };
  readonly error?: unknown;
  readonly meta?: unknown;
}

/** One tool call as the log records it. */
export interface LoggedCall {
  readonly callId: string;
  readonly name: string;
  /** The model's JSON text. */
  readonly arguments: string;
  readonly turn: number;
  readonly step: number;
}

/** A nested call made from code (Code Mode), logged but never itself on the surface. */
export interface DispatchRecord {
  /** Seq of the record that holds the result (rc.8's `tool/code-dispatch`, or format 3's `tool/ptc-dispatch`). */
  readonly seq: number;
  readonly turn: number;
  readonly step: number;
  /** The outer call that ran the code. */
  readonly rootCallId: string;
  readonly name: string;
  readonly arguments: unknown;
  readonly isError: boolean;
  readonly content: readonly ContentBlock[];
}

/** Whether the event is an original append (not a replacement shadowing other nodes). */
export function isOriginal(event: SessionEvent): boolean {
  return event.surfaceOp === undefined || event.surfaceOp === 'append';
}

/** Concatenated text blocks (other blocks contribute nothing). */
export function textOf(content: readonly ContentBlock[]): string {
  let text = '';
  for (const block of content) if (block.type === 'text') text += block.text;
  return text;
}

/** Arguments that say what a call is about, in the order one is chosen. */
const SUBJECT_ARGUMENTS = ['file_path', 'path', 'filePath', 'pattern', 'command', 'query', 'url'];

/**
 * What a call was about, for the tape line that locates its result (issue 30): the path, pattern,
 * command, query or URL it was given (a grep's pattern and path both), so a model can tell two calls
 * of one turn apart; undefined when the arguments name none.
 * @param name - the tool.
 * @param argsJson - the call's arguments as the model wrote them.
 * @returns the subject text, untrusted and uncut.
 */
export function callSubject(name: string, argsJson: string | undefined): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(argsJson ?? '');
  } catch {
    return undefined;
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const a = args as Record<string, unknown>;
  if (name === 'grep' && typeof a.pattern === 'string') return typeof a.path === 'string' ? `${a.pattern} in ${a.path}` : a.pattern;
  const key = SUBJECT_ARGUMENTS.find((k) => typeof a[k] === 'string' && a[k] !== '');
  return key === undefined ? undefined : (a[key] as string);
}

/** The message a surface event projects. */
export function messageOf(event: SessionEvent): Message | undefined {
  if (event.type === SessionEventType.userMessage) return event.data as Message;
  if (event.type === SessionEventType.assistantMessage || event.type === SessionEventType.toolResult) return (event.data as { message: Message }).message;
  return undefined;
}

/** The tool-result blocks of a `tool/result` event. */
export function resultBlocks(event: SessionEvent): ToolResultBlock[] {
  return (event.data as ToolResultData).message.content.filter((b): b is ToolResultBlock => b.type === 'tool-result');
}

/**
 * The log read once: per-seq turn attribution and the call index. `turnOf(seq)` is the turn open
 * when the record was appended, except that turn-carrying records (assistant messages, tool results)
 * use their own `turn`, and a user-role message appended with no turn open belongs to the turn that
 * just ended when a plugin produced it (ST-35), to no turn (0) otherwise.
 */
export class Ledger {
  readonly #turns: number[] = [];
  readonly calls = new Map<string, LoggedCall>();
  readonly dispatches: DispatchRecord[] = [];
  /** Turns with a `turn/end`, ascending. */
  readonly completed: number[] = [];
  /** Seq of the last `turn/end`, -1 before any. */
  readonly lastEndSeq: number;
  /** The turn open at the end of the log, 0 when none. */
  readonly openTurn: number;

  constructor(readonly events: readonly SessionEvent[]) {
    let open = 0;
    let ended = 0;
    let lastEnd = -1;
    for (const event of events) {
      const data = event.data as Record<string, unknown>;
      if (event.type === SessionEventType.turnStart) open = data.turn as number;
      this.#turns[event.seq] = this.#attribute(event, open, ended);
      if (event.type === SessionEventType.turnEnd) {
        ended = data.turn as number;
        lastEnd = event.seq;
        if (!this.completed.includes(ended)) this.completed.push(ended);
        if (open === ended) open = 0;
      } else if (event.type === SessionEventType.toolCall) {
        this.#noteCall(data.callId as string, data.name as string, data.arguments as string, data.turn as number, data.step as number);
      } else if (event.type === SessionEventType.assistantMessage && isOriginal(event)) {
        for (const block of (data.message as Message).content) {
          if (block.type === 'tool-call' && !this.calls.has(block.id)) this.#noteCall(block.id, block.name, block.arguments, data.turn as number, data.step as number);
        }
      } else if (event.type === SessionEventType.toolCodeDispatch || event.type === SessionEventType.toolPtcDispatch) {
        this.#noteDispatch(event);
      }
    }
    this.completed.sort((a, b) => a - b);
    this.lastEndSeq = lastEnd;
    this.openTurn = open;
  }

  /** The turn that owns the record at `seq` (0 = none). */
  turnOf(seq: number): number {
    return this.#turns[seq] ?? 0;
  }

  /** The tool a call id names, `tool` when the log does not say. */
  toolName(callId: string): string {
    return this.calls.get(callId)?.name ?? 'tool';
  }

  /**
   * The original `tool/result` append behind `seq`: the event itself, or, for a replacement (a fold),
   * the first event it shadows, followed until an original. Undefined when `seq` is no tool result.
   */
  originalResult(seq: number): SessionEvent | undefined {
    const seen = new Set<number>();
    for (let at = seq; ;) {
      const event = this.events[at];
      if (event === undefined || event.type !== SessionEventType.toolResult) return undefined;
      if (isOriginal(event)) return event;
      const next = event.sourceEventSeqs?.[0];
      if (next === undefined || seen.has(next)) return undefined;
      seen.add(at);
      at = next;
    }
  }

  /** The original `tool/result` events of one turn and step, in log order (the `call` ordinals). */
  stepResults(turn: number, step: number): SessionEvent[] {
    return this.events.filter((e) => e.type === SessionEventType.toolResult && isOriginal(e) && (e.data as ToolResultData).turn === turn && (e.data as ToolResultData).step === step);
  }

  #attribute(event: SessionEvent, open: number, ended: number): number {
    const data = event.data as { turn?: unknown; source?: { kind?: unknown } };
    if (event.type === SessionEventType.userMessage) {
      if (open !== 0) return open;
      return (data as UserMessage).source?.kind === SourceKind.plugin ? ended : 0;
    }
    return typeof data?.turn === 'number' ? data.turn : open;
  }

  #noteCall(callId: string, name: string, args: string, turn: number, step: number): void {
    this.calls.set(callId, { callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}), turn, step });
  }

  #noteDispatch(event: SessionEvent): void {
    const data = event.data as Record<string, unknown>;
    // Both record types name the outer call as `rootCallId` and carry the call's own arguments. rc.8's
    // `tool/code-dispatch` has no turn or step: they are the outer call's (logged before it).
    const rootCallId = data.rootCallId as string;
    const root = this.calls.get(rootCallId);
    this.dispatches.push({
      seq: event.seq,
      turn: typeof data.turn === 'number' ? data.turn : (root?.turn ?? 0),
      step: typeof data.step === 'number' ? data.step : (root?.step ?? 0),
      rootCallId,
      name: data.name as string,
      arguments: data.arguments,
      isError: data.isError === true,
      content: (data.content as ContentBlock[] | undefined) ?? [],
    });
  }
}
