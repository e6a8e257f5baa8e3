// A Uint8Array whose ArrayBuffer was transferred away (postMessage, structuredClone with transfer)
// reads as empty. The engine refuses it with its own TypeError naming the function and the argument,
// rather than hashing nothing or failing inside V8 (spec X-14: bad input gets a clear error).

import { describe, expect, it } from 'vitest';
import { createDigest, digestMany, readBounded, sha1Hex, sha256Hex } from '../../src/engine/index.js';
import { expectError } from '../support/errors.js';
import { nodeHash } from '../support/reference.js';

/** Bytes whose buffer has been transferred away. */
function detached(length = 8): Uint8Array {
  const bytes = new Uint8Array(length).fill(7);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

const WHY = 'is a Uint8Array whose ArrayBuffer is detached (transferred); it has no bytes to read';

describe('X-14 detached buffers are the engine\'s named TypeError', () => {
  it('X-14 the test input really is detached: it reads as empty, and copying it fails inside V8', () => {
    const bytes = detached();
    expect(bytes.length).toBe(0);
    expect(() => new Uint8Array(8).set(bytes)).toThrow('Cannot perform %TypedArray%.prototype.set on a detached ArrayBuffer');
  });

  it('X-01 one-shot digests', () => {
    expectError(() => sha1Hex(detached()), TypeError, `sha1Hex: input ${WHY}`);
    const memory = new ArrayBuffer(8);
    const view = Buffer.from(memory, 2, 4); // a Buffer (a Uint8Array subclass) over it
    structuredClone(memory, { transfer: [memory] });
    expectError(() => sha256Hex(view), TypeError, `sha256Hex: input ${WHY}`);
    // An empty array over a live buffer is fine: it is the empty message.
    expect(sha1Hex(new Uint8Array(0))).toBe(nodeHash('sha1', ''));
    expect(sha1Hex(new Uint8Array(new ArrayBuffer(16), 16))).toBe(nodeHash('sha1', ''));
  });

  it('X-01 a streaming digest refuses the chunk and stays usable', () => {
    const digest = createDigest('sha256').update('ab');
    expectError(() => digest.update(detached()), TypeError, `sha256 digest update: chunk ${WHY}`);
    expect(digest.update('c').digestHex()).toBe(nodeHash('sha256', 'abc'));
  });

  it('X-01 digestMany names the input, also when reading a later input detached an earlier one', () => {
    expectError(() => digestMany('sha1', ['a', detached()]), TypeError, `digestMany: inputs[1] ${WHY}`);
    const first = new Uint8Array([1, 2, 3]);
    const inputs = new Proxy([first, 'x'], {
      get(target, key, receiver) {
        if (key === '1') structuredClone(first.buffer, { transfer: [first.buffer] });
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expectError(() => digestMany('sha1', inputs), TypeError, `digestMany: inputs[0] ${WHY}`);
  });

  it('X-04 readBounded: a detached chunk from the source is unavailable, with that error', async () => {
    const result = await readBounded([new Uint8Array([104, 105]), detached()], { maxBytes: 100 });
    expect(result.status).toBe('unavailable');
    const error = (result as { error: Error }).error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`readBounded: a chunk of the source ${WHY}`);
  });
});
