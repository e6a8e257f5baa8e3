// Byte-level BPE over one pre-token: its UTF-8 bytes start as one token each, and the adjacent pair
// whose merge ranks lowest is merged, again and again, the leftmost first among equal ranks, until no
// pair merges. That order is the reference's (its priority queue scores a pair by rank plus the
// fraction left position / length), so the tokens are the same. Short pieces, nearly all of them, use
// two arrays and a linear scan; long ones a linked list and an indexed binary heap (n log n).

import { byteId, firstMergeId, NO_RANK, rankOf } from "./state";

/** Pieces up to this many bytes use the array scan (its cost grows with the square of the length). */
const SMALL_PIECE: usize = 32;

// @ts-ignore: decorator
@inline function u32At(base: usize, i: usize): u32 {
  return load<u32>(base + (i << 2));
}

// @ts-ignore: decorator
@inline function setU32(base: usize, i: usize, value: u32): void {
  store<u32>(base + (i << 2), value);
}

// @ts-ignore: decorator
@inline function align16(n: usize): usize {
  return (n + 15) & ~(<usize>15);
}

/**
 * Tokenizes the `n` bytes at `bytes` (n ≥ 1), using `scratch` (TOKEN_WORK_BYTES_PER_BYTE × n bytes
 * suffice, see ../abi.ts), and writes the ids at `out` unless it is 0. Returns the number of tokens.
 */
export function bpe(bytes: usize, n: usize, scratch: usize, out: usize): u32 {
  if (n == 1) {
    if (out != 0) store<u32>(out, byteId(<u32>load<u8>(bytes)));
    return 1;
  }
  return n <= SMALL_PIECE ? bpeSmall(bytes, n, scratch, out) : bpeHeap(bytes, n, scratch, out);
}

function bpeSmall(bytes: usize, n: usize, scratch: usize, out: usize): u32 {
  const sym = scratch;
  const rank = scratch + (SMALL_PIECE << 2);
  let prev = byteId(<u32>load<u8>(bytes));
  setU32(sym, 0, prev);
  for (let i: usize = 1; i < n; i++) {
    const id = byteId(<u32>load<u8>(bytes + i));
    setU32(sym, i, id);
    setU32(rank, i - 1, rankOf(prev, id));
    prev = id;
  }
  let len = n;
  while (len > 1) {
    let best = NO_RANK;
    let at: usize = 0;
    for (let i: usize = 0; i < len - 1; i++) {
      const r = u32At(rank, i);
      if (r < best) {
        best = r;
        at = i;
      }
    }
    if (best == NO_RANK) break;
    // sym[at] becomes the merged token; sym[at + 1] and rank[at] leave.
    setU32(sym, at, firstMergeId + best);
    const tail = len - at - 2;
    if (tail != 0) {
      memory.copy(sym + ((at + 1) << 2), sym + ((at + 2) << 2), tail << 2);
      memory.copy(rank + (at << 2), rank + ((at + 1) << 2), tail << 2);
    }
    len--;
    const merged = u32At(sym, at);
    if (at > 0) setU32(rank, at - 1, rankOf(u32At(sym, at - 1), merged));
    if (at + 1 < len) setU32(rank, at, rankOf(merged, u32At(sym, at + 1)));
  }
  if (out != 0) memory.copy(out, sym, len << 2);
  return <u32>len;
}

// ---- long pieces: a linked list of symbols and an indexed heap of their pairs ----------------------

// Node i is the symbol that starts at byte i; rank[i] is the rank of the pair it starts (NO_RANK if
// none), pos[i] its place in the heap (-1 when not there). The heap orders nodes by (rank, i): the
// lowest rank first, and among equal ranks the leftmost, as the reference's queue does.
let sym: usize = 0;
let rank: usize = 0;
let nextOf: usize = 0;
let prevOf: usize = 0;
let pos: usize = 0;
let heap: usize = 0;
let heapSize: usize = 0;

// @ts-ignore: decorator
@inline function before(a: u32, b: u32): bool {
  const ra = u32At(rank, a);
  const rb = u32At(rank, b);
  return ra < rb || (ra == rb && a < b);
}

function place(i: usize, node: u32): void {
  setU32(heap, i, node);
  setU32(pos, node, <u32>i);
}

function siftUp(i: usize): void {
  const node = u32At(heap, i);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = u32At(heap, parent);
    if (!before(node, above)) break;
    place(i, above);
    i = parent;
  }
  place(i, node);
}

function siftDown(i: usize): void {
  const node = u32At(heap, i);
  while (true) {
    const left = (i << 1) + 1;
    if (left >= heapSize) break;
    let child = left;
    if (left + 1 < heapSize && before(u32At(heap, left + 1), u32At(heap, left))) child = left + 1;
    const below = u32At(heap, child);
    if (!before(below, node)) break;
    place(i, below);
    i = child;
  }
  place(i, node);
}

function heapRemove(node: u32): void {
  const i = <usize>u32At(pos, node);
  setU32(pos, node, NO_RANK);
  heapSize--;
  if (i == heapSize) return;
  const moved = u32At(heap, heapSize);
  place(i, moved);
  siftUp(i);
  siftDown(<usize>u32At(pos, moved));
}

/** Gives `node` the rank `r` and moves it in, within or out of the heap accordingly. */
function setRank(node: u32, r: u32): void {
  const inHeap = u32At(pos, node) != NO_RANK;
  setU32(rank, node, r);
  if (r == NO_RANK) {
    if (inHeap) heapRemove(node);
    return;
  }
  if (!inHeap) {
    place(heapSize, node);
    heapSize++;
    siftUp(heapSize - 1);
    return;
  }
  siftUp(<usize>u32At(pos, node));
  siftDown(<usize>u32At(pos, node));
}

function bpeHeap(bytes: usize, n: usize, scratch: usize, out: usize): u32 {
  const words = align16(n << 2);
  sym = scratch;
  rank = sym + words;
  nextOf = rank + words;
  prevOf = nextOf + words;
  pos = prevOf + words;
  heap = pos + words;
  heapSize = 0;
  const end = <u32>n;
  for (let i: usize = 0; i < n; i++) {
    setU32(sym, i, byteId(<u32>load<u8>(bytes + i)));
    setU32(nextOf, i, <u32>i + 1);
    setU32(prevOf, i, <u32>i - 1); // node 0's is 0xffffffff: none
    setU32(pos, i, NO_RANK);
  }
  for (let i: usize = 0; i + 1 < n; i++) {
    const r = rankOf(u32At(sym, i), u32At(sym, i + 1));
    setU32(rank, i, r);
    if (r != NO_RANK) {
      place(heapSize, <u32>i);
      heapSize++;
    }
  }
  setU32(rank, n - 1, NO_RANK);
  for (let i = <isize>(heapSize >> 1) - 1; i >= 0; i--) siftDown(<usize>i);
  let count = <u32>n;
  while (heapSize > 0) {
    const node = u32At(heap, 0);
    const right = u32At(nextOf, node);
    // node takes the merged token; the symbol after it leaves the list (and the heap).
    setU32(sym, node, firstMergeId + u32At(rank, node));
    const after = u32At(nextOf, right);
    setU32(nextOf, node, after);
    if (after != end) setU32(prevOf, after, node);
    if (u32At(pos, right) != NO_RANK) heapRemove(right);
    count--;
    setRank(node, after != end ? rankOf(u32At(sym, node), u32At(sym, after)) : NO_RANK);
    const left = u32At(prevOf, node);
    if (left != NO_RANK) setRank(left, rankOf(u32At(sym, left), u32At(sym, node)));
  }
  if (out != 0) {
    let k: usize = 0;
    for (let node: u32 = 0; node != end; node = u32At(nextOf, node)) setU32(out, k++, u32At(sym, node));
  }
  return count;
}
