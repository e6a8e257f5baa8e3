// The durable session log of the offline host (contract §5, §12.2): append-only, `seq == index`,
// deep-frozen lossless-JSON events, the visible surface maintained by `append` and `replace`
// operations, and a hook that publishes every append (the host turns it into `session/event`).

import { assertLosslessJson, deepFreeze, type Message, type UserMessage } from '../host/message.js';
import { SessionEventType } from '../host/names.js';
import type { Session, SessionEvent, SessionHeader, SessionSurface, SurfaceOp } from '../host/session.js';

/** Event types that may carry a `surfaceOp`. */
export const SURFACE_EVENT_TYPES: readonly string[] = [SessionEventType.userMessage, SessionEventType.assistantMessage, SessionEventType.toolResult];

export interface OfflineSessionOptions {
  readonly header: SessionHeader;
  /** Events of a persisted log (resume): replayed into the surface, never re-published. */
  readonly seed?: readonly SessionEvent[];
  /** Timestamps; the host passes a deterministic clock. */
  readonly clock: () => number;
  /** Called after every append, while re-entrant appends are refused. */
  readonly onAppend?: (session: OfflineSession, event: SessionEvent) => void;
}

/** A session as DSH's store-attached session behaves, minus persistence. */
export class OfflineSession implements Session {
  readonly header: SessionHeader;
  readonly firstLiveSeq: number;
  readonly #events: SessionEvent[] = [];
  readonly #nodes: number[] = [];
  #generation = 0;
  #snapshot: readonly SessionEvent[] | undefined;
  #publishing: number | undefined;
  readonly #clock: () => number;
  readonly #onAppend: OfflineSessionOptions['onAppend'];

  constructor(options: OfflineSessionOptions) {
    this.header = deepFreeze(structuredClone(options.header));
    this.#clock = options.clock;
    this.#onAppend = options.onAppend;
    for (const event of options.seed ?? []) {
      if (event.seq !== this.#events.length) throw new RangeError(`session seed: event seq ${event.seq} at index ${this.#events.length}`);
      // DSH replays a persisted log through the same surface checks as live appends.
      const shadowed = event.surfaceOp !== undefined ? this.#checkSurface(event.type, event.data, event.surfaceOp, event.sourceEventSeqs) : [];
      this.#events.push(deepFreeze(structuredClone(event)));
      if (event.surfaceOp !== undefined) this.#applySurface(event.seq, event.surfaceOp, shadowed);
    }
    this.firstLiveSeq = this.#events.length;
  }

  get id() {
    return this.header.id;
  }

  /** A frozen snapshot; `events[seq]` is that event. */
  get events(): readonly SessionEvent[] {
    this.#snapshot ??= Object.freeze(this.#events.slice());
    return this.#snapshot;
  }

  get seq(): number {
    return this.#events.length;
  }

  get surface(): SessionSurface {
    return Object.freeze({ nodes: Object.freeze(this.#nodes.slice()), replaceGeneration: this.#generation });
  }

  /**
   * Appends one event. Refuses: an append while another append is being published (DSH throws the
   * same way), data that is not lossless JSON, a `surfaceOp` (or `sourceEventSeqs`) on a non-surface
   * type, a surface type without one, a malformed `user/message`, and every surface operation DSH
   * refuses (see #checkSurface).
   */
  append(type: string, data: unknown, opts?: { surfaceOp: SurfaceOp; sourceEventSeqs?: readonly number[] }): SessionEvent {
    if (this.#publishing !== undefined) {
      throw new Error(`session ${this.id}: append of ${type} while event ${this.#publishing} is being published`);
    }
    if (typeof type !== 'string' || type === '') throw new TypeError('session.append: type must be a non-empty string');
    const onSurface = SURFACE_EVENT_TYPES.includes(type);
    if (!onSurface && opts?.surfaceOp !== undefined) throw new Error(`session event "${type}" is not surface-eligible and cannot carry surfaceOp`);
    if (!onSurface && opts?.sourceEventSeqs !== undefined) throw new Error(`session event "${type}" is not surface-eligible and cannot carry sourceEventSeqs`);
    if (onSurface && opts?.surfaceOp === undefined) throw new Error(`session event "${type}" is surface-eligible and requires a surfaceOp marker`);
    if (type === SessionEventType.userMessage) assertUserMessage(data, 'session.append user/message');
    assertLosslessJson(data, `session.append ${type} data`);
    const shadowed = opts?.surfaceOp !== undefined ? this.#checkSurface(type, data, opts.surfaceOp, opts.sourceEventSeqs) : [];
    const event: SessionEvent = deepFreeze({
      type,
      seq: this.#events.length,
      time: this.#clock(),
      data: structuredClone(data),
      ...(opts?.surfaceOp !== undefined ? { surfaceOp: structuredClone(opts.surfaceOp) } : {}),
      ...(opts?.sourceEventSeqs !== undefined ? { sourceEventSeqs: opts.sourceEventSeqs.slice() } : {}),
    });
    this.#events.push(event);
    this.#snapshot = undefined;
    if (event.surfaceOp !== undefined) this.#applySurface(event.seq, event.surfaceOp, shadowed);
    this.#publishing = event.seq;
    try {
      this.#onAppend?.(this, event);
    } finally {
      this.#publishing = undefined;
    }
    return event;
  }

  /** The model-visible history: each visible event's message, in surface order (an assistant message without content projects none, as in DSH). */
  deriveMessages(): Message[] {
    return this.#nodes.flatMap((seq) => {
      const event = this.#events[seq]!;
      if (event.type === SessionEventType.userMessage) return [event.data as Message];
      const { message } = event.data as { message: Message };
      return event.type === SessionEventType.assistantMessage && message.content.length === 0 ? [] : [message];
    });
  }

  /**
   * DSH's checks of a surface operation (contract corrections 2 and 3), in its words: a replace
   * names two seqs on the current surface, start not after end, and shadows that run inclusively;
   * `sourceEventSeqs` (earlier seqs, no duplicates, non-empty except on assistant messages) lists
   * every shadowed node; a `tool/result` replacement rewrites one `tool/result` and changes only
   * its content. Returns the shadowed seqs.
   */
  #checkSurface(type: string, data: unknown, op: SurfaceOp, sources: readonly number[] | undefined): number[] {
    const seq = this.#events.length;
    let shadowed: number[] = [];
    if (op !== 'append') {
      const isSeq = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
      if (op === null || typeof op !== 'object' || Object.keys(op).length !== 3 || op.op !== 'replace' || !isSeq(op.start) || !isSeq(op.end)) {
        throw new Error(`session event "${type}" carries an invalid replace surfaceOp`);
      }
      const startIdx = this.#nodes.indexOf(op.start);
      if (startIdx === -1) throw new Error(`surface replace: start seq ${op.start} not found in surface`);
      const endIdx = this.#nodes.indexOf(op.end);
      if (endIdx === -1) throw new Error(`surface replace: end seq ${op.end} not found in surface`);
      if (startIdx > endIdx) throw new Error(`surface replace: start seq ${op.start} (index ${startIdx}) is after end seq ${op.end} (index ${endIdx})`);
      shadowed = this.#nodes.slice(startIdx, endIdx + 1);
    }
    if (sources !== undefined) {
      if (!Array.isArray(sources)) throw new Error(`sourceEventSeqs on event at seq ${seq} must be an array when present`);
      if (sources.length === 0 && type !== SessionEventType.assistantMessage) throw new Error('sourceEventSeqs must not be empty except on assistant/message');
      if (!sources.every((s) => typeof s === 'number' && Number.isSafeInteger(s) && s >= 0)) throw new Error(`session event "${type}" sourceEventSeqs must densely contain non-negative safe integers`);
      if (new Set(sources).size !== sources.length) throw new Error('sourceEventSeqs must not contain duplicates');
      const later = sources.find((s) => s >= seq);
      if (later !== undefined) throw new Error(`sourceEventSeqs must reference earlier events: ${later} >= current seq ${seq}`);
    }
    const missing = shadowed.filter((s) => !(sources ?? []).includes(s));
    if (missing.length > 0) throw new Error(`surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`);
    if (op !== 'append' && type === SessionEventType.toolResult) {
      if (shadowed.length !== 1) throw new Error('tool/result surface replacement must rewrite exactly one current node');
      const original = this.#events[shadowed[0]!]!;
      if (original.type !== SessionEventType.toolResult) throw new Error('tool/result surface replacement must target a current tool/result');
      if (JSON.stringify(withoutResultContent(original.data)) !== JSON.stringify(withoutResultContent(data))) throw new Error('tool/result surface replacement may change only content');
    }
    return shadowed;
  }

  #applySurface(seq: number, op: SurfaceOp, shadowed: readonly number[]): void {
    if (op === 'append') {
      this.#nodes.push(seq);
      return;
    }
    // A replacement takes the position of the run it shadows (start and end seqs included).
    this.#nodes.splice(this.#nodes.indexOf(shadowed[0]!), shadowed.length, seq);
    this.#generation++;
  }
}

/** A tool/result's data with its first result block's content blanked: what a rewrite must keep. */
function withoutResultContent(data: unknown): unknown {
  const d = data as { message: { content: Record<string, unknown>[] } };
  const [first, ...rest] = d.message.content;
  return canonical({ ...d, message: { ...d.message, content: [{ ...first, content: null }, ...rest] } });
}

/** A JSON value with object keys sorted, so that equal data compares equal whatever its key order (DSH compares structurally). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
}

/** Throws a TypeError unless `value` has the shape DSH's session validates for user messages. */
export function assertUserMessage(value: unknown, where: string): asserts value is UserMessage {
  const m = value as Partial<UserMessage> | null;
  if (m === null || typeof m !== 'object') throw new TypeError(`${where}: not a message object`);
  if (typeof m.id !== 'string' || m.id === '') throw new TypeError(`${where}: id must be a non-empty string`);
  if (m.role !== 'user') throw new TypeError(`${where}: role must be 'user'`);
  if (!Array.isArray(m.content)) throw new TypeError(`${where}: content must be an array`);
  if (typeof m.source?.kind !== 'string' || m.source.kind === '') throw new TypeError(`${where}: source.kind must be a non-empty string`);
}
