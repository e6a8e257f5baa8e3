// dsh-context-engine/engine: the WASM engine's facade. Callers see strings, Uint8Arrays and numbers;
// never pointers or WASM memory. The build bundles this file and everything it imports into
// lib/engine/index.js, minified (one small module loads much faster than a dozen), so code outside
// src/engine must import the engine through this file only: an inner module would bring a second
// WASM instance.
export { sha1Hex, sha256Hex, createDigest, digestMany } from './digest.js';
export type { Digest, DigestAlgorithm, DigestInput } from './digest.js';
export { utf8Length, fitsUtf8, truncateUtf8 } from './utf8.js';
export type { Utf8Truncation } from './utf8.js';
export { codePointLength, capCodePoints } from './text.js';
export { readBounded } from './read.js';
export type { ReadBoundedOptions, ReadChunk, ReadResult, ReadSource } from './read.js';
export {
  globMatch, compileGlobs, globSource, GlobSet, GLOB_MAX_PATTERN_BYTES, GLOB_MAX_SET_BYTES, GLOB_MAX_PATH_UNITS,
} from './glob.js';
export type { GlobOptions } from './glob.js';
export { ENGINE_MAX_MEMORY_BYTES } from '../wasm/sizes.js';
export {
  countTokens, encodeTokens, decodeTokens, loadTokenizer, tokenizerInfo, TOKENIZER_TABLE_URL, TOKEN_MAX_DECODE_BYTES,
  TOKEN_MAX_DECODE_IDS, TOKEN_MAX_PIECE_BYTES,
} from './tokens.js';
export type { TokenizerInfo } from './tokens.js';
