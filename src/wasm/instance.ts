// Loads and instantiates the engine's WASM module exactly once, at import time (top-level await), so
// that every engine function is synchronous afterwards. There is no JavaScript fallback: if the
// module cannot be loaded, importing the engine fails with the module's name and the reason.

import { instantiate, instantiateSync } from '@assemblyscript/loader';
import { REQUIRED_FUNCTIONS, type EngineExports } from './abi.js';

/** Where the release build lives relative to this file, in src/ and in lib/ alike. */
export const ENGINE_WASM_URL = new URL('../../build/engine.wasm', import.meta.url);

const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readModule(url: URL): Promise<Uint8Array> {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Instantiates engine bytes and checks that every export the wrapper calls is present. `name` is
 * used in the error, which always says which module failed and why.
 */
export async function instantiateEngine(bytes: Uint8Array, name: string): Promise<EngineExports> {
  let exports: Record<string, unknown>;
  try {
    if (isNode) {
      // The loader's instantiate() first asks whether its input is a fetch Response, and in Node
      // the first touch of the global Response loads the whole fetch implementation (about 40 ms).
      // Compiling here and instantiating the compiled module skips that question.
      ({ exports } = instantiateSync<Record<string, unknown>>(await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>), {}));
    } else {
      ({ exports } = await instantiate<Record<string, unknown>>(bytes, {}));
    }
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
