// Batch hashing: many messages packed in one buffer, hashed in one call. Four messages advance at
// once in SIMD lanes; when a lane's message ends, the lane takes the next message. When no message
// is left to hand out and only one lane is still busy, that message is finished with the scalar
// compression (an idle lane would otherwise cost three quarters of every step).

import { Sha1 } from "./sha1";
import { Sha256 } from "./sha256";
import { BLOCK_SIZE, CTX_SIZE, wordToHex, stateToHex, MdHash } from "./util/md";
import { STATE4_SIZE } from "./util/lanes";

const LANES: usize = 4;
const PAD_SIZE: usize = 2 * BLOCK_SIZE; // the padded tail of a message takes one or two blocks

const STATE4: usize = memory.data(<i32>STATE4_SIZE, 16);
const PAD: usize = memory.data(<i32>(LANES * PAD_SIZE), 16);
const IDLE_BLOCK: usize = memory.data(<i32>BLOCK_SIZE, 16); // what an idle lane hashes
const SCRATCH_CTX: usize = memory.data(<i32>CTX_SIZE, 16);

// Per-lane bookkeeping, u32 × LANES each.
const LANE_MESSAGE: usize = memory.data(16, 16); // index of the message in the lane
const LANE_NEXT: usize = memory.data(16, 16); // address of the next full block
const LANE_FULL: usize = memory.data(16, 16); // full blocks left in the message body
const LANE_PAD: usize = memory.data(16, 16); // padded tail blocks left (after the full ones)
const LANE_PAD_NEXT: usize = memory.data(16, 16); // address of the next padded tail block

// @ts-ignore: decorator
@inline function lane(table: usize, k: usize): usize { return <usize>load<u32>(table + (k << 2)); }
// @ts-ignore: decorator
@inline function setLane(table: usize, k: usize, value: usize): void { store<u32>(table + (k << 2), <u32>value); }

/** Builds the padded tail (one or two blocks) of a `len`-byte message ending at `end`. */
function buildPad(pad: usize, end: usize, len: usize): usize {
  const tail = len & (BLOCK_SIZE - 1);
  const blocks: usize = tail + 9 > BLOCK_SIZE ? 2 : 1;
  memory.copy(pad, end - tail, tail);
  store<u8>(pad + tail, 0x80);
  memory.fill(pad + tail + 1, 0, blocks * BLOCK_SIZE - tail - 1 - 8);
  store<u64>(pad + blocks * BLOCK_SIZE - 8, bswap<u64>(<u64>len << 3));
  return blocks;
}

/** Next block address of lane `k`, or IDLE_BLOCK. */
// @ts-ignore: decorator
@inline function laneBlock(k: usize): usize {
  if (lane(LANE_FULL, k) != 0) return lane(LANE_NEXT, k);
  if (lane(LANE_PAD, k) != 0) return lane(LANE_PAD_NEXT, k);
  return IDLE_BLOCK;
}

function batchHex<H extends MdHash>(data: usize, offsets: usize, count: usize, out: usize): void {
  const h = changetype<H>(0);
  const words = h.words();
  const hexSize = words << 3;
  let nextMessage: usize = 0;
  let busy: usize = 0;

  // Hands message `nextMessage` to lane `k`, or leaves the lane idle when none is left.
  for (let k: usize = 0; k < LANES; k++) {
    setLane(LANE_FULL, k, 0);
    setLane(LANE_PAD, k, 0);
  }
  while (true) {
    for (let k: usize = 0; k < LANES; k++) {
      if (lane(LANE_FULL, k) != 0 || lane(LANE_PAD, k) != 0 || nextMessage >= count) continue;
      const i = nextMessage++;
      const start = <usize>load<u32>(offsets + (i << 2));
      const len = <usize>load<u32>(offsets + (i << 2), 4) - start;
      setLane(LANE_MESSAGE, k, i);
      setLane(LANE_NEXT, k, data + start);
      setLane(LANE_FULL, k, len / BLOCK_SIZE);
      setLane(LANE_PAD_NEXT, k, PAD + k * PAD_SIZE);
      setLane(LANE_PAD, k, buildPad(PAD + k * PAD_SIZE, data + start + len, len));
      const iv = h.iv();
      for (let j: usize = 0; j < words; j++) store<u32>(STATE4 + (j << 4) + (k << 2), load<u32>(iv + (j << 2)));
      busy++;
    }
    if (busy == 0) return;
    if (busy == 1 && nextMessage >= count) break;

    // While every lane is in its message body, run the common stretch of full blocks without
    // per-step bookkeeping.
    const run = min(min(lane(LANE_FULL, 0), lane(LANE_FULL, 1)), min(lane(LANE_FULL, 2), lane(LANE_FULL, 3)));
    if (run > 1) {
      let p0 = lane(LANE_NEXT, 0), p1 = lane(LANE_NEXT, 1), p2 = lane(LANE_NEXT, 2), p3 = lane(LANE_NEXT, 3);
      for (let n: usize = 1; n < run; n++) {
        h.compress4(STATE4, p0, p1, p2, p3);
        p0 += BLOCK_SIZE;
        p1 += BLOCK_SIZE;
        p2 += BLOCK_SIZE;
        p3 += BLOCK_SIZE;
      }
      for (let k: usize = 0; k < LANES; k++) {
        setLane(LANE_FULL, k, lane(LANE_FULL, k) - (run - 1));
        setLane(LANE_NEXT, k, lane(LANE_NEXT, k) + (run - 1) * BLOCK_SIZE);
      }
    }

    h.compress4(STATE4, laneBlock(0), laneBlock(1), laneBlock(2), laneBlock(3));

    for (let k: usize = 0; k < LANES; k++) {
      if (lane(LANE_FULL, k) != 0) {
        setLane(LANE_FULL, k, lane(LANE_FULL, k) - 1);
        setLane(LANE_NEXT, k, lane(LANE_NEXT, k) + BLOCK_SIZE);
      } else if (lane(LANE_PAD, k) != 0) {
        setLane(LANE_PAD, k, lane(LANE_PAD, k) - 1);
        setLane(LANE_PAD_NEXT, k, lane(LANE_PAD_NEXT, k) + BLOCK_SIZE);
        if (lane(LANE_PAD, k) == 0) {
          const dst = out + lane(LANE_MESSAGE, k) * hexSize;
          for (let j: usize = 0; j < words; j++) wordToHex(load<u32>(STATE4 + (j << 4) + (k << 2)), dst + (j << 3));
          busy--;
        }
      }
    }
  }

  // One busy lane and nothing left to hand out: finish it with the scalar compression.
  for (let k: usize = 0; k < LANES; k++) {
    if (lane(LANE_FULL, k) == 0 && lane(LANE_PAD, k) == 0) continue;
    for (let j: usize = 0; j < words; j++) store<u32>(SCRATCH_CTX + (j << 2), load<u32>(STATE4 + (j << 4) + (k << 2)));
    let p = lane(LANE_NEXT, k);
    for (let n = lane(LANE_FULL, k); n != 0; n--) {
      h.compress(SCRATCH_CTX, p);
      p += BLOCK_SIZE;
    }
    p = lane(LANE_PAD_NEXT, k);
    for (let n = lane(LANE_PAD, k); n != 0; n--) {
      h.compress(SCRATCH_CTX, p);
      p += BLOCK_SIZE;
    }
    setLane(LANE_FULL, k, 0);
    setLane(LANE_PAD, k, 0);
    stateToHex(SCRATCH_CTX, words, out + lane(LANE_MESSAGE, k) * hexSize);
  }
}

/**
 * SHA-1 of `count` messages in one call. Message i is the bytes [data + offsets[i], data +
 * offsets[i + 1]) where `offsets` holds count + 1 u32 values; its 40 hex characters go to
 * out + 40 * i.
 */
export function sha1BatchHex(data: usize, offsets: usize, count: usize, out: usize): void {
  batchHex<Sha1>(data, offsets, count, out);
}

/** SHA-256 of `count` messages in one call; as sha1BatchHex, with 64 hex characters each. */
export function sha256BatchHex(data: usize, offsets: usize, count: usize, out: usize): void {
  batchHex<Sha256>(data, offsets, count, out);
}
