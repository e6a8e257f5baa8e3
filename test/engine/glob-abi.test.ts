// The glob ABI of the raw module (assembly/README.md), driven as another runtime would: plain
// WebAssembly instantiation, UTF-16 written into memory by hand, statuses read back. It pins what
// the README promises to callers who do not use our TypeScript facade.

import { readFileSync } from 'node:fs';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { RELEASE_WASM_URL } from '../../src/wasm/instance.js';

type Fn = (...args: number[]) => number;

async function rawEngine(): Promise<{ memory: WebAssembly.Memory; fn: Record<string, Fn> }> {
  const { instance } = await WebAssembly.instantiate(readFileSync(RELEASE_WASM_URL), {});
  return { memory: instance.exports.memory as WebAssembly.Memory, fn: instance.exports as unknown as Record<string, Fn> };
}

/** A bump allocator above heapBase(), growing memory as needed (the host owns that space). */
function arena(memory: WebAssembly.Memory, base: number): (bytes: number) => number {
  let next = (base + 15) & ~15;
  return (bytes) => {
    const at = next;
    next = (next + bytes + 15) & ~15;
    const missing = next - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / 65536));
    return at;
  };
}

function writeUtf16(memory: WebAssembly.Memory, at: number, text: string): void {
  const units = new Uint16Array(memory.buffer, at, text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
}

/** Packs strings as UTF-16 with a table of count + 1 u32 unit offsets. */
function pack(memory: WebAssembly.Memory, alloc: (bytes: number) => number, texts: readonly string[]): { data: number; offsets: number } {
  const units = texts.reduce((n, t) => n + t.length, 0);
  const data = alloc(units * 2);
  const offsets = alloc((texts.length + 1) * 4);
  let at = 0;
  texts.forEach((t, i) => {
    writeUtf16(memory, data + at * 2, t);
    new Uint32Array(memory.buffer, offsets, texts.length + 1)[i] = at;
    at += t.length;
  });
  new Uint32Array(memory.buffer, offsets, texts.length + 1)[texts.length] = at;
  return { data, offsets };
}

describe('glob ABI (raw module)', () => {
  it('X-14 compile a set, reset its cache, match packed paths: the bits equal picomatch', async () => {
    const { memory, fn } = await rawEngine();
    const alloc = arena(memory, fn.heapBase!());
    const patterns = ['**/*.md', 'src/**/*.{ts,tsx}', '!*.json', '[a-c]?/**'];
    const paths = ['README.md', 'src/a/b.tsx', 'package.json', 'b1/x', 'docs\\x.md', './src/c.ts', ''];
    const p = pack(memory, alloc, patterns);
    // Too little room first: the statuses say how much to retry with.
    let work = 64, outCap = 64;
    let out = alloc(outCap), scratch = alloc(work);
    let size = fn.globCompileSet!(p.data, p.offsets, patterns.length, 0, scratch, work, out, outCap);
    expect(size).toBe(-204);
    for (let attempt = 0; size === -204 && attempt < 16; attempt++) {
      work = Math.max(work, fn.globNeedWork!());
      outCap = Math.max(outCap, fn.globNeedOut!());
      scratch = alloc(work);
      out = alloc(outCap);
      size = fn.globCompileSet!(p.data, p.offsets, patterns.length, 0, scratch, work, out, outCap);
    }
    expect(size).toBeGreaterThan(0);
    // A DFA cache budget of 0 leaves every program on the Pike VM; a large one gives each its DFA.
    // Both must give the same bits.
    const cache = alloc(fn.globSetCacheBytes!(out, patterns.length, 1 << 24));
    fn.globSetCacheReset!(out, patterns.length, cache, 1 << 24);
    const noDfa = alloc(fn.globSetCacheBytes!(out, patterns.length, 0));
    expect(fn.globSetCacheBytes!(out, patterns.length, 0)).toBeLessThan(fn.globSetCacheBytes!(out, patterns.length, 1 << 24));
    fn.globSetCacheReset!(out, patterns.length, noDfa, 0);
    const q = pack(memory, alloc, paths);
    const longest = Math.max(...paths.map((s) => s.length));
    const matchWork = alloc(fn.globSetWorkspace!(out, patterns.length, longest));
    const bits = alloc(paths.length * 4);
    fn.globMatchSet!(out, patterns.length, q.data, q.offsets, paths.length, bits, matchWork, cache);
    const words = Array.from(new Uint32Array(memory.buffer, bits, paths.length));
    const normalized = paths.map((s) => s.replace(/\\/g, '/').replace(/^(\.\/)+/, ''));
    paths.forEach((path, i) => {
      const want = patterns.reduce((w, g, j) => (normalized[i] !== '' && picomatch(g)(normalized[i]!) ? w | (1 << j) : w), 0);
      expect(words[i], path).toBe(want);
    });
    const r = pack(memory, alloc, paths); // the first call normalized its paths in place
    const vmBits = alloc(paths.length * 4);
    fn.globMatchSet!(out, patterns.length, r.data, r.offsets, paths.length, vmBits, matchWork, noDfa);
    expect(Array.from(new Uint32Array(memory.buffer, vmBits, paths.length))).toEqual(words);
  });

  it('X-14 one program, one path; statuses for an empty, a too long and an unsupported pattern', async () => {
    const { memory, fn } = await rawEngine();
    const alloc = arena(memory, fn.heapBase!());
    const work = fn.globCompileWorkspace!(70000);
    const scratch = alloc(work);
    const out = alloc(1 << 20);
    const compile = (pattern: string, flags = 0): number => {
      const at = alloc(pattern.length * 2 + 2);
      writeUtf16(memory, at, pattern);
      return fn.globCompile!(at, pattern.length, flags, scratch, work, out, 1 << 20);
    };
    expect(compile('*', 1)).toBeGreaterThan(0);
    const path = alloc(16);
    writeUtf16(memory, path, '.env');
    const vm = alloc(fn.globMatchWorkspace!(out));
    expect(fn.globMatch!(out, path, 4, vm)).toBe(1);
    expect(compile('*')).toBeGreaterThan(0);
    writeUtf16(memory, path, '.env');
    expect(fn.globMatch!(out, path, 4, alloc(fn.globMatchWorkspace!(out)))).toBe(0);
    expect(compile('')).toBe(-201);
    expect(compile('é'.repeat(32769))).toBe(-202);
    expect(fn.globDetail!()).toBe(65538);
    expect(compile('src/@(a|b)')).toBe(-203);
    expect(fn.globDetail!()).toBe(4);
  });
});
