// The session bill of `npm run bench:session` (issue 30): tokens of tools and messages, the cache hit
// as the longest common prefix with any earlier request rounded down to 64 tokens, cost = miss +
// hit / 10, and the cost through every turn; checked against a brute-force reference on requests
// that share prefixes of every length.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeTokens } from '../../src/engine/index.js';
import type { ChatRequest } from '../../src/testing/index.js';
import { CACHE_BLOCK_TOKENS, SessionBill, serializeRequest, WORKSPACE_STAND_IN } from '../../bench/session-bill.js';

const request = (system: string, ...texts: string[]): ChatRequest => ({
  model: 'm',
  tools: [{ type: 'function', function: { name: 'read', description: 'Read a file.', parameters: { type: 'object' } } }],
  messages: [{ role: 'system', content: system }, ...texts.map((content) => ({ role: 'user' as const, content }))],
});

/** The reference: every token of both parts, and the longest prefix shared with any earlier request. */
function reference(requests: readonly ChatRequest[]): { tokens: number; hit: number }[] {
  const ids = requests.map((r) => [...encodeTokens(JSON.stringify(r.tools)), ...encodeTokens(JSON.stringify(r.messages))]);
  return ids.map((mine, i) => {
    let best = 0;
    for (const earlier of ids.slice(0, i)) {
      let n = 0;
      while (n < mine.length && n < earlier.length && mine[n] === earlier[n]) n++;
      best = Math.max(best, n);
    }
    return { tokens: mine.length, hit: Math.floor(best / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS };
  });
}

describe('SessionBill', () => {
  it('issue 30: tokens are tools then messages; a hit is the longest prefix shared with ANY earlier request, whole 64-token blocks only; cost = miss + hit / 10', () => {
    const long = 'word '.repeat(300);
    const requests = [request('sys', long), request('sys', long, 'next'), request('other', long), request('sys', long, 'branch'), request('sys', 'x')];
    const bill = new SessionBill();
    requests.forEach((r, i) => bill.add(r, i < 2 ? 1 : 2, 'step'));
    const expected = reference(requests);
    expect(bill.requests.map((b) => ({ tokens: b.tokens, hit: b.hit }))).toEqual(expected);
    for (const b of bill.requests) {
      expect(b.miss).toBe(b.tokens - b.hit);
      expect(b.cost).toBeCloseTo(b.miss + b.hit / 10, 9);
      expect(b.hit % 64).toBe(0);
    }
    // Request 4 shares request 2's prefix, not only its predecessor's; request 3 shares only the tools.
    expect(bill.requests[3]!.hit).toBeGreaterThan(bill.requests[2]!.hit);
    expect(bill.requests[0]!.toolTokens).toBe(encodeTokens(JSON.stringify(requests[0]!.tools)).length);
    expect(bill.costThroughTurns()).toEqual([bill.requests[0]!.cost + bill.requests[1]!.cost, bill.requests.reduce((n, b) => n + b.cost, 0)]);
    expect(bill.totals(1).requests).toBe(2);
    expect(bill.totals().peak).toBe(Math.max(...expected.map((e) => e.tokens)));
  });

  it('issue 30 property: on requests that share prefixes of any length, the bill equals the brute-force reference', () => {
    const piece = fc.constantFrom('alpha ', 'beta\n', '字', '😀', '{"x":1}', ' '.repeat(7), 'the quick brown fox ');
    const text = fc.array(piece, { maxLength: 120 }).map((a) => a.join(''));
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(), text), { minLength: 1, maxLength: 8 }), (specs) => {
      const requests: ChatRequest[] = [];
      for (const [pick, tail] of specs) {
        // Extend an earlier request (a shared prefix of its length) or start anew.
        const base = requests.length > 0 && pick % 3 !== 0 ? requests[pick % requests.length]!.messages.slice(1).map((m) => m.content ?? '') : [];
        requests.push(request('system prompt', ...base, tail));
      }
      const bill = new SessionBill();
      for (const r of requests) bill.add(r, 1, 'step');
      expect(bill.requests.map((b) => ({ tokens: b.tokens, hit: b.hit }))).toEqual(reference(requests));
    }), { numRuns: 40 });
  });

  it('issue 30: the workspace path and the temporary root are counted as fixed stand-ins, and UUIDs as the nil UUID, so a run anywhere counts the same', () => {
    const r: ChatRequest = { model: 'm', tools: [], messages: [{ role: 'user', content: 'at /srv/bench/ws/a.ts and /tmp/dsh-host-Ab3xYz/home, session 0f8fad5b-d9cb-469f-a165-70867728950e' }] };
    expect(serializeRequest(r, { workspace: '/srv/bench/ws', root: '/tmp/dsh-host-Ab3xYz' }).messages).toBe(`[{"role":"user","content":"at ${WORKSPACE_STAND_IN}/a.ts and /tmp/dsh-host-000000/home, session 00000000-0000-0000-0000-000000000000"}]`);
  });
});
