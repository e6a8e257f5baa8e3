// The WASM module's ABI as the TypeScript side sees it: the exports (assembly/index.ts) with their
// signatures, and the numbers of assembly/abi.ts (statuses, flags, sizes), mirrored here once. The
// mirror is checked by test/engine/abi-mirror.test.ts, which reads both files: a status renumbered
// on one side only fails the build's tests instead of a caller's answer.

/**
 * The module's exports, as the adapters in this directory call them. Pointers and lengths are byte
 * offsets into `memory`; see assembly/README.md for ownership and layouts.
 */
export interface EngineExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;

  sha1Init(ctx: number): void;
  sha1Update(ctx: number, ptr: number, len: number): void;
  sha1UpdateUtf16(ctx: number, ptr: number, units: number): void;
  sha1Final(ctx: number, out: number): void;
  sha1FinalHex(ctx: number, out: number): void;
  sha1Hex(ctx: number, ptr: number, len: number, out: number): void;
  sha1HexUtf16(ctx: number, ptr: number, units: number, out: number): void;

  sha256Init(ctx: number): void;
  sha256Update(ctx: number, ptr: number, len: number): void;
  sha256UpdateUtf16(ctx: number, ptr: number, units: number): void;
  sha256Final(ctx: number, out: number): void;
  sha256FinalHex(ctx: number, out: number): void;
  sha256Hex(ctx: number, ptr: number, len: number, out: number): void;
  sha256HexUtf16(ctx: number, ptr: number, units: number, out: number): void;

  sha1BatchHex(data: number, offsets: number, count: number, out: number): void;
  sha256BatchHex(data: number, offsets: number, count: number, out: number): void;

  utf16ToUtf8(src: number, units: number, dst: number, pendingPtr: number): number;
  utf8LengthUtf16(ptr: number, units: number): number;
  utf8CutUtf16(ptr: number, units: number, maxBytes: number, bytesOut: number): number;
  utf8Decode(src: number, len: number, dst: number, final: number, consumedOut: number): number;

  codePointCountUtf16(ptr: number, units: number): number;
  codePointOffsetUtf16(ptr: number, units: number, max: number): number;

  readInit(rctx: number): void;
  readUpdateUtf16(rctx: number, src: number, units: number, scratch: number): number;
  readUpdateBytes(rctx: number, src: number, len: number, scratch: number, replace: number): number;
  readFinish(rctx: number, out: number, replace: number): number;

  globCompile(pattern: number, units: number, flags: number, work: number, workBytes: number, out: number, outCap: number): number;
  globCompileWorkspace(units: number): number;
  globTranslate(pattern: number, units: number, flags: number, work: number, workBytes: number, out: number, outCap: number): number;
  globDetail(): number;
  globMatch(program: number, path: number, units: number, work: number): number;
  globMatchSet(set: number, count: number, paths: number, offsets: number, pathCount: number, out: number, work: number, cache: number): void;
  globMatchWorkspace(program: number): number;
  globSetCacheBytes(set: number, count: number, dfaCap: number): number;
  globSetCacheReset(set: number, count: number, cache: number, dfaCap: number): void;
  globSetWorkspace(set: number, count: number, maxUnits: number): number;
  globCompileSet(patterns: number, offsets: number, count: number, flags: number, work: number, workBytes: number, out: number, outCap: number): number;
  globFailedIndex(): number;
  globNeedWork(): number;
  globNeedOut(): number;

  tokStateBytes(table: number, len: number): number;
  tokLoad(table: number, len: number, tok: number, stateCap: number): number;
  tokInfo(tok: number, field: number): number;
  tokEncode(tok: number, text: number, units: number, flags: number, work: number, workBytes: number, ids: number, idsCap: number): number;
  tokConsumed(): number;
  tokDetail(): number;
  tokDetail2(): number;
  tokDecodeLength(tok: number, ids: number, count: number): number;
  tokDecode(tok: number, ids: number, count: number, out: number, scratch: number): number;
}

type FunctionExport = Exclude<keyof EngineExports, 'memory'>;

// A record keyed by every function of EngineExports: the compiler rejects a missing or extra name,
// so the runtime check below cannot drift from the interface.
const FUNCTIONS: Record<FunctionExport, true> = {
  heapBase: true,
  sha1Init: true, sha1Update: true, sha1UpdateUtf16: true, sha1Final: true, sha1FinalHex: true, sha1Hex: true,
  sha1HexUtf16: true,
  sha256Init: true, sha256Update: true, sha256UpdateUtf16: true, sha256Final: true, sha256FinalHex: true,
  sha256Hex: true, sha256HexUtf16: true,
  sha1BatchHex: true, sha256BatchHex: true,
  utf16ToUtf8: true, utf8LengthUtf16: true, utf8CutUtf16: true, utf8Decode: true,
  codePointCountUtf16: true, codePointOffsetUtf16: true,
  readInit: true, readUpdateUtf16: true, readUpdateBytes: true, readFinish: true,
  globCompile: true, globCompileWorkspace: true, globTranslate: true, globDetail: true, globMatch: true,
  globMatchSet: true, globMatchWorkspace: true, globSetCacheBytes: true, globSetCacheReset: true, globSetWorkspace: true,
  globCompileSet: true, globFailedIndex: true, globNeedWork: true, globNeedOut: true,
  tokStateBytes: true, tokLoad: true, tokInfo: true, tokEncode: true, tokConsumed: true, tokDetail: true, tokDetail2: true,
  tokDecodeLength: true, tokDecode: true,
};

/** Every function export the adapters rely on; instantiation checks them all. */
export const REQUIRED_FUNCTIONS = Object.keys(FUNCTIONS) as readonly FunctionExport[];

// ---- the numbers of assembly/abi.ts (same names, same values; see the file header) --------------

// UTF-8 and bounded reads (-1xx)
export const UTF8_INVALID = -101;

// globs (-2xx)
export const GLOB_EMPTY = -201;
export const GLOB_TOO_LONG = -202;
export const GLOB_UNSUPPORTED = -203;
export const GLOB_NO_SPACE = -204;
export const GLOB_INTERNAL = -205;
export const REGEX_INVALID = -251;
export const REGEX_UNSUPPORTED = -252;
export const REGEX_NO_SPACE = -253;
export const CLASS_INVALID = -261;
export const CLASS_UNSUPPORTED = -262;

// the tokenizer (-3xx)
export const TOKEN_BAD_TABLE = -301;
export const TOKEN_NO_SPACE = -302;
export const TOKEN_PIECE_TOO_LONG = -303;
export const TOKEN_BAD_ID = -304;
export const TOKEN_NOT_LOADED = -305;

// flags
export const GLOB_FLAG_DOT = 1;
export const GLOB_RESULT_NEGATED = 2;
export const GLOB_RESULT_INVALID = 4;
export const PROGRAM_NEGATED = 2;
export const PROGRAM_NEVER = 4;
export const PROGRAM_SUFFIX_OPT_SLASH = 0x40000000;
export const TOKEN_FLAG_FINAL = 1;
export const TOKEN_FLAG_IDS = 2;

// sizes
export const HASH_CTX_SIZE = 128;
export const READ_CTX_SIZE = 512;
export const SHA1_HEX_SIZE = 40;
export const SHA256_HEX_SIZE = 64;
export const GLOB_MAX_PATTERN_BYTES = 65536;
export const TOKEN_TABLE_HEADER_BYTES = 64;
export const TOKEN_WORK_BYTES_PER_BYTE = 28;
export const TOKEN_WORK_EXTRA_BYTES = 256;
export const HOST_ALIGN = 64;
