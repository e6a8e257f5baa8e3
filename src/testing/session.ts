// The durable session log of the simulated host (contract §5, §12.2): append-only, `seq == index`,
// deep-frozen lossless-JSON events, the visible surface maintained by `append` and `replace`
// operations, and a hook that publishes every append (the host turns it into `session/event`).

import { assertLosslessJson, deepFreeze, type Message, type UserMessage } from '../host/message.js';
import { SessionEventType } from '../host/names.js';
import type { Session, SessionEvent, SessionHeader, SessionSurface, SurfaceOp } from '../host/session.js';

/** Event types that may carry a `surfaceOp`. */
export const SURFACE_EVENT_TYPES: readonly string[] = [SessionEventType.userMessage, SessionEventType.assistantMessage, SessionEventType.toolResult];

export interface TestSessionOptions {
  readonly header: SessionHeader;
  /** Events of a persisted log (resume): replayed into the surface, never re-published. */
  readonly seed?: readonly SessionEvent[];
  /** Timestamps; the host passes a deterministic clock. */
  readonly clock: () => number;
  /** Called after every append, while re-entrant appends are refused. */
  readonly onAppend?: (session: TestSession, event: SessionEvent) => void;
}

/** A session as DSH's store-attached session behaves, minus persistence. */
export class TestSession implements Session {
  readonly header: SessionHeader;
  readonly firstLiveSeq: number;
  readonly #events: SessionEvent[] = [];
  readonly #nodes: number[] = [];
  #generation = 0;
  #snapshot: readonly SessionEvent[] | undefined;
  #publishing: number | undefined;
  readonly #clock: () => number;
  readonly #onAppend: TestSessionOptions['onAppend'];

  constructor(options: TestSessionOptions) {
    this.header = deepFreeze(structuredClone(options.header));
    this.#clock = options.clock;
    this.#onAppend = options.onAppend;
    for (const event of options.seed ?? []) {
      if (event.seq !== this.#events.length) throw new RangeError(`session seed: event seq ${event.seq} at index ${this.#events.length}`);
      this.#events.push(deepFreeze(structuredClone(event)));
      if (event.surfaceOp !== undefined) this.#applySurface(event.seq, event.surfaceOp);
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
   * same way), data that is not lossless JSON, a `surfaceOp` on a non-surface type, a surface type
   * without one, a malformed `user/message`, and a replace range outside the surface.
   */
  append(type: string, data: unknown, opts?: { surfaceOp: SurfaceOp; sourceEventSeqs?: readonly number[] }): SessionEvent {
    if (this.#publishing !== undefined) {
      throw new Error(`session ${this.id}: append of ${type} while event ${this.#publishing} is being published`);
    }
    if (typeof type !== 'string' || type === '') throw new TypeError('session.append: type must be a non-empty string');
    const onSurface = SURFACE_EVENT_TYPES.includes(type);
    if (opts?.surfaceOp !== undefined && !onSurface) throw new TypeError(`session.append: ${type} cannot carry a surfaceOp`);
    if (onSurface && opts?.surfaceOp === undefined) throw new TypeError(`session.append: ${type} needs a surfaceOp`);
    if (type === SessionEventType.userMessage) assertUserMessage(data, 'session.append user/message');
    assertLosslessJson(data, `session.append ${type} data`);
    if (opts?.surfaceOp !== undefined && opts.surfaceOp !== 'append') {
      const { start, end } = opts.surfaceOp;
      if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= this.#nodes.length)) {
        throw new RangeError(`session.append: replace ${start}..${end} is outside the surface of ${this.#nodes.length} nodes`);
      }
    }
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
    if (event.surfaceOp !== undefined) this.#applySurface(event.seq, event.surfaceOp);
    this.#publishing = event.seq;
    try {
      this.#onAppend?.(this, event);
    } finally {
      this.#publishing = undefined;
    }
    return event;
  }

  /** The model-visible history: each visible event's message, in surface order. */
  deriveMessages(): Message[] {
    return this.#nodes.map((seq) => {
      const event = this.#events[seq]!;
      return event.type === SessionEventType.userMessage ? (event.data as Message) : (event.data as { message: Message }).message;
    });
  }

  #applySurface(seq: number, op: SurfaceOp): void {
    if (op === 'append') {
      this.#nodes.push(seq);
      return;
    }
    // A replacement shadows nodes [start, end) and takes their position (end exclusive).
    this.#nodes.splice(op.start, op.end - op.start, seq);
    this.#generation++;
  }
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
