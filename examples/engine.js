// A standalone loader for dsh-context-engine's WASM module (build/engine.wasm, package export
// `dsh-context-engine/wasm`), written only against assembly/README.md. Plain JavaScript with no
// imports, so the same file runs unchanged in Node, Deno, Bun and browsers: each runtime's example
// (examples/<runtime>/) only reads the .wasm bytes its own way and hands them to loadEngine().
//
// Memory plan (the module allocates nothing; everything from heapBase() up is ours):
//   heapBase        128-byte hash context (16-byte aligned: heapBase is 64-byte aligned)
//   heapBase + 128  128 bytes for small outputs: hex digests, u32 results
//   heapBase + 256  the I/O area: inputs, glob programs and scratch, grown on demand (the module
//                   declares a maximum of 2048 pages, 128 MiB: memory.grow past it throws)

const PAGE_BYTES = 65536;
const CTX_BYTES = 128;
const OUT_BYTES = 128;
const NO_SPACE = -204; // glob status: retry with globNeedWork() / globNeedOut()
/** What a negative status of globCompile means (assembly/README.md, "Status codes"); `detail` is globDetail(). */
const GLOB_STATUS = {
  [-201]: () => 'empty pattern',
  [-202]: (detail) => `pattern is ${detail} UTF-8 bytes, over the 65,536 limit`,
  [-203]: (detail) => `unsupported syntax at index ${detail}`,
  [-205]: () => 'an internal bound was wrong (a bug: please report the pattern)',
};

/**
 * Instantiates the module from its bytes (an ArrayBuffer or Uint8Array) and returns a small engine
 * over its exports. The release build imports nothing, so `{}` is the whole import object.
 * @param {BufferSource} bytes
 */
export async function loadEngine(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, {});
  return new WasmEngine(instance.exports);
}

/** The ABI of assembly/README.md behind plain JavaScript values (strings, Uint8Array, booleans). */
export class WasmEngine {
  /** @param {any} exports the module's exports */
  constructor(exports) {
    this.wasm = exports;
    this.ctx = exports.heapBase();
    this.out = this.ctx + CTX_BYTES;
    this.io = this.out + OUT_BYTES;
    this.bytes = new Uint8Array(0);
    this.reserve(0);
  }

  /** Makes `size` bytes of the I/O area exist. Growing detaches the old buffer, so views are re-made. */
  reserve(size) {
    const memory = this.wasm.memory;
    const missing = this.io + size - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / PAGE_BYTES));
    if (this.bytes.buffer !== memory.buffer) {
      this.bytes = new Uint8Array(memory.buffer);
      this.units = new Uint16Array(memory.buffer);
      this.words = new Uint32Array(memory.buffer);
    }
  }

  /** Copies `data` to the I/O area and returns its address. */
  putBytes(data) {
    this.reserve(data.length);
    this.bytes.set(data, this.io);
    return this.io;
  }

  /** Writes `text` as UTF-16 code units (what charCodeAt gives) at `at`, which must be reserved. */
  writeUtf16(text, at) {
    const first = at >>> 1;
    for (let i = 0; i < text.length; i++) this.units[first + i] = text.charCodeAt(i);
  }

  /** Copies `text`'s code units to the I/O area and returns its address. */
  putUtf16(text) {
    this.reserve(text.length * 2);
    this.writeUtf16(text, this.io);
    return this.io;
  }

  /** The ASCII hex digest the last call wrote at `out` (one fromCharCode call: the cheapest way). */
  hex(length) {
    return String.fromCharCode.apply(null, this.bytes.subarray(this.out, this.out + length));
  }

  /** SHA-1 of bytes, as 40 lowercase hex characters. */
  sha1(data) {
    this.wasm.sha1Hex(this.ctx, this.putBytes(data), data.length, this.out);
    return this.hex(40);
  }

  /** SHA-256 of bytes, as 64 lowercase hex characters. */
  sha256(data) {
    this.wasm.sha256Hex(this.ctx, this.putBytes(data), data.length, this.out);
    return this.hex(64);
  }

  /**
   * SHA-256 of bytes as 32 raw bytes, what `crypto.subtle.digest` gives (but synchronously): the
   * streaming exports init, update and final, which also take input in as many pieces as you like.
   */
  sha256Digest(data) {
    this.wasm.sha256Init(this.ctx);
    this.wasm.sha256Update(this.ctx, this.putBytes(data), data.length);
    this.wasm.sha256Final(this.ctx, this.out);
    return this.bytes.slice(this.out, this.out + 32);
  }

  /** SHA-1 of a JS string's UTF-8 encoding, computed from its UTF-16 code units (no encoding step). */
  sha1OfString(text) {
    this.wasm.sha1HexUtf16(this.ctx, this.putUtf16(text), text.length, this.out);
    return this.hex(40);
  }

  /** SHA-256 of a JS string's UTF-8 encoding (a lone surrogate counts as U+FFFD, like TextEncoder). */
  sha256OfString(text) {
    this.wasm.sha256HexUtf16(this.ctx, this.putUtf16(text), text.length, this.out);
    return this.hex(64);
  }

  /** UTF-8 byte length of a JS string. */
  utf8Length(text) {
    return this.wasm.utf8LengthUtf16(this.putUtf16(text), text.length);
  }

  /** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a pair. */
  cutUtf8(text, maxBytes) {
    const units = this.wasm.utf8CutUtf16(this.putUtf16(text), text.length, maxBytes, this.out);
    return { text: text.slice(0, units), bytes: this.words[this.out >>> 2] };
  }

  /** Number of code points in `text` (a surrogate pair is one). */
  codePoints(text) {
    return this.wasm.codePointCountUtf16(this.putUtf16(text), text.length);
  }

  /** The longest prefix of `text` with at most `max` code points. */
  capCodePoints(text, max) {
    return text.slice(0, this.wasm.codePointOffsetUtf16(this.putUtf16(text), text.length, max));
  }

  /**
   * Compiles a picomatch-style glob into a program (a relocatable byte array). When the module
   * answers NO_SPACE it says how much workspace and output room it needs; retry with that.
   * @param {string} pattern
   * @param {{ dot?: boolean }} [options]
   */
  compileGlob(pattern, options = {}) {
    const flags = options.dot ? 1 : 0;
    const patternBytes = (pattern.length * 2 + 15) & ~15;
    let work = this.wasm.globCompileWorkspace(pattern.length);
    let outCap = 256; // deliberately small: the retry below grows it
    for (;;) {
      const workAt = this.io + patternBytes;
      const outAt = workAt + ((work + 15) & ~15);
      this.reserve(outAt - this.io + outCap);
      this.writeUtf16(pattern, this.io);
      const status = this.wasm.globCompile(this.io, pattern.length, flags, workAt, work, outAt, outCap);
      if (status >= 0) return this.bytes.slice(outAt, outAt + status);
      if (status !== NO_SPACE) {
        const reason = GLOB_STATUS[status]?.(this.wasm.globDetail()) ?? `status ${status}`;
        throw new Error(`glob ${JSON.stringify(pattern)}: ${reason}`);
      }
      const needWork = this.wasm.globNeedWork(); // 0 when the workspace was enough
      const needOut = this.wasm.globNeedOut(); // 0 when the output room was enough
      if (needWork <= work && needOut <= outCap) throw new Error(`glob ${JSON.stringify(pattern)}: no space, but no larger need`);
      work = Math.max(work, needWork);
      outCap = Math.max(outCap, needOut);
    }
  }

  /** Whether `path` matches a compiled program. The module normalizes the path in place (`\` to `/`, leading `./`). */
  matchGlob(program, path) {
    const programBytes = (program.length + 15) & ~15;
    const pathBytes = (path.length * 2 + 15) & ~15;
    this.reserve(programBytes + pathBytes);
    this.bytes.set(program, this.io);
    const pathAt = this.io + programBytes;
    const work = this.wasm.globMatchWorkspace(this.io);
    this.reserve(programBytes + pathBytes + work);
    this.writeUtf16(path, pathAt);
    return this.wasm.globMatch(this.io, pathAt, path.length, pathAt + pathBytes) === 1;
  }
}
