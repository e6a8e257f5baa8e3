// Bounded streaming reads against sources that misbehave (spec X-04): limits and when reading stops,
// source errors, aborts, many reads at once, and argument errors. Sources record their next() and
// return() calls so a test can show what the reader did not do.

import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBounded, type ReadBoundedOptions, type ReadSource } from '../../src/engine/index.js';
import { anyText, cuts } from '../support/arbitraries.js';
import { expectRejection } from '../support/errors.js';
import { EndlessSource, ScriptedSource, slowly, steps, SyncScriptedSource } from '../support/sources.js';
import { byteLength, decodeReplace, okResult, patternBytes, splitAt, utf8 } from '../support/reference.js';
import { onEveryPath } from '../support/engine-paths.js';

const read = (source: unknown, options: ReadBoundedOptions) => readBounded(source as ReadSource, options);

onEveryPath(() => {
  describe('X-04 limits', () => {
    it('X-04 maxBytes exactly the byte count is ok; one byte less is oversize with bytes and maxBytes', async () => {
      for (const chunks of [['héllo'], ['abc', 'de'], ['中', '😀'], ['ab\uD800']]) {
        const total = byteLength(chunks.join(''));
        expect(await read(chunks, { maxBytes: total })).toEqual(okResult(chunks.join('')));
        expect(await read(chunks, { maxBytes: total - 1 })).toEqual({ status: 'oversize', bytes: total, maxBytes: total - 1 });
        const encoded = chunks.map(utf8);
        expect(await read(encoded, { maxBytes: total })).toEqual(okResult(decodeReplace(utf8(chunks.join('')))));
        expect(await read(encoded, { maxBytes: total - 1 })).toEqual({ status: 'oversize', bytes: total, maxBytes: total - 1 });
      }
    });

    it('X-04 maxBytes 0 allows only the empty text', async () => {
      expect(await read([], { maxBytes: 0 })).toEqual(okResult(''));
      expect(await read(['', ''], { maxBytes: 0 })).toEqual(okResult(''));
      expect(await read(['a'], { maxBytes: 0 })).toEqual({ status: 'oversize', bytes: 1, maxBytes: 0 });
      expect(await read([Uint8Array.of(0x80)], { maxBytes: 0 })).toEqual({ status: 'oversize', bytes: 1, maxBytes: 0 });
    });

    it('X-04 byte sources count the bytes read, a BOM included', async () => {
      const input = Uint8Array.of(0xef, 0xbb, 0xbf, 0x61);
      expect(await read([input], { maxBytes: 4 })).toEqual(okResult('a'));
      expect(await read([input], { maxBytes: 3 })).toEqual({ status: 'oversize', bytes: 4, maxBytes: 3 });
    });

    it('X-04 a reported size above maxBytes is oversize without ever calling next()', async () => {
      const source = new ScriptedSource(steps(['abc']));
      expect(await read(source, { maxBytes: 10, reportedSize: 11 })).toEqual({ status: 'oversize', bytes: 11, maxBytes: 10 });
      expect(source.nextCalls).toBe(0);
      expect(source.iteratorCalls).toBe(0);
    });

    it('X-04 a reported size equal to maxBytes reads; a wrong small reported size does not defeat the count', async () => {
      expect(await read(new ScriptedSource(steps(['abc'])), { maxBytes: 3, reportedSize: 3 })).toEqual(okResult('abc'));
      expect(await read(new ScriptedSource(steps(['abcd'])), { maxBytes: 3, reportedSize: 1 }))
        .toEqual({ status: 'oversize', bytes: 4, maxBytes: 3 });
    });

    it('X-04 reading stops at the chunk that crosses the limit, and the source is closed', async () => {
      const source = new ScriptedSource(steps(['abc', 'de', 'fgh', 'never read']));
      expect(await read(source, { maxBytes: 4 })).toEqual({ status: 'oversize', bytes: 5, maxBytes: 4 });
      expect(source.nextCalls).toBe(2);
      expect(source.returnCalls).toBe(1);
    });

    it('X-04 an endless source of 100-byte chunks is read to limit + one chunk, never further', async () => {
      const text = new EndlessSource((i) => `${String(i).padStart(3, '0')}` + 'x'.repeat(97));
      expect(await read(text, { maxBytes: 1050 })).toEqual({ status: 'oversize', bytes: 1100, maxBytes: 1050 });
      expect([text.nextCalls, text.returnCalls]).toEqual([11, 1]);
      const raw = new EndlessSource(() => patternBytes(100, 3).map((b) => b & 0x7f));
      expect(await read(raw, { maxBytes: 1000 })).toEqual({ status: 'oversize', bytes: 1100, maxBytes: 1000 });
      expect([raw.nextCalls, raw.returnCalls]).toEqual([11, 1]);
    });

    it('X-04 a source that ends by itself is not closed with return()', async () => {
      const source = new ScriptedSource(steps(['a', 'b']));
      expect(await read(source, { maxBytes: 10 })).toEqual(okResult('ab'));
      expect([source.nextCalls, source.returnCalls]).toEqual([3, 0]);
    });
  });

  describe('X-04 property: random limits', () => {
    const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

    it('X-04 string chunks: ok iff the text fits, else oversize at the first chunk whose running count exceeds it', async () => {
      await fc.assert(fc.asyncProperty(anyText(60), cuts(6), fc.nat(200), async (text, at, max) => {
        const chunks = splitAt(text, at);
        const source = new ScriptedSource(steps(chunks));
        const result = await read(source, { maxBytes: max });
        // The running count: UTF-8 bytes so far, a trailing high surrogate waiting for its partner not yet counted.
        let prefix = '';
        for (let k = 0; k < chunks.length; k++) {
          prefix += chunks[k];
          const counted = byteLength(isHigh(prefix.charCodeAt(prefix.length - 1)) ? prefix.slice(0, -1) : prefix);
          if (counted > max) {
            expect(result).toEqual({ status: 'oversize', bytes: counted, maxBytes: max });
            expect([source.nextCalls, source.returnCalls]).toEqual([k + 1, 1]);
            return;
          }
        }
        const total = byteLength(text);
        expect(result).toEqual(total > max ? { status: 'oversize', bytes: total, maxBytes: max } : okResult(text));
      }), { numRuns: 300 });
    });

    it('X-04 byte chunks: oversize at the first chunk whose running byte count exceeds maxBytes, else ok', async () => {
      await fc.assert(fc.asyncProperty(anyText(60), cuts(6), fc.nat(200), async (text, at, max) => {
        const chunks = splitAt(utf8(text), at);
        const source = new ScriptedSource(steps(chunks));
        const result = await read(source, { maxBytes: max });
        let count = 0;
        for (let k = 0; k < chunks.length; k++) {
          count += chunks[k]!.length;
          if (count > max) {
            expect(result).toEqual({ status: 'oversize', bytes: count, maxBytes: max });
            expect([source.nextCalls, source.returnCalls]).toEqual([k + 1, 1]);
            return;
          }
        }
        expect(result).toEqual(okResult(decodeReplace(utf8(text))));
      }), { numRuns: 300 });
    });
  });

  describe('X-04 source errors are unavailable, never thrown', () => {
    const failure = new Error('disk on fire');

    it('X-04 next() throwing before any chunk and after some chunks (async) gives the same error object', async () => {
      for (const script of [[{ error: failure }], [...steps(['ab', 'cd']), { error: failure }]]) {
        const result = await read(new ScriptedSource(script), { maxBytes: 100 });
        expect(result).toEqual({ status: 'unavailable', error: failure });
        expect((result as { error: unknown }).error).toBe(failure);
      }
    });

    it('X-04 next() throwing synchronously, before and after some chunks', async () => {
      for (const script of [[{ error: failure }], [...steps([Uint8Array.of(0x61)]), { error: failure }]]) {
        const source = new SyncScriptedSource(script);
        const result = await read(source, { maxBytes: 100 });
        expect((result as { error: unknown }).error).toBe(failure);
        expect(result.status).toBe('unavailable');
      }
    });

    it('X-04 generators that throw, a thrown non-Error value, and an iterator factory that throws', async () => {
      const asyncGen = async function* () { yield 'a'; throw failure; };
      expect(await read(asyncGen(), { maxBytes: 100 })).toEqual({ status: 'unavailable', error: failure });
      const syncGen = function* () { yield 'a'; throw failure; };
      expect(await read(syncGen(), { maxBytes: 100 })).toEqual({ status: 'unavailable', error: failure });
      expect(await read(new ScriptedSource([{ error: 'a string' }]), { maxBytes: 100 })).toEqual({ status: 'unavailable', error: 'a string' });
      const broken = { [Symbol.asyncIterator]() { throw failure; } };
      expect(await read(broken, { maxBytes: 100 })).toEqual({ status: 'unavailable', error: failure });
    });

    it('X-04 a source yielding a number or null is unavailable with a TypeError', async () => {
      for (const [value, shown] of [[42, '42'], [null, 'null'], [{}, 'an object (Object)']] as const) {
        const source = new ScriptedSource(steps(['ok', value, 'never']));
        const result = await read(source, { maxBytes: 100 });
        expect(result.status).toBe('unavailable');
        const error = (result as { error: unknown }).error;
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toBe(`readBounded: the source yielded ${shown}; chunks must be strings or Uint8Arrays`);
        expect([source.nextCalls, source.returnCalls]).toEqual([2, 1]);
      }
    });

    it('X-04 mixing string and byte chunks, in either order, is unavailable with a TypeError', async () => {
      for (const chunks of [['a', Uint8Array.of(0x62)], [Uint8Array.of(0x61), 'b']]) {
        const result = await read(chunks, { maxBytes: 100 });
        expect(result.status).toBe('unavailable');
        const error = (result as { error: unknown }).error;
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toBe('readBounded: the source mixed string and byte chunks');
      }
    });
  });

  describe('X-04 aborts are cancelled', () => {
    it('X-04 an already-aborted signal is cancelled without calling next()', async () => {
      const source = new ScriptedSource(steps(['abc']));
      expect(await read(source, { maxBytes: 100, signal: AbortSignal.abort() })).toEqual({ status: 'cancelled' });
      expect([source.iteratorCalls, source.nextCalls]).toEqual([0, 0]);
    });

    it('X-04 an abort while next() blocks forever is cancelled promptly and the source is closed', { timeout: 5000 }, async () => {
      const controller = new AbortController();
      const source = new ScriptedSource([...steps(['abc']), { block: true, before: () => setImmediate(() => controller.abort()) }]);
      expect(await read(source, { maxBytes: 100, signal: controller.signal })).toEqual({ status: 'cancelled' });
      expect([source.nextCalls, source.returnCalls]).toEqual([2, 1]);
    });

    it('X-04 an abort between chunks is cancelled and nothing more is read', async () => {
      const controller = new AbortController();
      const source = new ScriptedSource([...steps(['ab', 'cd']), { chunk: 'ef', before: () => controller.abort() }, ...steps(['gh'])]);
      expect(await read(source, { maxBytes: 100, signal: controller.signal })).toEqual({ status: 'cancelled' });
      expect([source.nextCalls, source.returnCalls]).toEqual([3, 1]);
    });

    it('X-04 a source that throws because of the abort is cancelled, not unavailable', async () => {
      const controller = new AbortController();
      const source = new ScriptedSource([...steps([Uint8Array.of(0x61)]), {
        before: () => controller.abort(new Error('aborted by the user')),
        error: new Error('read interrupted'),
      }]);
      expect(await read(source, { maxBytes: 100, signal: controller.signal })).toEqual({ status: 'cancelled' });
      const listening = async function* (signal: AbortSignal) {
        yield 'first';
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      };
      const c2 = new AbortController();
      const pending = read(listening(c2.signal), { maxBytes: 100, signal: c2.signal });
      setImmediate(() => c2.abort());
      expect(await pending).toEqual({ status: 'cancelled' });
    });

    it('X-04 an abort after the read finished changes nothing; a later read with a fresh signal works', async () => {
      const controller = new AbortController();
      const result = await read(['done'], { maxBytes: 100, signal: controller.signal });
      controller.abort();
      expect(result).toEqual(okResult('done'));
      expect(await read(['again'], { maxBytes: 100, signal: new AbortController().signal })).toEqual(okResult('again'));
    });
  });

  describe('X-04 no partial state is left behind', () => {
    it('X-04 finished, oversize, failed and cancelled reads leave no abort listener on the signal', async () => {
      const controller = new AbortController();
      const { signal } = controller;
      for (let i = 0; i < 50; i++) {
        expect(await read(['abc'], { maxBytes: 10, signal })).toEqual(okResult('abc'));
        expect((await read(['abcdefgh'], { maxBytes: 2, signal })).status).toBe('oversize');
        expect((await read(new ScriptedSource([{ error: new Error('x') }]), { maxBytes: 2, signal })).status).toBe('unavailable');
        expect((await read([Uint8Array.of(0xff)], { maxBytes: 2, signal })).status).toBe('invalid-utf8');
      }
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      const blocked = read(new ScriptedSource([{ block: true }]), { maxBytes: 2, signal });
      await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(signal, 'abort')).toHaveLength(1);
      controller.abort();
      expect(await blocked).toEqual({ status: 'cancelled' });
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    });
  });

  describe('X-04 concurrent reads', () => {
    it('X-04 twenty reads interleaved chunk by chunk each give their own result', async () => {
      const texts = Array.from({ length: 20 }, (_, i) => `  read ${i} ` + 'é中😀\u3000'.repeat(i) + 'x'.repeat(3 * i) + (i % 4 === 0 ? '  ' : ''));
      const chunksOf = <T extends string | Uint8Array>(value: T, size: number): T[] => {
        const pieces: T[] = [];
        for (let at = 0; at < value.length; at += size) pieces.push(value.slice(at, at + size) as T);
        return pieces;
      };
      // Even reads: string chunks (pairs split between them); odd reads: UTF-8 bytes split anywhere.
      const results = await Promise.all(texts.map((text, i) =>
        i % 2 === 0
          ? read(slowly(chunksOf(text, 1 + (i % 5))), { maxBytes: 10_000 })
          : read(slowly(chunksOf(utf8(text), 1 + (i % 7))), { maxBytes: 10_000, decode: i % 4 === 1 ? 'fatal' : 'replace' })));
      results.forEach((result, i) => expect(result, `read ${i}`).toEqual(okResult(texts[i]!)));
    });

    it('X-04 failing, oversize and cancelled reads running alongside do not disturb the others', async () => {
      const controller = new AbortController();
      const [ok1, over, bad, cancelled, ok2] = await Promise.all([
        read(slowly(['  alpha ', 'beta  ']), { maxBytes: 100 }),
        read(slowly(['0123456789', '0123456789']), { maxBytes: 15 }),
        read(slowly([Uint8Array.of(0x61), Uint8Array.of(0xc0, 0x80)]), { maxBytes: 100 }),
        read(new ScriptedSource([...steps(['x']), { block: true, before: () => setImmediate(() => controller.abort()) }], { ticks: 1 }),
          { maxBytes: 100, signal: controller.signal }),
        read(slowly([Uint8Array.of(0xe4, 0xb8), Uint8Array.of(0xad, 0x20)]), { maxBytes: 100 }),
      ]);
      expect(ok1).toEqual(okResult('  alpha beta  '));
      expect(over).toEqual({ status: 'oversize', bytes: 20, maxBytes: 15 });
      expect(bad).toEqual({ status: 'invalid-utf8' });
      expect(cancelled).toEqual({ status: 'cancelled' });
      expect(ok2).toEqual(okResult('中 '));
    });
  });

  describe('X-04 argument errors reject; the source is never touched', () => {
    const RANGE = 'an integer from 0 to 9007199254740991';

    it('X-04 readBounded(null, …) and other non-iterables are TypeErrors', async () => {
      await expectRejection(read(null, { maxBytes: 1 }), TypeError, 'readBounded: source must be an async or sync iterable of chunks, got null');
      await expectRejection(read('abc', { maxBytes: 1 }), TypeError, 'readBounded: source must be an async or sync iterable of chunks, got "abc"');
      await expectRejection(read({}, { maxBytes: 1 }), TypeError, 'readBounded: source must be an async or sync iterable of chunks, got an object (Object)');
    });

    it('X-04 missing options, a bad maxBytes or reportedSize, a bad decode, a non-AbortSignal signal', async () => {
      const source = new ScriptedSource(steps(['abc']));
      await expectRejection(read(source, undefined as never), TypeError, 'readBounded: options must be an object with maxBytes, got undefined');
      await expectRejection(read(source, {} as never), TypeError, 'readBounded: maxBytes must be a number, got undefined');
      await expectRejection(read(source, { maxBytes: -1 }), RangeError, `readBounded: maxBytes must be ${RANGE}, got -1`);
      await expectRejection(read(source, { maxBytes: 1.5 }), RangeError, `readBounded: maxBytes must be ${RANGE}, got 1.5`);
      await expectRejection(read(source, { maxBytes: Infinity }), RangeError, `readBounded: maxBytes must be ${RANGE}, got Infinity`);
      await expectRejection(read(source, { maxBytes: 5, reportedSize: -2 }), RangeError, `readBounded: reportedSize must be ${RANGE}, got -2`);
      await expectRejection(read(source, { maxBytes: 5, decode: 'x' as never }), TypeError, `readBounded: decode must be 'fatal' or 'replace', got "x"`);
      await expectRejection(read(source, { maxBytes: 5, signal: {} as never }), TypeError, 'readBounded: signal must be an AbortSignal, got an object (Object)');
      expect([source.iteratorCalls, source.nextCalls]).toEqual([0, 0]);
    });
  });
});
