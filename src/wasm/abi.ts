/**
 * The WASM module's exports (assembly/index.ts), as the wrapper calls them. Pointers and lengths are
 * byte offsets into `memory`; see assembly/README.md for ownership and layouts.
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
  globSetCacheBytes(set: number, count: number): number;
  globSetCacheReset(set: number, count: number, cache: number): void;
  globSetWorkspace(set: number, count: number, maxUnits: number): number;
  globCompileSet(patterns: number, offsets: number, count: number, flags: number, work: number, workBytes: number, out: number, outCap: number): number;
  globFailedIndex(): number;
  globNeedWork(): number;
  globNeedOut(): number;
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
};

/** Every function export the wrapper relies on; instantiation checks them all. */
export const REQUIRED_FUNCTIONS = Object.keys(FUNCTIONS) as readonly FunctionExport[];

/** Sizes fixed by the module (assembly/README.md). */
export const HASH_CTX_SIZE = 128;
export const READ_CTX_SIZE = 512;
