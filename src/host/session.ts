// Session shapes (contract §5): an append-only log whose `seq` equals the index, plus the visible
// surface, the list of seqs the model sees.

import type { Message, SessionId } from './message.js';

export interface SessionHeader {
  readonly version: number;
  readonly id: SessionId;
  readonly createdAt: number;
  /** The session working directory; absolute when present. */
  readonly cwd?: string;
  readonly parentSession?: SessionId;
  /** How many leading events came from a seed (fork); inbox replay starts after them. */
  readonly seedLength?: number;
  readonly origin?: 'subagent';
  readonly delegationDepth?: number;
  readonly agentPreset?: string;
}

/**
 * How a surface event changes the visible surface: `append` at the tail, or `replace` the run of
 * surface nodes from the node with seq `start` to the node with seq `end`, both included (event
 * seqs on the current surface, not positions; contract correction 2). The replacement takes the
 * run's position and must list every node it shadows in `sourceEventSeqs`; a `tool/result`
 * replacement rewrites exactly one `tool/result` and may change only its content (correction 3).
 */
export type SurfaceOp = 'append' | { readonly op: 'replace'; readonly start: number; readonly end: number };

export interface SessionEvent<T = unknown> {
  readonly type: string;
  /** Index in the log, contiguous from 0. */
  readonly seq: number;
  readonly time: number;
  readonly data: T;
  readonly ignorable?: true;
  readonly surfaceOp?: SurfaceOp;
  readonly sourceEventSeqs?: readonly number[];
}

export interface SessionSurface {
  /** Seqs of the visible `user/message`, `assistant/message` and `tool/result` events, in model order. */
  readonly nodes: readonly number[];
  readonly replaceGeneration: number;
}

export interface Session {
  readonly id: SessionId;
  readonly header: SessionHeader;
  readonly events: readonly SessionEvent[];
  /** The next seq, equal to `events.length`. */
  readonly seq: number;
  readonly firstLiveSeq: number;
  readonly surface: SessionSurface;
  append(type: string, data: unknown, opts?: { surfaceOp: SurfaceOp; sourceEventSeqs?: readonly number[] }): SessionEvent;
  /** The model-visible history: surface nodes projected to messages. */
  deriveMessages(): Message[];
}

/** `turn/end` reasons. */
export type TurnEndReason =
  | { readonly kind: 'completed' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'blocked' }
  | { readonly kind: 'error'; readonly message?: string }
  | { readonly kind: 'max-tokens' }
  | { readonly kind: 'interrupted' };
