// node:fs for the engine's two file reads (the .wasm at import, the tokenizer table on first use),
// without the cost of importing it as an ES module: `await import('node:fs')` builds an ES module
// namespace over every export of fs, about 1 ms of a cold start that is otherwise ~10 ms.
// process.getBuiltinModule (Node >= 20.16, Bun, recent Deno) hands over the already loaded CommonJS
// module instead; older runtimes import it.

type NodeFs = typeof import('node:fs');

interface ProcessWithBuiltins {
  readonly getBuiltinModule?: (id: string) => unknown;
}

/**
 * node:fs, or undefined in a runtime that has none (a browser).
 * @returns the module
 */
export async function nodeFs(): Promise<NodeFs | undefined> {
  const processLike = (globalThis as { process?: ProcessWithBuiltins }).process;
  const builtin = processLike?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  if (builtin !== undefined) return builtin;
  try {
    return await import('node:fs');
  } catch {
    return undefined;
  }
}
