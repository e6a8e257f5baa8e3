// Loads and instantiates the engine's WASM module exactly once, at import time (top-level await), so
// that every engine function is synchronous afterwards. There is no JavaScript fallback: if the
// module cannot be loaded, importing the engine fails with the module's name and the reason.
//
// The release module imports nothing, so it is instantiated bare (a WebAssembly.Module, then an
// Instance): nothing else is loaded on the cold path. A module that imports something is the debug
// target (`npm run asbuild:debug`, assertions on), which imports AssemblyScript's `env.abort`; for
// it, and only for it, @assemblyscript/loader is loaded: its `abort` reads the message and the
// AssemblyScript file name out of the module's memory, so a failed assertion throws
// `abort: <message> at assembly/<file>.ts:<line>:<column>` instead of a bare `unreachable` trap.
// DSH_CONTEXT_ENGINE_DEBUG=1 in the environment makes the engine load the debug target.

import { REQUIRED_FUNCTIONS, type EngineExports } from './abi.js';
import { nodeFs, readFileBytes } from './node-fs.js';

interface ProcessLike {
  readonly versions?: { readonly node?: string };
  readonly env?: Readonly<Record<string, string | undefined>>;
}
const processLike = (globalThis as { process?: ProcessLike }).process;
const isNode = typeof processLike?.versions?.node === 'string';

/** Whether this realm runs the debug target (DSH_CONTEXT_ENGINE_DEBUG=1). */
export const DEBUG_TARGET = processLike?.env?.DSH_CONTEXT_ENGINE_DEBUG === '1';

/** Where the release build lives relative to this file, in src/ and in lib/ alike. */
export const RELEASE_WASM_URL = new URL('../../build/engine.wasm', import.meta.url);
/** Where the debug build lives (not in the npm package: `npm run asbuild:debug` writes it). */
export const DEBUG_WASM_URL = new URL('../../build/engine.debug.wasm', import.meta.url);
/** The module this realm loads. */
export const ENGINE_WASM_URL = DEBUG_TARGET ? DEBUG_WASM_URL : RELEASE_WASM_URL;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Room for the module in one read: the release build is about 74 KB (the debug build is larger). */
const MODULE_READ_ROOM = 128 * 1024;

async function readModule(url: URL): Promise<Uint8Array> {
  if (url.protocol === 'file:') {
    const fs = await nodeFs();
    if (fs === undefined) throw new Error('this runtime has no node:fs to read a file: URL');
    return readFileBytes(fs, url, MODULE_READ_ROOM);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Instantiates a module that imports nothing, without any helper. */
async function instantiateBare(module: WebAssembly.Module): Promise<WebAssembly.Exports> {
  // Node allows synchronous instantiation of any module; browsers may refuse it on the main thread
  // for large modules, so they get the asynchronous form.
  if (isNode) return new WebAssembly.Instance(module, {}).exports;
  return (await WebAssembly.instantiate(module, {})).exports;
}

/** Instantiates a module that imports AssemblyScript's `env` functions (the debug target). */
async function instantiateWithLoader(module: WebAssembly.Module): Promise<WebAssembly.Exports> {
  const { instantiate } = await import('@assemblyscript/loader');
  // The loader's exports object also carries its helpers; the instance's own exports are what the
  // adapters call.
  return (await instantiate<Record<string, unknown>>(module, {})).instance.exports;
}

/**
 * Instantiates engine bytes and checks that every export the wrapper calls is present. `name` is
 * used in the error, which always says which module failed and why.
 */
export async function instantiateEngine(bytes: Uint8Array, name: string): Promise<EngineExports> {
  let exports: Record<string, unknown>;
  try {
    // Node compiles synchronously: WebAssembly.compile only validates the module (V8 compiles each
    // function when it is first called) and then waits a task round trip, about 0.25 ms of a cold
    // start. Browsers may refuse large synchronous compiles on the main thread.
    const module = isNode ? new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>) : await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    exports = WebAssembly.Module.imports(module).length === 0 ? await instantiateBare(module) : await instantiateWithLoader(module);
  } catch (error) {
    throw new Error(`dsh-context-engine: cannot instantiate WASM module ${name}: ${reason(error)}`, { cause: error });
  }
  const missing: string[] = REQUIRED_FUNCTIONS.filter((key) => typeof exports[key] !== 'function');
  if (!(exports.memory instanceof WebAssembly.Memory)) missing.unshift('memory');
  if (missing.length > 0) {
    throw new Error(`dsh-context-engine: WASM module ${name} lacks exports: ${missing.join(', ')}`);
  }
  return exports as unknown as EngineExports;
}

async function loadEngine(url: URL): Promise<EngineExports> {
  let bytes: Uint8Array;
  try {
    bytes = await readModule(url);
  } catch (error) {
    throw new Error(`dsh-context-engine: cannot load WASM module ${url.href}: ${reason(error)}`, { cause: error });
  }
  return instantiateEngine(bytes, url.href);
}

/** The one engine instance of this JavaScript realm. */
export const engine: EngineExports = await loadEngine(ENGINE_WASM_URL);
