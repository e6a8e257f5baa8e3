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

/**
 * The bytes of the file at `url`, read into a buffer of `room` bytes, which grows when the file is
 * larger. For a file that fits, this is one open, one read to the end, one more that finds the end,
 * and a close: fs.readFileSync also stats the file and sizes a Buffer for it, about 0.14 ms more of a
 * cold start for the engine's module (74 KB).
 * @param fs node:fs
 * @param url a file: URL
 * @param room the first buffer's size (at least 1)
 * @returns the file's bytes (a view of the buffer)
 */
export function readFileBytes(fs: NodeFs, url: URL, room: number): Uint8Array {
  const fd = fs.openSync(url, 'r');
  try {
    let bytes = new Uint8Array(room);
    let length = 0;
    for (;;) {
      if (length === bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, 4096));
        grown.set(bytes);
        bytes = grown;
      }
      const read = fs.readSync(fd, bytes, length, bytes.length - length, null);
      if (read === 0) return bytes.subarray(0, length);
      length += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}
