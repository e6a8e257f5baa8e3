// Source and visibility helpers (spec ). Plugins keep durable state only in `source`
// objects of user messages, and trust that state only while its message is on the visible surface:
// compaction or a replacement hides it, and hidden context must not suppress anything.

import type { Message, MessageSource, UserMessage } from './message.js';
import { FILE_TOOL_NAMES, SessionEventType, SourceKind } from './names.js';
import type { Session, SessionEvent } from './session.js';
import type { ToolExecution, ToolExecutionResult } from './tools.js';

/** A visible `user/message` with the seq of its event. */
export interface VisibleUserMessage {
  readonly seq: number;
  readonly message: UserMessage;
}

/** Whether the event at `seq` is on the session's current visible surface. */
export function isVisible(session: Pick<Session, 'surface'>, seq: number): boolean {
  return session.surface.nodes.includes(seq);
}

/** The visible surface events in model order. */
export function visibleEvents(session: Pick<Session, 'surface' | 'events'>): SessionEvent[] {
  return session.surface.nodes.map((seq) => session.events[seq]!);
}

/**
 * The visible `user/message` events in model order, optionally only those whose `source.kind` is one
 * of `kinds` (e.g. `['agent-instructions', 'workspace-instructions']`).
 */
export function visibleUserMessages(session: Pick<Session, 'surface' | 'events'>, kinds?: readonly string[]): VisibleUserMessage[] {
  const found: VisibleUserMessage[] = [];
  for (const event of visibleEvents(session)) {
    if (event.type !== SessionEventType.userMessage) continue;
    const message = event.data as UserMessage;
    if (kinds === undefined || hasSourceKind(message, kinds)) found.push({ seq: event.seq, message });
  }
  return found;
}

/** Whether `message.source.kind` is one of `kinds`. */
export function hasSourceKind(message: Pick<Message, 'source'>, kinds: readonly string[]): boolean {
  return kinds.includes(message.source.kind);
}

/** Whether a source is `{ kind: 'plugin', plugin }`, the shape for plugin context without a kind of its own. */
export function isPluginSource(source: MessageSource, plugin: string): boolean {
  return source.kind === SourceKind.plugin && (source as { plugin?: unknown }).plugin === plugin;
}

/**
 * Whether a step is open in the log: the last `step/start` has no `step/end` or `turn/end` after it.
 * While one is, `tools/result` listeners see calls of the running step and should wait for the
 * durable `step/end` before they act (contract §6).
 */
export function isStepOpen(session: Pick<Session, 'events'>): boolean {
  for (let i = session.events.length - 1; i >= 0; i--) {
    const type = session.events[i]!.type;
    if (type === SessionEventType.stepStart) return true;
    if (type === SessionEventType.stepEnd || type === SessionEventType.turnEnd) return false;
  }
  return false;
}

/**
 * The file a finished execution touched, for plugins that react to file touches (WC-38, AM-34):
 * the trimmed `file_path` of a successful, agent-bound, non-aborted first-party `read`, `write` or
 * `edit`; `undefined` for anything else (other tools such as `bash`, failures, blank paths).
 */
export function fileTouchPath(exec: ToolExecution, result: ToolExecutionResult): string | undefined {
  if (result.isError || exec.agent === undefined || exec.signal.aborted) return undefined;
  if (!FILE_TOOL_NAMES.includes(exec.name)) return undefined;
  const args = exec.arguments;
  if (args === null || typeof args !== 'object') return undefined;
  const path = (args as { file_path?: unknown }).file_path;
  if (typeof path !== 'string' || path.trim() === '') return undefined;
  return path.trim();
}
