// Tool-result folding, minimum contract (spec ST-11): before a model request, a large result that
// the model has not been sent yet is replaced on the surface by a condensed view whose first line
// names the exact expand_result locator; the original stays in the log, verbatim. Content routing
// heuristics are out of scope (NG-ST-5): the view is a head and a tail.

import { utf8Length } from '../../engine/index.js';
import type { ContentBlock } from '../../host/message.js';
import { SessionEventType } from '../../host/names.js';
import type { Session, SessionEvent } from '../../host/session.js';
import type { FoldConfig } from './config.js';
import { isOriginal, Ledger, resultBlocks, textOf, type ToolResultBlock, type ToolResultData } from './ledger.js';
import { resultLocator } from './pages.js';
import { parseOrdinal } from './recall.js';
import { excerpt } from './render.js';
import { RECALL_TOOLS } from './search.js';
import type { TextOps } from './text.js';

/** Code points of the original a condensed view keeps before and after the cut. */
export const FOLD_HEAD = 1200;
export const FOLD_TAIL = 600;

/** One planned fold: the original result and the data of its replacement. */
export interface PlannedFold {
  readonly seq: number;
  readonly data: ToolResultData;
}

/**
 * The first line of a condensed view: where it was and the exact call(s) that return it in full (one
 * per page for a result over one page, so all come back in one step: issue 30).
 */
export function foldHeader(turn: number, step: number, call: number, chars: number, locator: string): string {
  return `[condensed tool result · turn ${turn} step ${step} call ${call} · ${chars} chars · full text: ${locator}]`;
}

/** Resource identity for backoff: the tool and its path, or its whole arguments when it has none. */
function scopeOf(ledger: Ledger, callId: string): string {
  const call = ledger.calls.get(callId);
  let args: Record<string, unknown> = {};
  try {
    args = JSON.parse(call?.arguments ?? '{}') as Record<string, unknown>;
  } catch {
    // Unparseable arguments: the raw text is the identity.
    return JSON.stringify([call?.name ?? 'tool', call?.arguments ?? '']);
  }
  const path = args?.file_path ?? args?.path;
  return JSON.stringify([call?.name ?? 'tool', typeof path === 'string' ? path : call?.arguments ?? '']);
}

/**
 * The condensed view of one result block of the original `tool/result` at `seq`, exactly as a fold
 * renders it: the locator line, then the head and tail of the text; other blocks kept after it.
 */
function condensed(ledger: Ledger, original: SessionEvent, block: ToolResultBlock, ops: TextOps): ContentBlock[] {
  const data = original.data as ToolResultData;
  const text = textOf(block.content);
  const call = ledger.stepResults(data.turn, data.step).findIndex((e) => e.seq === original.seq) + 1;
  const blocks = resultBlocks(original);
  const index = blocks.indexOf(block);
  const locator = resultLocator({ seq: original.seq, ...(blocks.length > 1 ? { block: index + 1 } : {}) }, text);
  const view = `${foldHeader(data.turn, data.step, call, ops.codePointLength(text), locator)}\n${excerpt(ops, text, 0, FOLD_HEAD, FOLD_TAIL, (k) => `…[+${k} chars]…`)}`;
  return [{ type: 'text', text: view }, ...block.content.filter((b) => b.type !== 'text')];
}

/**
 * Whether some replacement of the original result at `seq` is one of our folds. DSH allows a rewrite
 * of a tool result to change only its content, and other plugins rewrite results in place too (DSH's
 * own `dsh-compaction-tool-result-pruner` cuts any long one to a head and a tail), so a fold is known
 * by its exact content: each block the original's, or our condensed view of it, at least one condensed.
 */
function isFolded(ledger: Ledger, seq: number, ops: TextOps): boolean {
  const original = ledger.events[seq];
  if (original === undefined || original.type !== SessionEventType.toolResult || !isOriginal(original)) return false;
  const before = resultBlocks(original);
  return ledger.events.some((e) => {
    if (e.type !== SessionEventType.toolResult || isOriginal(e) || e.sourceEventSeqs?.length !== 1 || e.sourceEventSeqs[0] !== seq) return false;
    const after = resultBlocks(e);
    if (after.length !== before.length) return false;
    let folded = false;
    for (const [i, block] of before.entries()) {
      const content = JSON.stringify(after[i]!.content);
      if (content === JSON.stringify(block.content)) continue;
      if (content !== JSON.stringify(condensed(ledger, original, block, ops))) return false;
      folded = true;
    }
    return folded;
  });
}

/**
 * Scopes whose folded results the model fully expanded at least `after` times (distinct results):
 * folding them again would only cost another expansion (`backoffAfterExpansions`). Partial
 * expansions (a valid `grep` or `lines`), failed ones, and expansions of results someone else
 * rewrote do not count.
 */
function backedOff(ledger: Ledger, after: number, ops: TextOps): Set<string> {
  const expanded = new Map<string, Set<number>>();
  for (const event of ledger.events) {
    if (event.type !== SessionEventType.toolResult || !isOriginal(event)) continue;
    for (const block of resultBlocks(event)) {
      const call = ledger.calls.get(block.toolCallId);
      if (call?.name !== 'expand_result' || block.isError === true) continue;
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(call.arguments) as Record<string, unknown>;
      } catch {
        continue;
      }
      if ((typeof args.grep === 'string' && args.grep !== '') || (typeof args.lines === 'string' && /^\s*\d+\s*-\s*\d+\s*$/.test(args.lines))) continue;
      const seq = parseOrdinal(args.seq) ?? (args.seq === 0 ? 0 : undefined);
      const target = seq !== undefined
        ? ledger.originalResult(seq)
        : ledger.stepResults(parseOrdinal(args.turn) ?? 0, parseOrdinal(args.step) ?? 0)[(parseOrdinal(args.call) ?? 1) - 1];
      if (target === undefined || !isFolded(ledger, target.seq, ops)) continue;
      const scope = scopeOf(ledger, resultBlocks(target)[0]?.toolCallId ?? '');
      const set = expanded.get(scope) ?? new Set<number>();
      set.add(target.seq);
      expanded.set(scope, set);
    }
  }
  return new Set([...expanded].filter(([, seqs]) => seqs.size >= after).map(([scope]) => scope));
}

/**
 * The folds to apply now: original tool results on the surface that no request has carried yet
 * (logged after the last assistant message), at least `spillPreviewMinBytes` UTF-8 bytes of text,
 * not pinned (`step <= pinSteps` and fewer than `pinMaxChars` code points), not from a recall tool
 * (retrieved originals are never folded again), and not of a backed-off resource.
 */
export function planFolds(session: Session, fold: FoldConfig, ops: TextOps): PlannedFold[] {
  if (!fold.enabled || fold.spillPreviewMinBytes === 0) return [];
  const events = session.events;
  let lastRequest = -1;
  for (const e of events) if (e.type === SessionEventType.assistantMessage) lastRequest = e.seq;
  const fresh = session.surface.nodes.filter((seq) => seq > lastRequest && events[seq]!.type === SessionEventType.toolResult && isOriginal(events[seq]!));
  if (fresh.length === 0) return [];
  const ledger = new Ledger(events);
  const off = backedOff(ledger, fold.backoffAfterExpansions, ops);
  const plans: PlannedFold[] = [];
  for (const seq of fresh) {
    const event = events[seq]!;
    const data = event.data as ToolResultData;
    let changed = false;
    const content = data.message.content.map((block): ContentBlock => {
      if (block.type !== 'tool-result') return block;
      const name = ledger.toolName(block.toolCallId);
      const text = textOf(block.content);
      const chars = ops.codePointLength(text);
      if (RECALL_TOOLS.includes(name) || utf8Length(text) < fold.spillPreviewMinBytes) return block;
      if (data.step <= fold.pinSteps && chars < fold.pinMaxChars) return block;
      if (off.has(scopeOf(ledger, block.toolCallId))) return block;
      changed = true;
      return { ...block, content: condensed(ledger, event, block, ops) };
    });
    if (!changed) continue;
    plans.push({ seq, data: { ...data, message: { ...data.message, content } as ToolResultData['message'] } });
  }
  return plans;
}

/**
 * Appends each fold as a `tool/result` replacing its original node in place (start = end = its
 * seq): the same message id, turn, step and meta, only the result's content condensed (contract
 * correction 3).
 */
export function applyFolds(session: Session, plans: readonly PlannedFold[]): SessionEvent[] {
  return plans.map((plan) => session.append(SessionEventType.toolResult, plan.data, { surfaceOp: { op: 'replace', start: plan.seq, end: plan.seq }, sourceEventSeqs: [plan.seq] }));
}
