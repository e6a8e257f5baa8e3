// Loading the WASM module (spec X-14): failures name the package, the module and the reason, with no
// fallback; the module itself does no I/O (no imports); and the built package exposes the engine and
// the raw module under its own name.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import * as facade from '../../src/engine/index.js';
import { DEBUG_WASM_URL, ENGINE_WASM_URL, instantiateEngine, RELEASE_WASM_URL } from '../../src/wasm/instance.js';
import { nodeHash } from '../support/reference.js';

/** Every export the facade needs, in the order the loader reports them (memory first). */
const EXPORTS = [
  'memory', 'heapBase',
  'sha1Init', 'sha1Update', 'sha1UpdateUtf16', 'sha1Final', 'sha1FinalHex', 'sha1Hex', 'sha1HexUtf16',
  'sha256Init', 'sha256Update', 'sha256UpdateUtf16', 'sha256Final', 'sha256FinalHex', 'sha256Hex', 'sha256HexUtf16',
  'sha1BatchHex', 'sha256BatchHex',
  'utf16ToUtf8', 'utf8LengthUtf16', 'utf8CutUtf16', 'utf8Decode',
  'codePointCountUtf16', 'codePointOffsetUtf16',
  'readInit', 'readUpdateUtf16', 'readUpdateBytes', 'readFinish',
  'globCompile', 'globCompileWorkspace', 'globTranslate', 'globDetail', 'globMatch', 'globMatchSet', 'globMatchWorkspace',
  'globSetCacheBytes', 'globSetCacheReset', 'globSetWorkspace', 'globCompileSet', 'globFailedIndex', 'globNeedWork', 'globNeedOut',
  'tokStateBytes', 'tokLoad', 'tokInfo', 'tokEncode', 'tokConsumed', 'tokDetail', 'tokDetail2', 'tokDecodeLength', 'tokDecode',
];

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]; // "\0asm", version 1
const EMPTY_MODULE = Uint8Array.from(HEADER);
// A module with one memory (1 page) exported as "memory", and nothing else.
const MEMORY_ONLY = Uint8Array.from([
  ...HEADER,
  0x05, 0x03, 0x01, 0x00, 0x01, // memory section: 1 memory, no maximum, 1 page
  0x07, 0x0a, 0x01, 0x06, ...Buffer.from('memory'), 0x02, 0x00, // export section: "memory" = memory 0
]);

const rejection = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(() => { throw new Error('expected a rejection'); }, (error: Error) => error);

describe('X-14 instantiation failures name the module and the reason', () => {
  it('X-14 garbage bytes reject with dsh-context-engine, the module name and the compiler\'s reason', async () => {
    const error = await rejection(instantiateEngine(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]), 'garbage.wasm'));
    expect(error).toBeInstanceOf(Error);
    expect(error.cause).toBeInstanceOf(WebAssembly.CompileError);
    const reason = (error.cause as Error).message;
    expect(reason.length).toBeGreaterThan(0);
    expect(error.message).toBe(`dsh-context-engine: cannot instantiate WASM module garbage.wasm: ${reason}`);
  });

  it('X-14 a truncated engine.wasm rejects the same way', async () => {
    const bytes = readFileSync(RELEASE_WASM_URL).subarray(0, 100);
    const error = await rejection(instantiateEngine(bytes, 'truncated engine'));
    expect(error.message).toMatch(/^dsh-context-engine: cannot instantiate WASM module truncated engine: \S/);
  });

  it('X-14 a valid empty module rejects with the list of every missing export', async () => {
    expect(WebAssembly.validate(EMPTY_MODULE)).toBe(true);
    const error = await rejection(instantiateEngine(EMPTY_MODULE, 'empty.wasm'));
    expect(error.message).toBe(`dsh-context-engine: WASM module empty.wasm lacks exports: ${EXPORTS.join(', ')}`);
  });

  it('X-14 a module exporting only its memory is missing every function', async () => {
    expect(WebAssembly.validate(MEMORY_ONLY)).toBe(true);
    const error = await rejection(instantiateEngine(MEMORY_ONLY, 'memory-only.wasm'));
    expect(error.message).toBe(`dsh-context-engine: WASM module memory-only.wasm lacks exports: ${EXPORTS.slice(1).join(', ')}`);
  });

  it('X-14 the real module instantiates again on its own, with exactly the exports listed above', async () => {
    const bytes = readFileSync(RELEASE_WASM_URL);
    const exports = await instantiateEngine(bytes, 'engine.wasm');
    expect(exports.memory).toBeInstanceOf(WebAssembly.Memory);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
    expect([...names].sort()).toEqual([...EXPORTS].sort());
  });

  it('X-14 the module does no I/O, reads no clock and uses no randomness: it imports nothing', () => {
    expect(WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(RELEASE_WASM_URL)))).toEqual([]);
  });

  it('X-14 the debug target (assertions on) has the same exports and computes the same digests', async () => {
    const bytes = readFileSync(DEBUG_WASM_URL);
    const debug = await instantiateEngine(bytes, 'engine.debug.wasm');
    const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
    expect([...names].sort()).toEqual([...EXPORTS].sort());
    // The raw ABI: a context, a 64-byte output and the input, all above heapBase().
    const ctx = debug.heapBase();
    const out = ctx + 128;
    const input = out + 128;
    for (const length of [0, 3, 55, 56, 63, 64, 65, 1000]) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff);
      new Uint8Array(debug.memory.buffer).set(data, input);
      debug.sha1Hex(ctx, input, length, out);
      expect(Buffer.from(debug.memory.buffer, out, 40).toString('latin1')).toBe(nodeHash('sha1', data));
      debug.sha256Hex(ctx, input, length, out);
      expect(Buffer.from(debug.memory.buffer, out, 64).toString('latin1')).toBe(nodeHash('sha256', data));
    }
  });

  it('X-14 the debug target\'s failed assertion is decoded by the loader into its message and AssemblyScript file:line', async () => {
    const debug = await instantiateEngine(readFileSync(DEBUG_WASM_URL), 'engine.debug.wasm');
    const lines = readFileSync(new URL('../../assembly/sha1.ts', import.meta.url), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('"a hash context must be 16-byte aligned"')) + 1;
    const column = lines[line - 1]!.indexOf('assert(') + 1;
    expect(line).toBeGreaterThan(0);
    expect(() => debug.sha1Init(debug.heapBase() + 1)).toThrow(`abort: a hash context must be 16-byte aligned at assembly/sha1.ts:${line}:${column}`);
    // The release build compiles the assertion away (noAssert): the same call is not checked there.
    const release = await instantiateEngine(readFileSync(RELEASE_WASM_URL), 'engine.wasm');
    expect(() => release.sha1Init(release.heapBase() + 1)).not.toThrow();
  });

  it('X-14 the release module is instantiated bare: @assemblyscript/loader is loaded only for a module with imports', async () => {
    vi.resetModules();
    let loaded = false;
    vi.doMock('@assemblyscript/loader', () => {
      loaded = true;
      return { instantiate: () => Promise.reject(new Error('the loader instantiated it')) };
    });
    try {
      const fresh = await import('../../src/wasm/instance.js');
      expect(fresh.engine.heapBase()).toBeGreaterThan(0);
      const release = await fresh.instantiateEngine(readFileSync(RELEASE_WASM_URL), 'engine.wasm');
      expect(typeof release.sha256Hex).toBe('function');
      expect(loaded).toBe(false);
      const error = await rejection(fresh.instantiateEngine(readFileSync(DEBUG_WASM_URL), 'engine.debug.wasm'));
      expect(error.message).toBe('dsh-context-engine: cannot instantiate WASM module engine.debug.wasm: the loader instantiated it');
      expect(loaded).toBe(true);
    } finally {
      vi.doUnmock('@assemblyscript/loader');
      vi.resetModules();
    }
  });

  it('X-14 when engine.wasm cannot be read, importing the engine fails with its URL and the reason', async () => {
    vi.resetModules();
    vi.doMock('../../src/wasm/node-fs.js', () => ({
      nodeFs: () => Promise.resolve({}),
      readFileBytes: () => { throw new Error('ENOENT: no such file or directory'); },
    }));
    try {
      const error = await rejection(import('../../src/wasm/instance.js'));
      expect(error.message).toBe(`dsh-context-engine: cannot load WASM module ${ENGINE_WASM_URL.href}: ENOENT: no such file or directory`);
    } finally {
      vi.doUnmock('../../src/wasm/node-fs.js');
      vi.resetModules();
    }
  });

  it('X-14 when engine.wasm is corrupt, importing the facade fails; there is no JavaScript fallback', async () => {
    vi.resetModules();
    vi.doMock('../../src/wasm/node-fs.js', () => ({
      nodeFs: () => Promise.resolve({}),
      readFileBytes: () => Uint8Array.from([0, 0x61, 0x73, 0x6d, 9, 9, 9, 9]),
    }));
    try {
      const error = await rejection(import('../../src/engine/index.js'));
      expect(error.message).toMatch(new RegExp(`^dsh-context-engine: cannot instantiate WASM module ${ENGINE_WASM_URL.href.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: \\S`));
    } finally {
      vi.doUnmock('../../src/wasm/node-fs.js');
      vi.resetModules();
    }
  });
});

describe('X-14 node:fs for the engine\'s file reads', () => {
  it('X-14 is the CommonJS module process.getBuiltinModule hands over when the runtime has it, else the imported one', async () => {
    const { nodeFs } = await import('../../src/wasm/node-fs.js');
    const cjs = createRequire(import.meta.url)('node:fs') as unknown;
    const getBuiltinModule = (process as { getBuiltinModule?: unknown }).getBuiltinModule;
    const viaBuiltin = await nodeFs();
    if (typeof getBuiltinModule === 'function') expect(viaBuiltin).toBe(cjs);
    const descriptor = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
    Object.defineProperty(process, 'getBuiltinModule', { value: undefined, configurable: true, writable: true });
    try {
      const imported = await nodeFs();
      expect(imported?.readFileSync).toBe((await import('node:fs')).readFileSync);
    } finally {
      if (descriptor === undefined) delete (process as { getBuiltinModule?: unknown }).getBuiltinModule;
      else Object.defineProperty(process, 'getBuiltinModule', descriptor);
    }
  });
});

describe('X-14 readFileBytes, how the engine reads its module', () => {
  it('X-14 gives a file\'s exact bytes whether it is shorter than the first buffer, as long, or longer', async () => {
    const { readFileBytes } = await import('../../src/wasm/node-fs.js');
    const fs = await import('node:fs');
    const dir = fs.mkdtempSync(join(tmpdir(), 'dsh-read-'));
    try {
      for (const size of [0, 1, 1000, 1024, 1025, 5000]) {
        const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) & 0xff);
        const file = join(dir, `f${size}`);
        fs.writeFileSync(file, bytes);
        for (const room of [1, 1024]) {
          const read = readFileBytes(fs, pathToFileURL(file), room);
          expect(read.length, `size ${size}, room ${room}`).toBe(size);
          expect(Buffer.from(read).equals(Buffer.from(bytes)), `size ${size}, room ${room}`).toBe(true);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('X-14 passes on the error of a file that cannot be opened', async () => {
    const { readFileBytes } = await import('../../src/wasm/node-fs.js');
    const fs = await import('node:fs');
    const missing = pathToFileURL(join(tmpdir(), 'dsh-read-missing', 'engine.wasm'));
    expect(() => readFileBytes(fs, missing, 1024)).toThrow(/^ENOENT: no such file or directory, open '.*engine\.wasm'$/);
  });
});

describe('X-14 packaging: the package imports itself by name', () => {
  const require = createRequire(import.meta.url);
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string; exports: Record<string, string | Record<string, string>>; files: string[];
  };

  it("X-14 every target in package.json's exports map exists after the build", () => {
    expect(pkg.name).toBe('dsh-context-engine');
    const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
    expect(targets).toContain('./build/engine.wasm');
    for (const target of targets) expect(existsSync(new URL(target, new URL('../../', import.meta.url))), target).toBe(true);
    expect(pkg.files).toContain('build/engine.wasm');
  });

  it("X-14 'dsh-context-engine/wasm' resolves (import.meta.resolve and require.resolve) to the built engine.wasm", () => {
    const viaImport = fileURLToPath(import.meta.resolve('dsh-context-engine/wasm'));
    const viaRequire = require.resolve('dsh-context-engine/wasm');
    expect(viaImport).toBe(`${root}build/engine.wasm`);
    expect(viaRequire).toBe(viaImport);
    expect(existsSync(viaImport)).toBe(true);
    expect(readFileSync(viaImport).equals(readFileSync(RELEASE_WASM_URL))).toBe(true);
  });

  it("X-14 await import('dsh-context-engine/engine') and the root export expose the same working functions", async () => {
    const byName = await import('dsh-context-engine/engine');
    const rootExport = await import('dsh-context-engine');
    const names = Object.keys(facade).sort();
    expect(names).toEqual(['ENGINE_MAX_MEMORY_BYTES', 'GLOB_MAX_PATH_UNITS', 'GLOB_MAX_PATTERN_BYTES', 'GLOB_MAX_SET_BYTES', 'GlobSet',
      'TOKENIZER_TABLE_URL', 'TOKEN_MAX_DECODE_BYTES', 'TOKEN_MAX_DECODE_IDS', 'TOKEN_MAX_PIECE_BYTES', 'capCodePoints', 'codePointLength',
      'compileGlobs', 'countTokens', 'createDigest', 'decodeTokens', 'digestMany', 'encodeTokens', 'fitsUtf8', 'globMatch', 'globSource', 'loadTokenizer',
      'readBounded', 'sha1Hex', 'sha256Hex', 'tokenizerInfo', 'truncateUtf8', 'utf8Length']);
    expect(Object.keys(byName).sort()).toEqual(names);
    expect(Object.keys(rootExport).sort()).toEqual(names);
    expect(fileURLToPath(import.meta.resolve('dsh-context-engine/engine'))).toBe(`${root}lib/engine/index.js`);
    const text = 'packaged é😀\uD800';
    expect(byName.sha1Hex(text)).toBe(nodeHash('sha1', text));
    expect(rootExport.sha256Hex(text)).toBe(nodeHash('sha256', text));
    // The packaged facade finds the packaged tokenizer table (build/deepseek-v3.tokenizer).
    expect(byName.countTokens('Hello, my dog is cute')).toBe(6);
    expect(fileURLToPath(byName.TOKENIZER_TABLE_URL)).toBe(`${root}build/deepseek-v3.tokenizer`);
    expect(byName.capCodePoints(text, 10)).toBe(facade.capCodePoints(text, 10));
    expect(await byName.readBounded([text], { maxBytes: 100 })).toEqual(await facade.readBounded([text], { maxBytes: 100 }));
    expect(rootExport.compileGlobs(['**/*.ts']).which('src/a.ts')).toEqual([0]);
    // One engine per realm: the root entry re-exports the same module, not a second WASM instance.
    expect(rootExport.GlobSet).toBe(byName.GlobSet);
    // The bundle is minified; the public class keeps its name.
    expect(byName.GlobSet.name).toBe('GlobSet');
  });

  it('X-14 the built engine entry is one self-contained module (bundled; imports only node: and the loader)', () => {
    const source = readFileSync(new URL('lib/engine/index.js', `file://${root}`), 'utf8');
    const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^;'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)]
      .map((m) => m[1] ?? m[2]);
    expect(specifiers.filter((s) => !s!.startsWith('node:'))).toEqual(['@assemblyscript/loader']);
  });
});
