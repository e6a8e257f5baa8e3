// Sealing (spec ST-13..ST-19): at the first step of a turn, completed turns beyond the raw tail
// become frozen `[slice tape v1 …]` user messages that replace their runs in place. The whole plan
// is decided before the first append; existing entries and everything before the last of them are
// never touched again, so that surface prefix keeps its bytes (ST-15, ST-37).

import type { Message, UserMessage } from '../../host/message.js';
import { RUNTIME_CONTEXT_PLUGIN, SessionEventType, SourceKind } from '../../host/names.js';
import type { Session, SessionEvent } from '../../host/session.js';
import { isPluginSource } from '../../host/visibility.js';
import type { HistoryConfig } from './config.js';
import { callSubject, isOriginal, Ledger, messageOf, resultBlocks, textOf } from './ledger.js';
import { readHistory, readsForResult, type FingerprintCache, type ReadHistory } from './reads.js';
import { resultLocator } from './pages.js';
import { hasEntryPrefix, renderEntry, type TurnItem } from './render.js';
import { RECALL_TOOLS } from './search.js';
import type { TextOps } from './text.js';

/** The `plugin` of an entry's source `{ kind: 'plugin', plugin: 'slice:history' }` (ST-14). */
export const HISTORY_PLUGIN = 'slice:history';
export const WARN_PREFIX = 'slice tape:';

/** One planned replacement: the entry text and the surface nodes (seqs, in order) it shadows. */
export interface PlannedEntry {
  readonly text: string;
  readonly seqs: readonly number[];
}

interface Node {
  readonly seq: number;
  readonly event: SessionEvent;
  readonly message: Message | undefined;
  readonly turn: number;
  readonly entry: boolean;
  protected: boolean;
  superseded: boolean;
}

/** Whether a surface event is a tape entry: ours by source, or a replacement whose text has a tape prefix (ST-19). */
export function isEntry(event: SessionEvent): boolean {
  if (event.type !== SessionEventType.userMessage) return false;
  const message = event.data as UserMessage;
  if (isPluginSource(message.source, HISTORY_PLUGIN)) return true;
  return !isOriginal(event) && hasEntryPrefix(textOf(message.content));
}

function isSnapshot(event: SessionEvent): boolean {
  return event.type === SessionEventType.userMessage && isPluginSource((event.data as UserMessage).source, RUNTIME_CONTEXT_PLUGIN);
}

/** The human's own text message, appended as is: the only user/message that may be sealed. */
function isOwnUserText(event: SessionEvent): boolean {
  const message = event.data as UserMessage;
  return isOriginal(event) && message.source.kind === SourceKind.user && message.content.every((b) => b.type === 'text');
}

/**
 * The surface with each node's protection (ST-16): non-message nodes (system messages), the open
 * turn and current input, instruction/plugin and multimodal user messages, turn 1's user message when
 * pinned, the live runtime snapshot, and everything up to the last existing entry (ST-15).
 */
function inspect(session: Session, ledger: Ledger, pending: readonly Message[], pinFirstTurn: boolean): Node[] {
  const surface = session.surface.nodes;
  // The live snapshot: one the pending decision is about to append supersedes every snapshot on the
  // surface; otherwise the newest one on the surface is live.
  let live: number | undefined;
  if (!pending.some((m) => isPluginSource(m.source, RUNTIME_CONTEXT_PLUGIN))) {
    for (let i = surface.length - 1; i >= 0 && live === undefined; i--) if (isSnapshot(session.events[surface[i]!]!)) live = surface[i];
  }
  let pinned = false;
  const nodes: Node[] = surface.map((seq) => {
    const event = session.events[seq]!;
    const turn = ledger.turnOf(seq);
    const entry = isEntry(event);
    let guarded = seq > ledger.lastEndSeq || turn < 1;
    let superseded = false;
    if (messageOf(event) === undefined) guarded = true;
    else if (entry) guarded = true;
    else if (isSnapshot(event)) {
      guarded = guarded || seq === live;
      superseded = !guarded;
    } else if (event.type === SessionEventType.userMessage) {
      if (!isOwnUserText(event)) guarded = true;
      else if (pinFirstTurn && !pinned && turn === 1) {
        pinned = true;
        guarded = true;
      }
    }
    return { seq, event, message: messageOf(event), turn, entry, protected: guarded, superseded };
  });
  let lastEntry = -1;
  nodes.forEach((node, i) => {
    if (node.entry) lastEntry = i;
  });
  for (let i = 0; i <= lastEntry; i++) {
    nodes[i]!.protected = true;
    nodes[i]!.superseded = false;
  }
  return nodes;
}

/** Call ids without their partner within `nodes` (a call without a result, or a result without its call). */
function unpaired(nodes: readonly Node[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const node of nodes) {
    for (const block of node.message?.content ?? []) {
      if (block.type === 'tool-call') calls.add(block.id);
      if (block.type === 'tool-result') results.add(block.toolCallId);
    }
  }
  return [...new Set([...calls, ...results])].filter((id) => !calls.has(id) || !results.has(id)).sort();
}

/** What one plan needs besides the session. */
export interface SealOptions {
  readonly history: HistoryConfig;
  readonly ops: TextOps;
  /** Receives each `slice tape:` warning. */
  readonly warn: (message: string) => void;
  /** Segments already warned about in this Session instance (ST-18: once per segment). */
  readonly warned: Set<number>;
  /** Read fingerprints of this session computed by earlier seals. */
  readonly fingerprints?: FingerprintCache;
}

/**
 * The entries to append at this first step, in surface order. Runs are maximal stretches of sealable
 * nodes of completed turns beyond `keepRecentTurns`; a turn segment whose tool calls and results are
 * not all paired stays raw and cuts its run. Nothing is appended here.
 */
export function planSeal(session: Session, pending: readonly Message[], options: SealOptions): PlannedEntry[] {
  const ledger = new Ledger(session.events);
  if (ledger.completed.length === 0) return [];
  const nodes = inspect(session, ledger, pending, options.history.pinFirstTurn);
  const sealBefore = ledger.completed.at(-1)! - options.history.keepRecentTurns + 1;
  const runs: Node[][] = [];
  let current: Node[] = [];
  const flush = (): void => {
    let kept: Node[] = [];
    for (let i = 0; i < current.length;) {
      let j = i + 1;
      while (j < current.length && current[j]!.turn === current[i]!.turn) j++;
      const segment = current.slice(i, j);
      const open = unpaired(segment);
      if (open.length === 0) kept.push(...segment);
      else {
        const first = segment[0]!.seq;
        if (!options.warned.has(first)) {
          options.warned.add(first);
          options.warn(`${WARN_PREFIX} turn ${segment[0]!.turn} (seq ${first}..${segment.at(-1)!.seq}) kept raw and cut the sealed span: unpaired tool call/result ${open.join(', ')}`);
        }
        if (kept.length > 0) runs.push(kept);
        kept = [];
      }
      i = j;
    }
    if (kept.length > 0) runs.push(kept);
    current = [];
  };
  for (const node of nodes) {
    if (!node.protected && node.turn < sealBefore) current.push(node);
    else flush();
  }
  flush();
  if (runs.length === 0) return [];
  if (options.history.startAfterChars > 0 && !session.events.some(isEntry) && rawChars(runs, options.ops) < options.history.startAfterChars) return [];
  const history = readHistory(ledger, options.ops, options.fingerprints);
  return runs.map((run) => ({
    text: renderEntry(options.ops, collectItems(run, ledger, history, options.ops), history, options.history),
    seqs: run.map((n) => n.seq),
  }));
}

/** Code points of the text the runs show raw: user and assistant text, tool-call arguments, tool results. */
function rawChars(runs: readonly (readonly Node[])[], ops: TextOps): number {
  let chars = 0;
  for (const run of runs) {
    for (const node of run) {
      for (const block of node.message?.content ?? []) {
        if (block.type === 'text') chars += ops.codePointLength(block.text);
        else if (block.type === 'tool-call') chars += ops.codePointLength(block.arguments);
        else if (block.type === 'tool-result') chars += ops.codePointLength(textOf(block.content));
      }
    }
  }
  return chars;
}

/** Groups a run's nodes by turn into what the entry renders. */
function collectItems(run: readonly Node[], ledger: Ledger, history: ReadHistory, ops: TextOps): TurnItem[] {
  const items: TurnItem[] = [];
  let item: TurnItem | undefined;
  for (const node of run) {
    if (item === undefined || item.turn !== node.turn) {
      item = { turn: node.turn, users: [], snapshots: [], reply: '', tools: [], reads: [] };
      items.push(item);
    }
    const { event } = node;
    // A superseded snapshot is neither the human's request nor current truth: a note only (ST-17).
    if (node.superseded) item.snapshots.push(ledger.turnOf(node.seq));
    else if (event.type === SessionEventType.userMessage) item.users.push(textOf(node.message!.content));
    else if (event.type === SessionEventType.assistantMessage) {
      const text = textOf(node.message!.content);
      if (text !== '') item.reply = text;
    } else if (event.type === SessionEventType.toolResult) {
      // Point at the original append record: it holds the logged text (or the spill notice),
      // where a later replacement holds only a condensed view.
      const original = ledger.originalResult(node.seq) ?? event;
      const blocks = resultBlocks(original);
      const tools = item.tools;
      const reads = readsForResult(history, original);
      blocks.forEach((b, i) => {
        const name = ledger.toolName(b.toolCallId);
        // A recall's answer is a copy of history that has its own locator (ST-34 leaves it out of search too).
        if (RECALL_TOOLS.includes(name)) return;
        const text = textOf(b.content);
        const block = blocks.length > 1 ? i + 1 : undefined;
        const subject = callSubject(name, ledger.calls.get(b.toolCallId)?.arguments);
        const locator = resultLocator({ seq: original.seq, ...(block !== undefined ? { block } : {}) }, text);
        // A direct read's facts ride on its own line; the read index keeps the reads made from code.
        const read = reads.find((r) => r.block === i + 1);
        tools.push({
          seq: original.seq, ...(block !== undefined ? { block } : {}), name, ...(subject !== undefined ? { subject } : {}),
          size: ops.codePointLength(text), ...(locator.startsWith('expand_result(') ? {} : { pages: locator }), ...(read !== undefined ? { read } : {}),
        });
      });
      item.reads.push(...reads.filter((r) => r.block === undefined));
    }
  }
  return items;
}

/**
 * Appends each planned entry as a frozen `user/message` that replaces its nodes in place: the
 * replacement names the run by the seqs of its first and last node, both included, and lists every
 * node in `sourceEventSeqs` (DSH's surface rules, contract corrections 2).
 */
export function applySeal(session: Session, plan: readonly PlannedEntry[], newMessage: (text: string) => UserMessage): void {
  for (const entry of plan) {
    session.append(SessionEventType.userMessage, newMessage(entry.text), { surfaceOp: { op: 'replace', start: entry.seqs[0]!, end: entry.seqs.at(-1)! }, sourceEventSeqs: entry.seqs });
  }
}
