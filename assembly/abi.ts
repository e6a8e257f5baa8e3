// The numbers of the ABI, in one place: every status a function can return, every flag that crosses
// the boundary or sits in a layout the host reads, and the sizes of the regions the host lays out.
// src/wasm/abi.ts mirrors this file name for name, value for value; test/engine/abi-mirror.test.ts
// reads both and fails when they differ. Write every value here as a plain decimal or hex literal
// (the test reads the text, it does not evaluate it).
//
// Statuses are negative, and each family owns a block of 100 so that no status can be mistaken for
// another family's (a value is only ever compared within its family, but a stray one should still be
// recognisable from its number alone):
//   -100 … -199  UTF-8 decoding and bounded reads
//   -200 … -249  glob compilation, as exports return it
//   -250 … -299  glob compilation, internal (never returned by an export: compile.ts turns them into
//                the statuses above)
//   -300 … -399  the DeepSeek V3 tokenizer
//   -400 and below  unassigned

// ---- UTF-8 and bounded reads (-1xx) -------------------------------------------------------------

/** Ill-formed UTF-8 (fatal decoding): utf8Decode in validate mode, readUpdateBytes, readFinish. */
export const UTF8_INVALID: i32 = -101;

// ---- globs (-2xx) -------------------------------------------------------------------------------

/** The pattern is empty. */
export const GLOB_EMPTY: i32 = -201;
/** The pattern is over GLOB_MAX_PATTERN_BYTES UTF-8 bytes; globDetail() holds its length. */
export const GLOB_TOO_LONG: i32 = -202;
/** Syntax the engine refuses; globDetail() holds the index of the offending code unit. */
export const GLOB_UNSUPPORTED: i32 = -203;
/** `work` or `out` is too small; globNeedWork() / globNeedOut() say how much to retry with. */
export const GLOB_NO_SPACE: i32 = -204;
/** An internal bound was wrong: a bug (please report the pattern). */
export const GLOB_INTERNAL: i32 = -205;

// Internal to the compiler: the regex parser's and the class parser's failures.
/** The regex text is one JavaScript would reject: the program then matches only its own text. */
export const REGEX_INVALID: i32 = -251;
/** The regex text uses syntax the regex compiler does not implement (never emitted for globs). */
export const REGEX_UNSUPPORTED: i32 = -252;
/** The instruction buffer is full. */
export const REGEX_NO_SPACE: i32 = -253;
/** A character class JavaScript would reject (out-of-order range, unterminated). */
export const CLASS_INVALID: i32 = -261;
/** A class escape the compiler does not implement (never emitted for globs). */
export const CLASS_UNSUPPORTED: i32 = -262;

// ---- the tokenizer (-3xx) -----------------------------------------------------------------------

/** The tokenizer table is not one this module reads; tokDetail() holds the byte offset of the check that failed. */
export const TOKEN_BAD_TABLE: i32 = -301;
/** `stateCap` (tokLoad) or `outCap` (tokEncode) is too small; tokDetail() holds the bytes or ids needed. */
export const TOKEN_NO_SPACE: i32 = -302;
/** A pre-token's UTF-8 is over what `work` holds; tokDetail() holds its bytes, tokDetail2() its first code unit. */
export const TOKEN_PIECE_TOO_LONG: i32 = -303;
/** tokDecode: an id that is neither a vocabulary token nor an added token; tokDetail() holds its index. */
export const TOKEN_BAD_ID: i32 = -304;
/** The state at `tok` is not a loaded tokenizer (tokLoad has not built it there). */
export const TOKEN_NOT_LOADED: i32 = -305;

// ---- flags --------------------------------------------------------------------------------------

/** globCompile / globCompileSet / globTranslate `flags`: picomatch's `dot` option. */
export const GLOB_FLAG_DOT: i32 = 1;
/** globDetail() after globTranslate, and the translator's result flags: the pattern is negated. */
export const GLOB_RESULT_NEGATED: i32 = 2;
/** globDetail() after globTranslate: the regex source is not a valid JavaScript RegExp. */
export const GLOB_RESULT_INVALID: i32 = 4;
/** Program header flags (offset 4): the program is negated. */
export const PROGRAM_NEGATED: i32 = 2;
/** Program header flags: the program matches nothing but its own pattern text. */
export const PROGRAM_NEVER: i32 = 4;
/** Program header suffix length (offset 36): bit set when an optional `/` may follow the suffix. */
export const PROGRAM_SUFFIX_OPT_SLASH: i32 = 0x40000000;

/** tokEncode `flags`: the text ends where the input ends (otherwise the last pre-token may continue). */
export const TOKEN_FLAG_FINAL: i32 = 1;
/** tokEncode `flags`: write the ids at `out` (otherwise only count them). */
export const TOKEN_FLAG_IDS: i32 = 2;

// ---- sizes --------------------------------------------------------------------------------------

/** Bytes of a hash context (SHA-1 or SHA-256); 16-byte aligned. */
export const HASH_CTX_SIZE: i32 = 128;
/** Bytes of a bounded-read context; 16-byte aligned. */
export const READ_CTX_SIZE: i32 = 512;
/** Hex characters of a SHA-1 digest. */
export const SHA1_HEX_SIZE: i32 = 40;
/** Hex characters of a SHA-256 digest. */
export const SHA256_HEX_SIZE: i32 = 64;
/** Longest glob pattern, in UTF-8 bytes (picomatch's limit is the same number, in UTF-16 units). */
export const GLOB_MAX_PATTERN_BYTES: i32 = 65536;
/** Bytes of the tokenizer table's header (tokStateBytes reads only these). */
export const TOKEN_TABLE_HEADER_BYTES: i32 = 64;
/** `work` bytes tokEncode needs per UTF-8 byte of its longest pre-token (plus TOKEN_WORK_EXTRA_BYTES). */
export const TOKEN_WORK_BYTES_PER_BYTE: i32 = 28;
/** Fixed `work` bytes tokEncode needs besides TOKEN_WORK_BYTES_PER_BYTE per byte. */
export const TOKEN_WORK_EXTRA_BYTES: i32 = 256;
/** Alignment of heapBase() and of the host's I/O area. */
export const HOST_ALIGN: i32 = 64;
