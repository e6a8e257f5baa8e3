// The session bill (issue 30; /work/shared/ref/context-cost.md): what a DeepSeek user pays for the
// prompts of one session. tokens = the engine's DeepSeek V3 `encodeTokens` of the serialized request,
// tools then messages (`JSON.stringify` of each, as DSH's adapter sends them); a cache hit = the
// longest common prefix, in tokens, with ANY earlier request of the session, rounded down to a
// multiple of 64 (DeepSeek caches in 64-token units); miss = the rest; cost = miss + hit / 10
// (a hit is billed at a tenth of a miss), in "miss-token equivalents".
//
// Only whole 64-token blocks can hit, so each request is kept as the chain of digests of its
// 64-token prefixes (block k's digest covers blocks 1..k): a request's hit is the longest run of its
// own chain found among the digests of earlier requests, exactly floor(LCP / 64) × 64, in memory
// proportional to the session's total tokens / 64 rather than to the tokens themselves.

import { createHash } from 'node:crypto';
import { encodeTokens } from 'dsh-context-engine/engine';
import type { ChatRequest } from 'dsh-context-engine/testing';

/** DeepSeek's cache unit, in tokens. */
export const CACHE_BLOCK_TOKENS = 64;
/** What a cached token costs, as a fraction of a missed one. */
export const HIT_PRICE = 0.1;

/** One request's bill. */
export interface RequestBill {
  /** The turn it belongs to (1-based). */
  readonly turn: number;
  /** `step`: an agent step; `summary`: a compaction's summary request. */
  readonly kind: 'step' | 'summary';
  readonly toolTokens: number;
  readonly messageTokens: number;
  readonly tokens: number;
  readonly hit: number;
  readonly miss: number;
  readonly cost: number;
}

/** Text that differs between two runs of the same session for reasons of no interest: where things live, ids. */
export interface Normalization {
  /** Its last six characters (mkdtemp's random suffix) become `000000`, so token counts do not depend on a random name. */
  readonly root?: string;
  /** The workspace's absolute path, counted as WORKSPACE_STAND_IN wherever the bench happens to keep it. */
  readonly workspace?: string;
}

/** What the workspace's path is counted as: a path of the length a user's checkout has. */
export const WORKSPACE_STAND_IN = '/home/user/repo';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The request's two serialized parts with run-specific names fixed: the workspace's path becomes
 * WORKSPACE_STAND_IN, the temporary root a same-length stand-in and every UUID the nil UUID.
 * @param request - the body DSH sent.
 * @param normalize - what to replace.
 * @returns the tools' JSON and the messages' JSON.
 */
export function serializeRequest(request: ChatRequest, normalize: Normalization = {}): { tools: string; messages: string } {
  const fix = (text: string): string => {
    let out = text;
    if (normalize.workspace !== undefined && normalize.workspace !== '') out = out.replaceAll(normalize.workspace, WORKSPACE_STAND_IN);
    if (normalize.root !== undefined && normalize.root.length > 6) out = out.replaceAll(normalize.root, `${normalize.root.slice(0, -6)}000000`);
    return out.replace(UUID, '00000000-0000-0000-0000-000000000000');
  };
  return { tools: fix(JSON.stringify(request.tools ?? [])), messages: fix(JSON.stringify(request.messages)) };
}

/** The bill of one session, request by request. */
export class SessionBill {
  readonly requests: RequestBill[] = [];
  /** Digests of every 64-token prefix of every request so far. */
  readonly #prefixes = new Set<string>();

  /**
   * Bills the next request of the session.
   * @param request - the body DSH sent.
   * @param turn - the turn it belongs to.
   * @param kind - an agent step or a compaction's summary request.
   * @param normalize - run-specific names to fix before counting.
   * @returns its bill (also appended to `requests`).
   */
  add(request: ChatRequest, turn: number, kind: RequestBill['kind'], normalize: Normalization = {}): RequestBill {
    const { tools, messages } = serializeRequest(request, normalize);
    const toolIds = encodeTokens(tools);
    const messageIds = encodeTokens(messages);
    const ids = new Uint32Array(toolIds.length + messageIds.length);
    ids.set(toolIds, 0);
    ids.set(messageIds, toolIds.length);
    const bill = this.#bill(ids, turn, kind, toolIds.length, messageIds.length);
    this.requests.push(bill);
    return bill;
  }

  #bill(ids: Uint32Array, turn: number, kind: RequestBill['kind'], toolTokens: number, messageTokens: number): RequestBill {
    const blocks = Math.floor(ids.length / CACHE_BLOCK_TOKENS);
    const bytes = new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength);
    let chain = '';
    let hitBlocks = 0;
    let hitting = true;
    for (let k = 0; k < blocks; k++) {
      chain = createHash('sha1').update(chain).update(bytes.subarray(k * CACHE_BLOCK_TOKENS * 4, (k + 1) * CACHE_BLOCK_TOKENS * 4)).digest('base64');
      // A request that shares 64(k+1) tokens with an earlier one shares every shorter prefix too.
      if (hitting && this.#prefixes.has(chain)) hitBlocks = k + 1;
      else hitting = false;
      this.#prefixes.add(chain);
    }
    const hit = hitBlocks * CACHE_BLOCK_TOKENS;
    const miss = ids.length - hit;
    return { turn, kind, toolTokens, messageTokens, tokens: ids.length, hit, miss, cost: miss + hit * HIT_PRICE };
  }

  /**
   * The cost of the first `k` turns (a k-turn session's bill), for k = 1 … the last turn.
   * @returns element k-1 is the cost of turns 1..k.
   */
  costThroughTurns(): number[] {
    const last = this.requests.reduce((max, r) => Math.max(max, r.turn), 0);
    const perTurn = new Array<number>(last).fill(0);
    for (const r of this.requests) perTurn[r.turn - 1]! += r.cost;
    let sum = 0;
    return perTurn.map((cost) => (sum += cost));
  }

  /**
   * Totals over the first `turns` turns.
   * @param turns - how many turns to count; all by default.
   * @returns request count, tokens, hits, misses, cost, cost of tools and messages, peak and last request size.
   */
  totals(turns = Infinity): SessionTotals {
    const rs = this.requests.filter((r) => r.turn <= turns);
    const sum = (f: (r: RequestBill) => number): number => rs.reduce((n, r) => n + f(r), 0);
    return {
      requests: rs.length,
      summaries: rs.filter((r) => r.kind === 'summary').length,
      tokens: sum((r) => r.tokens),
      toolTokens: sum((r) => r.toolTokens),
      messageTokens: sum((r) => r.messageTokens),
      hit: sum((r) => r.hit),
      miss: sum((r) => r.miss),
      cost: sum((r) => r.cost),
      peak: rs.reduce((max, r) => Math.max(max, r.tokens), 0),
      last: rs.at(-1)?.tokens ?? 0,
    };
  }
}

/** What `SessionBill.totals` sums. */
export interface SessionTotals {
  readonly requests: number;
  readonly summaries: number;
  readonly tokens: number;
  readonly toolTokens: number;
  readonly messageTokens: number;
  readonly hit: number;
  readonly miss: number;
  readonly cost: number;
  readonly peak: number;
  readonly last: number;
}
