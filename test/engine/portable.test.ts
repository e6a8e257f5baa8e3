// Runtimes without Node's Buffer (browsers, Deno) take the portable paths of src/wasm/memory.ts:
// strings move in through a charCodeAt loop, UTF-8 through TextEncoder, hex out through
// String.fromCharCode. A fresh copy of the engine is imported with Buffer hidden and must give the
// same answers as the references (spec X-14).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Engine from '../../src/engine/index.js';
import { anyText } from '../support/arbitraries.js';
import { byteLength, nodeHash, okResult, referenceCap, referenceTruncate, utf8 } from '../support/reference.js';

let engine: typeof Engine;

beforeAll(async () => {
  const globals = globalThis as { Buffer?: unknown };
  const saved = globals.Buffer;
  vi.resetModules();
  // Instantiating needs Node's own internals (which use Buffer); the wrapper modules that pick a
  // transfer path are evaluated afterwards, with Buffer hidden.
  await import('../../src/wasm/instance.js');
  globals.Buffer = undefined;
  try {
    engine = await import('../../src/engine/index.js');
  } finally {
    globals.Buffer = saved;
  }
});

afterAll(() => {
  vi.resetModules();
});

describe('X-14 the engine without Node Buffer', () => {
  it('X-01 X-05 X-06 one-shot digests, lengths and caps agree with the references on random text', () => {
    fc.assert(fc.property(anyText(200), fc.nat(300), (text, n) => {
      expect(engine.sha1Hex(text)).toBe(nodeHash('sha1', text));
      expect(engine.sha256Hex(text)).toBe(nodeHash('sha256', text));
      expect(engine.utf8Length(text)).toBe(byteLength(text));
      expect(engine.truncateUtf8(text, n)).toEqual(referenceTruncate(text, n));
      expect(engine.codePointLength(text)).toBe(Array.from(text).length);
      expect(engine.capCodePoints(text, n)).toBe(referenceCap(text, n));
    }), { numRuns: 300 });
  });

  it('X-01 digestMany (strings through TextEncoder, batch hex out) and streaming digests agree', () => {
    const inputs = ['', 'a', 'héllo', '\uD800x', '😀'.repeat(40), 'x'.repeat(3000)];
    expect(engine.digestMany('sha256', inputs)).toEqual(inputs.map((t) => nodeHash('sha256', t)));
    expect(engine.digestMany('sha1', inputs.map(utf8))).toEqual(inputs.map((t) => nodeHash('sha1', t)));
    const digest = engine.createDigest('sha1');
    for (const t of inputs) digest.update(t);
    expect(digest.digestHex()).toBe(nodeHash('sha1', inputs.join('')));
  });

  it('X-04 readBounded over strings and bytes agrees', async () => {
    const text = '  portable 中文 😀 text\n';
    expect(await engine.readBounded([text.slice(0, 5), text.slice(5)], { maxBytes: 100 })).toEqual(okResult(text));
    expect(await engine.readBounded([utf8(text)], { maxBytes: 100 })).toEqual(okResult(text));
  });
});
