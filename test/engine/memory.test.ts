// WASM memory discipline (spec X-14: callers never see WASM memory, so it must not leak): a million
// small calls leave the memory size unchanged after a warm-up, and growth caused by one large input
// never corrupts later calls or state that was in flight when it happened.

import { describe, expect, it } from 'vitest';
import {
  capCodePoints, codePointLength, compileGlobs, createDigest, digestMany, readBounded, sha1Hex, sha256Hex, truncateUtf8, utf8Length,
} from '../../src/engine/index.js';
import { engine } from '../../src/wasm/instance.js';
import { byteLength, nodeHash, okResult, patternBytes, referenceCap, referenceTruncate, utf8 } from '../support/reference.js';
import { slowly } from '../support/sources.js';
import { wasmOnlyInThisFile } from '../support/engine-paths.js';

// WASM memory and its slots are what this file tests: every call goes through them.
wasmOnlyInThisFile();

const memorySize = (): number => engine.memory.buffer.byteLength;

// 64 short inputs with their references, computed once.
const INPUTS = Array.from({ length: 64 }, (_, i) => `#${i} ` + 'aé中😀\uD800 '.slice(0, 1 + (i % 9)) + 'x'.repeat(i % 40));
const REFS = INPUTS.map((text) => ({
  sha1: nodeHash('sha1', text),
  sha256: nodeHash('sha256', text),
  bytes: byteLength(text),
  cap5: referenceCap(text, 5),
}));

/** One round of every kind of small call; returns how many engine calls it made. */
function smallRound(i: number): number {
  const k = i & 63;
  const text = INPUTS[k]!;
  const ref = REFS[k]!;
  if (sha1Hex(text) !== ref.sha1) throw new Error(`sha1Hex mismatch on input ${k}`);
  if (utf8Length(text) !== ref.bytes) throw new Error(`utf8Length mismatch on input ${k}`);
  if (capCodePoints(text, 5) !== ref.cap5) throw new Error(`capCodePoints mismatch on input ${k}`);
  if ((i & 7) === 0) {
    const d = createDigest('sha256').update(text.slice(0, 3)).update(text.slice(3));
    if (d.digestHex() !== ref.sha256) throw new Error(`createDigest mismatch on input ${k}`);
    return 7; // three calls above, plus create, two updates and digestHex
  }
  return 3;
}

describe('X-14 memory stays flat under many small calls', () => {
  it('X-14 a million small calls (digests, lengths, caps, streaming digests, bounded reads) do not grow memory', async () => {
    // Warm-up: the largest of each kind of call made below.
    for (let i = 0; i < 512; i++) smallRound(i);
    for (const text of INPUTS) await readBounded([text], { maxBytes: 1000 });
    const before = memorySize();

    let calls = 0;
    let round = 0;
    while (calls < 1_000_000) {
      calls += smallRound(round++);
      if ((round & 255) === 0) {
        const k = (round >> 8) & 63;
        const result = await readBounded(slowly([INPUTS[k]!.slice(0, 4), INPUTS[k]!.slice(4)]), { maxBytes: 1000 });
        expect(result).toEqual(okResult(INPUTS[k]!));
        calls += 1;
      }
    }
    for (let i = 0; i < 3000; i++) {
      const k = i & 63;
      const result = await readBounded([utf8(INPUTS[k]!)], { maxBytes: 1000, decode: 'replace' });
      if (result.status !== 'ok' || result.sha1 !== REFS[k]!.sha1) throw new Error(`readBounded mismatch on input ${k}`);
    }
    expect(calls).toBeGreaterThanOrEqual(1_000_000);
    expect(memorySize()).toBe(before);
  });

  it('X-14 abandoned reads and digests (oversize, cancelled, never finished) do not grow memory', async () => {
    await readBounded(['warm'], { maxBytes: 1 });
    const before = memorySize();
    for (let i = 0; i < 2000; i++) {
      createDigest(i & 1 ? 'sha1' : 'sha256').update(INPUTS[i & 63]!);
      await readBounded(['0123456789', 'more'], { maxBytes: 5 });
      await readBounded(['x'], { maxBytes: 5, signal: AbortSignal.abort() });
    }
    expect(memorySize()).toBe(before);
  });
});

describe('X-14 growth from one large input', () => {
  it('X-14 after a large input grows memory, small calls keep working and stay correct', () => {
    const before = memorySize();
    const big = patternBytes(12 << 20, 4);
    expect(sha256Hex(big)).toBe(nodeHash('sha256', big));
    expect(memorySize()).toBeGreaterThan(before);
    INPUTS.forEach((text, k) => {
      expect(sha1Hex(text)).toBe(REFS[k]!.sha1);
      expect(utf8Length(text)).toBe(REFS[k]!.bytes);
      expect(codePointLength(text)).toBe(Array.from(text).length);
      expect(capCodePoints(text, 5)).toBe(REFS[k]!.cap5);
      expect(truncateUtf8(text, 7)).toEqual(referenceTruncate(text, 7));
    });
    expect(digestMany('sha1', INPUTS)).toEqual(REFS.map((r) => r.sha1));
  });

  it('X-14 a streaming digest and a bounded read in flight survive a memory growth', async () => {
    const digest = createDigest('sha1');
    digest.update('before growth \uD83D');
    const pending = readBounded(slowly(['  first ', 'second  ']), { maxBytes: 1000 });
    const size = memorySize();
    // 2,000 patterns placed with their DFA caches take the engine well past what the tests above used.
    const patterns = Array.from({ length: 2000 }, (_, i) => `d${i}/**/*.{ts,md}`);
    expect(compileGlobs(patterns).which('d1999/a/b.md')).toEqual([1999]);
    expect(memorySize()).toBeGreaterThan(size);
    digest.update('\uDE00 after growth');
    expect(digest.digestHex()).toBe(nodeHash('sha1', 'before growth 😀 after growth'));
    expect(await pending).toEqual(okResult('  first second  '));
  });
});
