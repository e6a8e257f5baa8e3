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
// loadTokenizer() builds the tokenizer's state (about 3.4 MB) at the start of the I/O area and keeps
// it there: the I/O area then starts after it.

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

const TOKEN_FLAG_FINAL = 1; // tokEncode: the text ends here
const TOKEN_FLAG_IDS = 2; // tokEncode: write the ids
const TOKEN_WORK_BYTES_PER_BYTE = 28; // tokEncode's work per UTF-8 byte of the longest pre-token
const TOKEN_WORK_EXTRA_BYTES = 256;
const TOKEN_CHUNK_UNITS = 32768; // code units per tokEncode call (a chunk grows around a longer pre-token)
const TOKEN_MAX_PIECE_BYTES = 1 << 21; // refuse pre-tokens longer than this (their BPE needs 28 bytes a byte)
/** What a negative status of the tokenizer means; `detail` is tokDetail(). */
const TOKEN_STATUS = {
  [-301]: (detail) => `not a tokenizer table (the check at byte ${detail} failed)`,
  [-302]: (detail) => `no space (${detail} needed)`,
  [-303]: (detail) => `a pre-token of ${detail} UTF-8 bytes is longer than the work area holds`,
  [-304]: (detail) => `ids[${detail}] is no token`,
  [-305]: () => 'the tokenizer is not loaded',
};

const align16 = (n) => (n + 15) & ~15;

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

  // ---- the DeepSeek V3 tokenizer (assembly/README.md, "Tokenizer") ----------------------------

  /**
   * Loads the tokenizer table (the bytes of build/deepseek-v3.tokenizer, package export
   * `dsh-context-engine/tokenizer-table`): tokStateBytes reads its header, tokLoad builds the state
   * at the start of the I/O area, and the I/O area moves past it for good.
   * @param {Uint8Array} table
   */
  loadTokenizer(table) {
    this.reserve(64);
    this.bytes.set(table.subarray(0, 64), this.io);
    const size = this.wasm.tokStateBytes(this.io, table.length);
    if (size < 0) throw new Error(`tokenizer table: ${TOKEN_STATUS[size](this.wasm.tokDetail())}`);
    this.reserve(align16(size) + table.length);
    this.bytes.set(table, this.io + align16(size));
    const status = this.wasm.tokLoad(this.io + align16(size), table.length, this.io, size);
    if (status < 0) throw new Error(`tokenizer table: ${TOKEN_STATUS[status](this.wasm.tokDetail())}`);
    this.tok = this.io;
    this.io += (size + 63) & ~63;
  }

  /**
   * Runs tokEncode over `text` chunk by chunk: each call stops before a pre-token the chunk's end may
   * still change, tokConsumed() says where, and the next chunk starts there (a chunk that one
   * pre-token fills is doubled). Returns the count and, with `wantIds`, the ids.
   */
  tokenize(text, wantIds) {
    const ids = [];
    let count = 0;
    let chunk = TOKEN_CHUNK_UNITS;
    for (let start = 0; start < text.length;) {
      let end = Math.min(text.length, start + chunk);
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--; // never split a pair
      const units = end - start;
      const final = end === text.length;
      const workBytes = TOKEN_WORK_BYTES_PER_BYTE * Math.min(3 * units, TOKEN_MAX_PIECE_BYTES) + TOKEN_WORK_EXTRA_BYTES;
      const workAt = this.io + align16(2 * units);
      const idsAt = workAt + align16(workBytes);
      const idsCap = wantIds ? 3 * units : 0;
      this.reserve(idsAt - this.io + 4 * idsCap);
      this.writeUtf16(text.slice(start, end), this.io);
      const flags = (final ? TOKEN_FLAG_FINAL : 0) | (wantIds ? TOKEN_FLAG_IDS : 0);
      const n = this.wasm.tokEncode(this.tok, this.io, units, flags, workAt, workBytes, idsAt, idsCap);
      if (n < 0) throw new Error(`tokenize: ${TOKEN_STATUS[n](this.wasm.tokDetail())}`);
      count += n;
      if (wantIds) ids.push(...this.words.subarray(idsAt >>> 2, (idsAt >>> 2) + n));
      const used = this.wasm.tokConsumed();
      if (used === 0 && !final) {
        if (units >= 2 * TOKEN_MAX_PIECE_BYTES) throw new Error('tokenize: a pre-token is longer than the limit');
        chunk = 2 * units;
        continue;
      }
      start += used;
      chunk = TOKEN_CHUNK_UNITS;
    }
    return { count, ids };
  }

  /** The number of DeepSeek V3 tokens in `text`. */
  countTokens(text) {
    return this.tokenize(text, false).count;
  }

  /** The DeepSeek V3 token ids of `text`. */
  encodeTokens(text) {
    return this.tokenize(text, true).ids;
  }

  /** The text of DeepSeek V3 token ids (tokDecode writes well-formed UTF-8; a BOM is kept). */
  decodeTokens(ids) {
    this.reserve(4 * ids.length);
    this.words.set(ids, this.io >>> 2);
    const bytes = this.wasm.tokDecodeLength(this.tok, this.io, ids.length);
    if (bytes < 0) throw new Error(`decodeTokens: ${TOKEN_STATUS[bytes](this.wasm.tokDetail())}`);
    const scratch = this.io + align16(4 * ids.length);
    const out = scratch + align16(bytes + 16);
    this.reserve(out - this.io + 3 * bytes + 16);
    const written = this.wasm.tokDecode(this.tok, this.io, ids.length, out, scratch);
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(this.bytes.subarray(out, out + written));
  }
}
