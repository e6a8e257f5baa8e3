// The facade's two ways through a call (issue 33): the path each call chooses (plain JavaScript for
// short strings, node:crypto and Buffer where the runtime has them, WASM for the rest) and WASM only.
// A suite run on both checks the WASM kernels against the references as much as the choice does.

import { afterAll, beforeAll, describe } from 'vitest';
import { useWasmOnly } from '../../src/engine/paths.js';

export const ENGINE_PATHS = [
  { name: 'each call on the path it chooses', wasmOnly: false },
  { name: 'every call in WASM', wasmOnly: true },
] as const;

/**
 * Runs `suite` once per path: its describes and tests nest under the path's name.
 * @param suite the describes to run
 */
export function onEveryPath(suite: () => void): void {
  describe.each(ENGINE_PATHS)('$name', ({ wasmOnly }) => {
    beforeAll(() => useWasmOnly(wasmOnly));
    afterAll(() => useWasmOnly(false));
    suite();
  });
}

/**
 * Keeps every call of this file in WASM: for suites about WASM memory, slots and limits.
 */
export function wasmOnlyInThisFile(): void {
  beforeAll(() => useWasmOnly(true));
  afterAll(() => useWasmOnly(false));
}
