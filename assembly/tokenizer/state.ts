// The tokenizer's resident state: built once by tokLoad from the table file (scripts/tokenizer-table.mjs
// writes it; assembly/README.md "Tokenizer" documents both layouts) into memory the host hands over,
// and read by every later call through the `tok` address the host passes in. Every reference inside
// the state is an offset from its start, so the host may move the state (copy it elsewhere) and keep
// using it. The numbers here name the table's layout; the statuses are in ../abi.ts.

import { TOKEN_BAD_TABLE, TOKEN_NO_SPACE, TOKEN_NOT_LOADED, TOKEN_TABLE_HEADER_BYTES } from "../abi";

// ---- the table file ------------------------------------------------------------------------------

const TABLE_MAGIC: u32 = 0x4b545344; // "DSTK"
const TABLE_FORMAT: u32 = 1;
// Header fields (u32, little-endian), by byte offset.
const T_MAGIC: usize = 0;
const T_FORMAT: usize = 4;
const T_TOTAL: usize = 8;
const T_VOCAB: usize = 12;
const T_MERGES: usize = 16;
const T_FIRST_MERGE: usize = 20;
const T_ADDED: usize = 24;
const T_ADDED_UNITS: usize = 28;
const T_BLOCKS: usize = 32;
const T_UNICODE: usize = 36;
const T_MAX_ADDED_UNITS: usize = 40;
const BYTE_VALUES: usize = 256;
const MERGE_RECORD_BYTES: usize = 6; // two 24-bit ids
/** Code points per class block; 0x1100 blocks cover U+0000..U+10FFFF. */
export const BLOCK_CODE_POINTS: usize = 256;
const BLOCK_COUNT: usize = 0x110000 / BLOCK_CODE_POINTS;
/** Ids, ranks and merge keys are packed into 20-bit fields. */
const MAX_ID: u32 = (1 << 20) - 1;
const CLASS_COUNT: u32 = 8;
const LESS_THAN: u32 = 0x3c; // '<': every added token starts with it
const GREATER_THAN: u32 = 0x3e; // '>': and ends with its only one

// ---- the state ------------------------------------------------------------------------------------

const STATE_MAGIC: u32 = 0x4b4f5444; // "DTOK"
// State header fields (u32), by byte offset; every *_AT field is an offset from the state's start.
const S_MAGIC: usize = 0;
const S_VOCAB: usize = 4;
const S_FIRST_MERGE: usize = 8;
const S_MERGES: usize = 12;
const S_ADDED: usize = 16;
const S_MAX_ADDED_UNITS: usize = 20;
const S_HASH_BITS: usize = 24;
const S_HASH_AT: usize = 28;
const S_PAIRS_AT: usize = 32;
const S_LENGTHS_AT: usize = 36;
const S_BYTE_IDS_AT: usize = 40;
const S_ID_BYTES_AT: usize = 44;
const S_ADDED_AT: usize = 48;
const S_ADDED_TEXT_AT: usize = 52;
const S_ADDED_HASH_BITS: usize = 56;
const S_ADDED_HASH_AT: usize = 60;
const S_ADDED_ID_HASH_AT: usize = 64;
const S_BLOCK_INDEX_AT: usize = 68;
const S_BLOCKS_AT: usize = 72;
const S_UNICODE: usize = 76;
const S_TOTAL: usize = 80;
const STATE_HEADER_BYTES: usize = 128;
/** An added token's record: id, offset of its text (units), its length (units). */
const ADDED_RECORD_BYTES: usize = 12;

/** Why the last call failed (a byte offset, a size, an index): see tokDetail() in ../abi.ts statuses. */
export let detail: i32 = 0;
/** A second number for TOKEN_PIECE_TOO_LONG: the code unit where the pre-token starts. */
export let detail2: i32 = 0;

/** Records the numbers a failing call's status carries (read back by tokDetail and tokDetail2). */
export function setDetail(first: i32, second: i32): void {
  detail = first;
  detail2 = second;
}

// The loaded state's parts as absolute addresses, set by bind() at the start of every call that reads
// them (no call relies on what an earlier call left here).
export let vocabSize: u32 = 0;
export let firstMergeId: u32 = 0;
export let mergeCount: u32 = 0;
export let maxAddedUnits: u32 = 0;
export let hashAt: usize = 0;
export let hashMask: u32 = 0;
export let hashShift: u64 = 0;
export let pairsAt: usize = 0;
export let lengthsAt: usize = 0;
export let byteIdsAt: usize = 0;
export let idBytesAt: usize = 0;
export let addedAt: usize = 0;
export let addedTextAt: usize = 0;
export let addedHashAt: usize = 0;
export let addedIdHashAt: usize = 0;
export let addedHashMask: u32 = 0;
let addedHashShift: u64 = 0;
export let blockIndexAt: usize = 0;
export let blocksAt: usize = 0;

/** Binds the state at `tok` for this call; false when `tok` holds no loaded tokenizer. */
export function bind(tok: usize): bool {
  if (load<u32>(tok + S_MAGIC) != STATE_MAGIC) return false;
  vocabSize = load<u32>(tok + S_VOCAB);
  firstMergeId = load<u32>(tok + S_FIRST_MERGE);
  mergeCount = load<u32>(tok + S_MERGES);
  maxAddedUnits = load<u32>(tok + S_MAX_ADDED_UNITS);
  const bits = load<u32>(tok + S_HASH_BITS);
  hashMask = (1 << bits) - 1;
  hashShift = 64 - <u64>bits;
  hashAt = tok + load<u32>(tok + S_HASH_AT);
  pairsAt = tok + load<u32>(tok + S_PAIRS_AT);
  lengthsAt = tok + load<u32>(tok + S_LENGTHS_AT);
  byteIdsAt = tok + load<u32>(tok + S_BYTE_IDS_AT);
  idBytesAt = tok + load<u32>(tok + S_ID_BYTES_AT);
  addedAt = tok + load<u32>(tok + S_ADDED_AT);
  addedTextAt = tok + load<u32>(tok + S_ADDED_TEXT_AT);
  const addedBits = load<u32>(tok + S_ADDED_HASH_BITS);
  addedHashMask = (1 << addedBits) - 1;
  addedHashShift = 64 - <u64>addedBits;
  addedHashAt = tok + load<u32>(tok + S_ADDED_HASH_AT);
  addedIdHashAt = tok + load<u32>(tok + S_ADDED_ID_HASH_AT);
  blockIndexAt = tok + load<u32>(tok + S_BLOCK_INDEX_AT);
  blocksAt = tok + load<u32>(tok + S_BLOCKS_AT);
  return true;
}

// ---- lookups ------------------------------------------------------------------------------------

/** Merge ranks are ≥ 0; NO_RANK marks a pair that does not merge. */
export const NO_RANK: u32 = 0xffffffff;
const FIBONACCI: u64 = 0x9e3779b97f4a7c15;
const FIELD_BITS: u64 = 20;
const FIELD_MASK: u64 = (1 << 20) - 1;

// @ts-ignore: decorator
@inline function slotOf(key: u64, mask: u32, shift: u64): u32 {
  return <u32>((key * FIBONACCI) >> shift) & mask;
}

/** The rank of the merge of tokens `a` and `b` (its result is firstMergeId + rank), or NO_RANK. */
// @ts-ignore: decorator
@inline export function rankOf(a: u32, b: u32): u32 {
  const key = (<u64>a << FIELD_BITS) | <u64>b;
  let slot = slotOf(key, hashMask, hashShift);
  while (true) {
    const entry = load<u64>(hashAt + (<usize>slot << 3));
    if (entry == 0) return NO_RANK;
    if ((entry >> FIELD_BITS) == key) return <u32>(entry & FIELD_MASK) - 1;
    slot = (slot + 1) & hashMask;
  }
}

/** The pre-tokenizer class of code point `cp` (classes.ts names them). */
// @ts-ignore: decorator
@inline export function classOf(cp: u32): u32 {
  return <u32>load<u8>(blocksAt + (<usize>load<u8>(blockIndexAt + (cp >> 8)) << 8) + (cp & 0xff));
}

/** The id of the token of one byte. */
// @ts-ignore: decorator
@inline export function byteId(b: u32): u32 {
  return load<u32>(byteIdsAt + (<usize>b << 2));
}

function hashUnits(ptr: usize, units: usize): u32 {
  let h: u32 = 0x811c9dc5; // FNV-1a over code units
  for (let i: usize = 0; i < units; i++) h = (h ^ <u32>load<u16>(ptr + (i << 1))) * 0x01000193;
  return h;
}

/**
 * The id of the added token whose text is the `units` code units at `ptr`, or -1. The caller passes
 * text that starts with `<` and ends at the next `>`.
 */
export function addedIdOf(ptr: usize, units: usize): i32 {
  let slot = hashUnits(ptr, units) & addedHashMask;
  while (true) {
    const entry = load<u32>(addedHashAt + (<usize>slot << 2));
    if (entry == 0) return -1;
    const record = addedAt + <usize>(entry - 1) * ADDED_RECORD_BYTES;
    if (<usize>load<u32>(record + 8) == units && memory.compare(addedTextAt + (<usize>load<u32>(record + 4) << 1), ptr, units << 1) == 0) {
      return <i32>load<u32>(record);
    }
    slot = (slot + 1) & addedHashMask;
  }
}

/** The record of added token `id` (id, text offset, units), or 0 when `id` is not one. */
export function addedRecordOf(id: u32): usize {
  let slot = slotOf(<u64>id, addedHashMask, addedHashShift);
  while (true) {
    const entry = load<u32>(addedIdHashAt + (<usize>slot << 2));
    if (entry == 0) return 0;
    const record = addedAt + <usize>(entry - 1) * ADDED_RECORD_BYTES;
    if (load<u32>(record) == id) return record;
    slot = (slot + 1) & addedHashMask;
  }
}

// ---- building the state ---------------------------------------------------------------------------

/** The smallest power-of-two exponent whose table keeps `count` entries at most half full. */
function bitsFor(count: u32): u32 {
  let bits: u32 = 4;
  while ((<u64>1 << bits) < <u64>count * 2) bits++;
  return bits;
}

// @ts-ignore: decorator
@inline function align16(n: usize): usize {
  return (n + 15) & ~(<usize>15);
}

// Where each part of the state goes (offsets from its start), from the table's counts: set by
// planState. Plain globals: the module has no allocator (`--runtime stub`), so no object is made.
let planHash: usize = 0;
let planPairs: usize = 0;
let planLengths: usize = 0;
let planByteIds: usize = 0;
let planIdBytes: usize = 0;
let planAdded: usize = 0;
let planAddedText: usize = 0;
let planAddedHash: usize = 0;
let planAddedIdHash: usize = 0;
let planBlockIndex: usize = 0;
let planBlocks: usize = 0;

/** Lays out the state's parts; returns its total size. */
function planState(vocab: u32, merges: u32, firstMerge: u32, added: u32, addedUnits: u32, blocks: u32): usize {
  let at = STATE_HEADER_BYTES;
  planHash = at;
  at = align16(at + ((<usize>1 << bitsFor(merges)) << 3));
  planPairs = at;
  at = align16(at + <usize>merges * 8);
  planLengths = at;
  at = align16(at + <usize>vocab * 2);
  planByteIds = at;
  at = align16(at + BYTE_VALUES * 4);
  planIdBytes = at;
  at = align16(at + <usize>firstMerge * 2);
  planAdded = at;
  at = align16(at + <usize>added * ADDED_RECORD_BYTES);
  planAddedText = at;
  at = align16(at + <usize>addedUnits * 2);
  const addedSlots = <usize>1 << bitsFor(added);
  planAddedHash = at;
  at = align16(at + addedSlots * 4);
  planAddedIdHash = at;
  at = align16(at + addedSlots * 4);
  planBlockIndex = at;
  at = align16(at + BLOCK_COUNT);
  planBlocks = at;
  return align16(at + <usize>blocks * BLOCK_CODE_POINTS);
}

/** Fails a table check: the detail is the byte offset in the table where it failed. */
function badTable(at: usize): i32 {
  detail = <i32>at;
  return TOKEN_BAD_TABLE;
}

/**
 * The state bytes a table needs, from its header alone (`len` ≥ TOKEN_TABLE_HEADER_BYTES bytes at
 * `table`): the size to give tokLoad, or TOKEN_BAD_TABLE (not this module's table format).
 */
export function tokStateBytes(table: usize, len: usize): i32 {
  if (len < <usize>TOKEN_TABLE_HEADER_BYTES) return badTable(len);
  if (load<u32>(table + T_MAGIC) != TABLE_MAGIC) return badTable(T_MAGIC);
  if (load<u32>(table + T_FORMAT) != TABLE_FORMAT) return badTable(T_FORMAT);
  const vocab = load<u32>(table + T_VOCAB);
  const merges = load<u32>(table + T_MERGES);
  const firstMerge = load<u32>(table + T_FIRST_MERGE);
  const added = load<u32>(table + T_ADDED);
  const addedUnits = load<u32>(table + T_ADDED_UNITS);
  const blocks = load<u32>(table + T_BLOCKS);
  if (vocab > MAX_ID || <u64>firstMerge + <u64>merges != <u64>vocab || firstMerge < <u32>BYTE_VALUES) return badTable(T_VOCAB);
  if (added > MAX_ID || addedUnits > (1 << 24)) return badTable(T_ADDED);
  if (blocks == 0 || blocks > 256) return badTable(T_BLOCKS);
  const total = planState(vocab, merges, firstMerge, added, addedUnits, blocks);
  return total > <usize>i32.MAX_VALUE ? badTable(T_TOTAL) : <i32>total;
}

/**
 * Builds the tokenizer's state at `tok` (16-byte aligned, `stateCap` bytes: at least tokStateBytes)
 * from the `len` bytes of the table at `table`, checking every field the later calls rely on. The
 * table may be discarded afterwards. Returns the state's size, or TOKEN_BAD_TABLE (tokDetail(): the
 * byte offset of the failed check) or TOKEN_NO_SPACE (tokDetail(): the bytes needed).
 */
export function tokLoad(table: usize, len: usize, tok: usize, stateCap: usize): i32 {
  const size = tokStateBytes(table, len);
  if (size < 0) return size;
  if (<usize>size > stateCap) {
    detail = size;
    return TOKEN_NO_SPACE;
  }
  store<u32>(tok + S_MAGIC, 0); // not loaded until every check passed
  const vocab = load<u32>(table + T_VOCAB);
  const merges = load<u32>(table + T_MERGES);
  const firstMerge = load<u32>(table + T_FIRST_MERGE);
  const added = load<u32>(table + T_ADDED);
  const addedUnits = load<u32>(table + T_ADDED_UNITS);
  const blocks = load<u32>(table + T_BLOCKS);
  const maxUnits = load<u32>(table + T_MAX_ADDED_UNITS);
  // The table's sections, in file order (scripts/tokenizer-table.mjs).
  const byteIdsIn = <usize>TOKEN_TABLE_HEADER_BYTES;
  const mergesIn = byteIdsIn + BYTE_VALUES * 4;
  const addedIn = mergesIn + ((<usize>merges * MERGE_RECORD_BYTES + 3) & ~(<usize>3));
  const addedTextIn = addedIn + (<usize>added + 1) * 8;
  const blockIndexIn = addedTextIn + ((<usize>addedUnits * 2 + 3) & ~(<usize>3));
  const blocksIn = blockIndexIn + BLOCK_COUNT;
  const end = blocksIn + <usize>blocks * BLOCK_CODE_POINTS;
  if (<usize>load<u32>(table + T_TOTAL) != len || end != len) return badTable(T_TOTAL);
  const total = planState(vocab, merges, firstMerge, added, addedUnits, blocks);
  memory.fill(tok, 0, total);

  // Bytes: each of the 256 has its own token below the first merge, and no two share one.
  const idBytes = tok + planIdBytes;
  for (let id: u32 = 0; id < firstMerge; id++) store<i16>(idBytes + (<usize>id << 1), -1);
  for (let b: usize = 0; b < BYTE_VALUES; b++) {
    const id = load<u32>(table + byteIdsIn + (b << 2));
    if (id >= firstMerge || load<i16>(idBytes + (<usize>id << 1)) != -1) return badTable(byteIdsIn + (b << 2));
    store<u32>(tok + planByteIds + (b << 2), id);
    store<i16>(idBytes + (<usize>id << 1), <i16>b);
    store<u16>(tok + planLengths + (<usize>id << 1), 1);
  }

  // Merges: merge k joins two earlier tokens into token firstMerge + k; the hash maps the pair to k.
  const bits = bitsFor(merges);
  const mask: u32 = (1 << bits) - 1;
  const shift = 64 - <u64>bits;
  for (let k: u32 = 0; k < merges; k++) {
    const record = table + mergesIn + <usize>k * MERGE_RECORD_BYTES;
    const a = <u32>load<u16>(record) | (<u32>load<u8>(record + 2) << 16);
    const b = <u32>load<u16>(record + 3) | (<u32>load<u8>(record + 5) << 16);
    const self = firstMerge + k;
    const lengthA = <u32>load<u16>(tok + planLengths + (<usize>a << 1));
    const lengthB = <u32>load<u16>(tok + planLengths + (<usize>b << 1));
    // Both halves must be tokens made before this one (bytes or earlier merges): no cycles, no gaps.
    if (a >= self || b >= self || lengthA == 0 || lengthB == 0 || lengthA + lengthB > 0xffff) return badTable(mergesIn + <usize>k * MERGE_RECORD_BYTES);
    const key = (<u64>a << FIELD_BITS) | <u64>b;
    let slot = slotOf(key, mask, shift);
    while (true) {
      const at = tok + planHash + (<usize>slot << 3);
      const entry = load<u64>(at);
      if (entry == 0) {
        store<u64>(at, (key << FIELD_BITS) | <u64>(k + 1));
        break;
      }
      if ((entry >> FIELD_BITS) == key) return badTable(mergesIn + <usize>k * MERGE_RECORD_BYTES); // the pair twice
      slot = (slot + 1) & mask;
    }
    store<u32>(tok + planPairs + (<usize>k << 3), a);
    store<u32>(tok + planPairs + (<usize>k << 3) + 4, b);
    store<u16>(tok + planLengths + (<usize>self << 1), <u16>(lengthA + lengthB));
  }

  // Added tokens: `<…>` with one `>`, at most maxUnits units, distinct texts and ids.
  if (added > 0 && (maxUnits < 2 || maxUnits > 0xffff)) return badTable(T_MAX_ADDED_UNITS);
  const text = tok + planAddedText;
  memory.copy(text, table + addedTextIn, <usize>addedUnits << 1);
  const addedBits = bitsFor(added);
  const addedMask: u32 = (1 << addedBits) - 1;
  for (let i: u32 = 0; i < added; i++) {
    const recordIn = table + addedIn + (<usize>i << 3);
    const id = load<u32>(recordIn);
    const start = load<u32>(recordIn + 4);
    const next = load<u32>(recordIn + 12);
    const units = next - start;
    if (id > MAX_ID || next < start || next > addedUnits || units < 2 || units > maxUnits) return badTable(addedIn + (<usize>i << 3));
    const at = text + (<usize>start << 1);
    for (let u: u32 = 0; u < units; u++) {
      const c = <u32>load<u16>(at + (<usize>u << 1));
      if (u == 0 && c != LESS_THAN) return badTable(addedTextIn + (<usize>start << 1));
      if ((c == GREATER_THAN) != (u == units - 1)) return badTable(addedTextIn + (<usize>(start + u) << 1));
    }
    const record = tok + planAdded + <usize>i * ADDED_RECORD_BYTES;
    store<u32>(record, id);
    store<u32>(record + 4, start);
    store<u32>(record + 8, units);
    let slot = hashUnits(at, units) & addedMask;
    while (load<u32>(tok + planAddedHash + (<usize>slot << 2)) != 0) {
      const other = tok + planAdded + <usize>(load<u32>(tok + planAddedHash + (<usize>slot << 2)) - 1) * ADDED_RECORD_BYTES;
      if (load<u32>(other + 8) == units && memory.compare(text + (<usize>load<u32>(other + 4) << 1), at, <usize>units << 1) == 0) return badTable(addedIn + (<usize>i << 3));
      slot = (slot + 1) & addedMask;
    }
    store<u32>(tok + planAddedHash + (<usize>slot << 2), i + 1);
    slot = slotOf(<u64>id, addedMask, 64 - <u64>addedBits);
    while (load<u32>(tok + planAddedIdHash + (<usize>slot << 2)) != 0) {
      if (load<u32>(tok + planAdded + <usize>(load<u32>(tok + planAddedIdHash + (<usize>slot << 2)) - 1) * ADDED_RECORD_BYTES) == id) return badTable(addedIn + (<usize>i << 3));
      slot = (slot + 1) & addedMask;
    }
    store<u32>(tok + planAddedIdHash + (<usize>slot << 2), i + 1);
  }
  if (load<u32>(table + addedIn + (<usize>added << 3) + 4) != addedUnits) return badTable(addedIn + (<usize>added << 3));

  // Classes: a block number per 256 code points, then the blocks, one class per code point.
  for (let b: usize = 0; b < BLOCK_COUNT; b++) {
    const block = load<u8>(table + blockIndexIn + b);
    if (<u32>block >= blocks) return badTable(blockIndexIn + b);
    store<u8>(tok + planBlockIndex + b, block);
  }
  for (let i: usize = 0; i < <usize>blocks * BLOCK_CODE_POINTS; i++) {
    const c = load<u8>(table + blocksIn + i);
    if (<u32>c >= CLASS_COUNT) return badTable(blocksIn + i);
    store<u8>(tok + planBlocks + i, c);
  }

  store<u32>(tok + S_VOCAB, vocab);
  store<u32>(tok + S_FIRST_MERGE, firstMerge);
  store<u32>(tok + S_MERGES, merges);
  store<u32>(tok + S_ADDED, added);
  store<u32>(tok + S_MAX_ADDED_UNITS, maxUnits);
  store<u32>(tok + S_HASH_BITS, bits);
  store<u32>(tok + S_HASH_AT, <u32>planHash);
  store<u32>(tok + S_PAIRS_AT, <u32>planPairs);
  store<u32>(tok + S_LENGTHS_AT, <u32>planLengths);
  store<u32>(tok + S_BYTE_IDS_AT, <u32>planByteIds);
  store<u32>(tok + S_ID_BYTES_AT, <u32>planIdBytes);
  store<u32>(tok + S_ADDED_AT, <u32>planAdded);
  store<u32>(tok + S_ADDED_TEXT_AT, <u32>planAddedText);
  store<u32>(tok + S_ADDED_HASH_BITS, addedBits);
  store<u32>(tok + S_ADDED_HASH_AT, <u32>planAddedHash);
  store<u32>(tok + S_ADDED_ID_HASH_AT, <u32>planAddedIdHash);
  store<u32>(tok + S_BLOCK_INDEX_AT, <u32>planBlockIndex);
  store<u32>(tok + S_BLOCKS_AT, <u32>planBlocks);
  store<u32>(tok + S_UNICODE, load<u32>(table + T_UNICODE));
  store<u32>(tok + S_TOTAL, <u32>total);
  store<u32>(tok + S_MAGIC, STATE_MAGIC);
  return size;
}

/** Fails a call on a state that is not loaded. */
export function notLoaded(): i32 {
  detail = 0;
  return TOKEN_NOT_LOADED;
}

/** tokInfo(tok, field): 0 vocabulary size, 1 added tokens, 2 Unicode version (major << 16 | minor << 8 | patch), 3 state bytes; -1 unknown field; TOKEN_NOT_LOADED. */
export function tokInfo(tok: usize, field: i32): i32 {
  if (load<u32>(tok + S_MAGIC) != STATE_MAGIC) return notLoaded();
  switch (field) {
    case 0: return <i32>load<u32>(tok + S_VOCAB);
    case 1: return <i32>load<u32>(tok + S_ADDED);
    case 2: return <i32>load<u32>(tok + S_UNICODE);
    case 3: return <i32>load<u32>(tok + S_TOTAL);
    default: return -1;
  }
}
