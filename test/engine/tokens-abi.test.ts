// The tokenizer ABI of the raw module (assembly/README.md, "Tokenizer"), driven as another runtime
// would: plain WebAssembly instantiation, the table and UTF-16 written into memory by hand, statuses
// read back. It pins what the README promises: tokLoad checks every field it relies on, the state is
// relocatable, tokEncode stops before a pre-token the chunk's end may change, and failures carry their
// numbers.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TOKEN_BAD_ID, TOKEN_BAD_TABLE, TOKEN_FLAG_FINAL, TOKEN_FLAG_IDS, TOKEN_NO_SPACE, TOKEN_NOT_LOADED, TOKEN_PIECE_TOO_LONG,
  TOKEN_TABLE_HEADER_BYTES, TOKEN_WORK_BYTES_PER_BYTE, TOKEN_WORK_EXTRA_BYTES,
} from '../../src/wasm/abi.js';
import { RELEASE_WASM_URL } from '../../src/wasm/instance.js';
import { referenceEncode } from '../support/tokenizer.js';

type Fn = (...args: number[]) => number;
const TABLE = readFileSync(new URL('../../build/deepseek-v3.tokenizer', import.meta.url));

interface Raw {
  fn: Record<string, Fn>;
  u8(): Uint8Array;
  /** Bump allocation above heapBase(), growing memory as needed. */
  alloc(bytes: number): number;
}

async function raw(): Promise<Raw> {
  const { instance } = await WebAssembly.instantiate(readFileSync(RELEASE_WASM_URL), {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const fn = instance.exports as unknown as Record<string, Fn>;
  let next = (fn.heapBase!() + 15) & ~15;
  return {
    fn,
    u8: () => new Uint8Array(memory.buffer),
    alloc(bytes) {
      const at = next;
      next = (next + bytes + 15) & ~15;
      const missing = next - memory.buffer.byteLength;
      if (missing > 0) memory.grow(Math.ceil(missing / 65536));
      return at;
    },
  };
}

/** Loads `table` into a fresh state; returns tokLoad's answer, tokDetail() and the state's address. */
function load(r: Raw, table: Uint8Array): { status: number; detail: number; tok: number } {
  const at = r.alloc(table.length);
  r.u8().set(table, at);
  const size = r.fn.tokStateBytes!(at, table.length);
  if (size < 0) return { status: size, detail: r.fn.tokDetail!(), tok: 0 };
  const tok = r.alloc(size);
  const status = r.fn.tokLoad!(at, table.length, tok, size);
  return { status, detail: r.fn.tokDetail!(), tok };
}

/** Writes `text` as UTF-16 and runs one tokEncode call; returns its answer, the ids and tokConsumed(). */
function encode(r: Raw, tok: number, text: string, flags: number, workBytes?: number): { n: number; ids: number[]; consumed: number } {
  const src = r.alloc(2 * text.length);
  const units = new Uint16Array(r.u8().buffer, src, text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  const work = workBytes ?? TOKEN_WORK_BYTES_PER_BYTE * 3 * text.length + TOKEN_WORK_EXTRA_BYTES;
  const workAt = r.alloc(work);
  const idsAt = r.alloc(4 * 3 * text.length + 4);
  const n = r.fn.tokEncode!(tok, src, text.length, flags | TOKEN_FLAG_IDS, workAt, work, idsAt, 3 * text.length + 1);
  const ids = n > 0 ? Array.from(new Uint32Array(r.u8().buffer, idsAt, n)) : [];
  return { n, ids, consumed: r.fn.tokConsumed!() };
}

const u32 = (table: Uint8Array, at: number): number => new DataView(table.buffer, table.byteOffset).getUint32(at, true);
function corrupt(at: number, value: number): Uint8Array {
  const copy = Uint8Array.from(TABLE);
  copy[at] = value;
  return copy;
}

describe('X-14 tokenizer ABI (raw module)', () => {
  let r: Raw;
  let tok: number;
  beforeAll(async () => {
    r = await raw();
    const loaded = load(r, TABLE);
    expect(loaded.status).toBeGreaterThan(0);
    tok = loaded.tok;
  });

  it('X-14 tokLoad builds a state of tokStateBytes bytes; tokInfo reports its vocabulary, added tokens and Unicode version', () => {
    expect(r.fn.tokInfo!(tok, 0)).toBe(128000);
    expect(r.fn.tokInfo!(tok, 1)).toBe(818);
    const [major, minor = 0] = process.versions.unicode!.split('.').map(Number);
    expect(r.fn.tokInfo!(tok, 2)).toBe((major! << 16) | (minor << 8));
    expect(r.fn.tokInfo!(tok, 3)).toBeGreaterThan(3_000_000);
    expect(r.fn.tokInfo!(tok, 9)).toBe(-1);
  });

  it('X-14 one final call gives the reference\'s ids and consumes every unit', () => {
    const text = 'Hello, my dog is cute 中文 😀 <｜User｜> 12345';
    const got = encode(r, tok, text, TOKEN_FLAG_FINAL);
    expect(got.ids).toEqual(referenceEncode(text));
    expect(got.n).toBe(got.ids.length);
    expect(got.consumed).toBe(text.length);
  });

  it('X-14 without FINAL the call stops before a pre-token the text\'s continuation may change, and resuming there gives the same ids', () => {
    // " wor" may continue ("world"); "<｜Us" may become an added token; "12" may gain a digit.
    for (const [text, consumed] of [['hello wor', 5], ['ab <｜Us', 2], ['x 12', 2], ['a  ', 1], ['done.\n', 4]] as const) {
      const got = encode(r, tok, text, 0);
      expect(got.consumed, text).toBe(consumed);
      const rest = encode(r, tok, text.slice(consumed), TOKEN_FLAG_FINAL);
      expect([...got.ids, ...rest.ids], text).toEqual(referenceEncode(text));
    }
  });

  it('X-14 the state is relocatable: a copy elsewhere answers the same', () => {
    const size = r.fn.tokInfo!(tok, 3);
    const copy = r.alloc(size);
    r.u8().copyWithin(copy, tok, tok + size);
    const text = 'moved state, same answers: 世界 🌍';
    expect(encode(r, copy, text, TOKEN_FLAG_FINAL).ids).toEqual(referenceEncode(text));
  });

  it('X-14 statuses: a pre-token over the work area (bytes and where), an id that is no token, a state that is not loaded', () => {
    const text = `ab ${'x'.repeat(100)}`;
    const small = TOKEN_WORK_BYTES_PER_BYTE * 50 + TOKEN_WORK_EXTRA_BYTES;
    expect(encode(r, tok, text, TOKEN_FLAG_FINAL, small).n).toBe(TOKEN_PIECE_TOO_LONG);
    expect([r.fn.tokDetail!(), r.fn.tokDetail2!()]).toEqual([101, 2]); // " xxx…" from code unit 2
    const ids = r.alloc(8);
    new Uint32Array(r.u8().buffer, ids, 2).set([5, 128815]);
    expect(r.fn.tokDecodeLength!(tok, ids, 2)).toBe(TOKEN_BAD_ID);
    expect(r.fn.tokDetail!()).toBe(1);
    const empty = r.alloc(256);
    expect(encode(r, empty, 'x', TOKEN_FLAG_FINAL).n).toBe(TOKEN_NOT_LOADED);
    expect(r.fn.tokDecodeLength!(empty, ids, 1)).toBe(TOKEN_NOT_LOADED);
  });

  it('X-14 tokLoad refuses a table it cannot rely on, naming the byte offset of the failed check; a state that is too small', async () => {
    const fresh = await raw();
    const mergesAt = TOKEN_TABLE_HEADER_BYTES + 256 * 4;
    const cases: [string, Uint8Array, number][] = [
      ['bad magic', corrupt(0, 0), 0],
      ['unknown format', corrupt(4, 9), 4],
      ['truncated', TABLE.subarray(0, TABLE.length - 1), 8],
      ['header only', TABLE.subarray(0, 40), 40],
      ['a byte token out of range', corrupt(TOKEN_TABLE_HEADER_BYTES + 2, 0xff), TOKEN_TABLE_HEADER_BYTES],
      // Merge 0 naming itself (id 259) as its left half: a cycle.
      ['a merge that is not made of earlier tokens', (() => {
        const t = Uint8Array.from(TABLE);
        t[mergesAt] = 259 & 0xff;
        t[mergesAt + 1] = 259 >> 8;
        t[mergesAt + 2] = 0;
        return t;
      })(), mergesAt],
      // Merge 1 equal to merge 0: the same pair twice.
      ['a pair merged twice', (() => {
        const t = Uint8Array.from(TABLE);
        t.copyWithin(mergesAt + 6, mergesAt, mergesAt + 6);
        return t;
      })(), mergesAt + 6],
    ];
    for (const [name, table, detail] of cases) {
      const got = load(fresh, table);
      expect({ name, status: got.status, detail: got.detail }).toEqual({ name, status: TOKEN_BAD_TABLE, detail });
    }
    const at = fresh.alloc(TABLE.length);
    fresh.u8().set(TABLE, at);
    const size = fresh.fn.tokStateBytes!(at, TABLE.length);
    const state = fresh.alloc(size);
    expect(fresh.fn.tokLoad!(at, TABLE.length, state, size - 1)).toBe(TOKEN_NO_SPACE);
    expect(fresh.fn.tokDetail!()).toBe(size);
    expect(u32(TABLE, 8)).toBe(TABLE.length);
  });
});
