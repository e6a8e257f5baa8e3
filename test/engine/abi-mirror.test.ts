// The ABI's numbers live in one AssemblyScript file (assembly/abi.ts) and are mirrored once in
// TypeScript (src/wasm/abi.ts). This test reads both and fails when they differ, when a status leaves
// its family's range, when two statuses share a value, or when another AssemblyScript file declares
// a status of its own. It also checks that src/engine goes through src/wasm's adapters only.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as abi from '../../src/wasm/abi.js';
import { ENGINE_MAX_MEMORY_BYTES, PAGE_BYTES } from '../../src/wasm/sizes.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

/** `export const NAME: type = literal;` declarations of an AssemblyScript file. */
function constants(source: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const m of source.matchAll(/^export const (\w+): (?:i32|u32|usize) = (-?(?:0x[0-9a-f]+|\d+));/gim)) {
    found.set(m[1]!, Number(m[2]!));
  }
  return found;
}

const assemblyFiles = (dir: string): string[] =>
  readdirSync(new URL(dir, ROOT), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? assemblyFiles(`${dir}${entry.name}/`) : entry.name.endsWith('.ts') ? [`${dir}${entry.name}`] : []);

const mirrored = Object.entries(abi as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number');

describe('X-14 one definition of the ABI numbers', () => {
  const declared = constants(read('assembly/abi.ts'));

  it('X-14 assembly/abi.ts and src/wasm/abi.ts declare the same names with the same values', () => {
    expect(declared.size).toBeGreaterThan(20);
    expect(new Map(mirrored)).toEqual(declared);
    // Every declaration of the file was read: none is written in a form the pattern above misses.
    expect(read('assembly/abi.ts').match(/^export const /gm)?.length).toBe(declared.size);
  });

  it('X-14 statuses are distinct and each lies in its family\'s range (-1xx UTF-8, -2xx globs, -3xx the tokenizer)', () => {
    const statuses = [...declared].filter(([, value]) => value < 0);
    expect(new Set(statuses.map(([, value]) => value)).size).toBe(statuses.length);
    for (const [name, value] of statuses) {
      if (name.startsWith('UTF8_')) expect(value, name).toBeLessThanOrEqual(-100);
      if (name.startsWith('UTF8_')) expect(value, name).toBeGreaterThan(-200);
      if (/^(GLOB|REGEX|CLASS)_/.test(name)) expect(value, name).toBeLessThanOrEqual(-200);
      if (/^(GLOB|REGEX|CLASS)_/.test(name)) expect(value, name).toBeGreaterThan(-300);
      if (/^(REGEX|CLASS)_/.test(name)) expect(value, `${name} is internal: -250 … -299`).toBeLessThanOrEqual(-250);
    }
    for (const [name, value] of statuses) {
      if (name.startsWith('TOKEN_')) expect(value, name).toBeLessThanOrEqual(-300);
      if (name.startsWith('TOKEN_')) expect(value, name).toBeGreaterThan(-400);
    }
    expect(statuses.filter(([name]) => !/^(UTF8|GLOB|REGEX|CLASS|TOKEN)_/.test(name))).toEqual([]);
    expect(statuses.filter(([, value]) => value <= -400)).toEqual([]);
  });

  it('X-14 no other AssemblyScript file declares a negative constant (a status outside abi.ts)', () => {
    const files = assemblyFiles('assembly/').filter((f) => f !== 'assembly/abi.ts');
    expect(files.length).toBeGreaterThan(15);
    const strays = files.flatMap((file) => [...read(file).matchAll(/const (\w+): i32 = -\d+/g)].map((m) => `${file}: ${m[1]}`));
    expect(strays).toEqual([]);
  });

  it('X-14 the module declares the maximum memory the engine enforces (asconfig.json maximumMemory)', async () => {
    const config = JSON.parse(read('asconfig.json')) as { options: { maximumMemory: number } };
    expect(config.options.maximumMemory * PAGE_BYTES).toBe(ENGINE_MAX_MEMORY_BYTES);
    // A fresh instance of the release module cannot grow past it.
    const { instance } = await WebAssembly.instantiate(readFileSync(new URL('build/engine.wasm', ROOT)), {});
    const memory = instance.exports.memory as WebAssembly.Memory;
    const pages = memory.buffer.byteLength / PAGE_BYTES;
    expect(() => memory.grow(config.options.maximumMemory - pages + 1)).toThrow(RangeError);
    expect(memory.buffer.byteLength).toBe(pages * PAGE_BYTES);
  });
});

describe('X-14 src/engine sees no pointers', () => {
  const ADAPTERS = ['../wasm/abi.js', '../wasm/glob.js', '../wasm/hash.js', '../wasm/node-fs.js', '../wasm/read.js', '../wasm/sizes.js', '../wasm/text.js', '../wasm/tokens.js'];

  it('X-14 the facade imports only the typed adapters of src/wasm, never its memory, instance or slots', () => {
    const files = readdirSync(new URL('src/engine/', ROOT)).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = read(`src/engine/${file}`);
      const wasmImports = [...source.matchAll(/from '(\.\.\/wasm\/[^']+)'/g)].map((m) => m[1]!);
      for (const spec of wasmImports) expect(ADAPTERS, `${file} imports ${spec}`).toContain(spec);
      expect(source, file).not.toMatch(/\bengine\.\w+\(|\bmemory\.buffer|heapBase/);
    }
  });
});
