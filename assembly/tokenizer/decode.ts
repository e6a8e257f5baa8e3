// Ids back to text, as the reference's ByteLevel decoder gives it: the bytes of the byte-level tokens
// between two added tokens are decoded as one run of UTF-8 (ill-formed parts become U+FFFD, as
// TextDecoder does), and an added token is its own text. The output is well-formed UTF-8, which the
// host decodes as it is (keeping a BOM, as the reference's decoder does).

import { TOKEN_BAD_ID } from "../abi";
import { utf8Decode } from "../utf8";
import { addedRecordOf, addedTextAt, bind, firstMergeId, idBytesAt, lengthsAt, notLoaded, pairsAt, setDetail, vocabSize } from "./state";

/** The UTF-8 bytes of byte-level token `id` (< vocabSize, not added), written at `at`; returns the end. */
function writeToken(id: u32, at: usize): usize {
  // Merges are binary trees over bytes: walk down the left halves, keeping the right ones to do next.
  while (id >= firstMergeId) {
    const pair = pairsAt + (<usize>(id - firstMergeId) << 3);
    const left = load<u32>(pair);
    at = writeToken(left, at);
    id = load<u32>(pair + 4);
  }
  store<u8>(at, <u8>load<i16>(idBytesAt + (<usize>id << 1)));
  return at + 1;
}

/** UTF-8 bytes of an added token's text (units at `ptr`), written at `at` unless it is 0; returns the count. */
function addedUtf8(ptr: usize, units: usize, at: usize): usize {
  let n: usize = 0;
  for (let k: usize = 0; k < units; k++) {
    const u = <u32>load<u16>(ptr + (k << 1));
    // Added tokens are BMP text without surrogates (tokLoad checked their shape, not this: encode it anyway).
    const size: usize = u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
    if (at != 0) {
      const c = (u & 0xf800) == 0xd800 ? 0xfffd : u;
      if (size == 1) store<u8>(at + n, <u8>c);
      else if (size == 2) {
        store<u8>(at + n, <u8>(0xc0 | (c >> 6)));
        store<u8>(at + n + 1, <u8>(0x80 | (c & 0x3f)));
      } else {
        store<u8>(at + n, <u8>(0xe0 | (c >> 12)));
        store<u8>(at + n + 1, <u8>(0x80 | ((c >> 6) & 0x3f)));
        store<u8>(at + n + 2, <u8>(0x80 | (c & 0x3f)));
      }
    }
    n += size;
  }
  return n;
}

/** Whether `id` is a byte-level token (not an added one): below vocabSize, and a byte or a merge. */
// @ts-ignore: decorator
@inline function isByteLevel(id: u32): bool {
  return id < vocabSize && (id >= firstMergeId || load<i16>(idBytesAt + (<usize>id << 1)) >= 0);
}

/**
 * The UTF-8 bytes the `count` ids (u32) at `ids` stand for, before ill-formed runs are replaced: the
 * size of tokDecode's `scratch` (tokDecode's `out` needs 3 × this + 16). Returns it as a float (it
 * may pass 2^31), or TOKEN_BAD_ID (tokDetail(): the index of the first id that is no token).
 */
export function tokDecodeLength(tok: usize, ids: usize, count: usize): f64 {
  if (!bind(tok)) return <f64>notLoaded();
  let total: u64 = 0;
  for (let i: usize = 0; i < count; i++) {
    const id = load<u32>(ids + (i << 2));
    const record = addedRecordOf(id);
    if (record != 0) {
      total += <u64>addedUtf8(addedTextAt + (<usize>load<u32>(record + 4) << 1), <usize>load<u32>(record + 8), 0);
    } else if (isByteLevel(id)) {
      total += <u64>load<u16>(lengthsAt + (<usize>id << 1));
    } else {
      setDetail(<i32>i, 0);
      return <f64>TOKEN_BAD_ID;
    }
  }
  return <f64>total;
}

/**
 * Decodes the `count` ids at `ids` into well-formed UTF-8 at `out` (3 × tokDecodeLength + 16 bytes),
 * using `scratch` (tokDecodeLength + 16 bytes). Returns the bytes written, or TOKEN_BAD_ID.
 */
export function tokDecode(tok: usize, ids: usize, count: usize, out: usize, scratch: usize): f64 {
  if (!bind(tok)) return <f64>notLoaded();
  let written: usize = 0;
  let run: usize = 0; // raw bytes of byte-level tokens waiting in scratch
  for (let i: usize = 0; i <= count; i++) {
    const id = i < count ? load<u32>(ids + (i << 2)) : 0;
    const record = i < count ? addedRecordOf(id) : 0;
    if (i < count && record == 0) {
      if (!isByteLevel(id)) {
        setDetail(<i32>i, 0);
        return <f64>TOKEN_BAD_ID;
      }
      run = writeToken(id, scratch + run) - scratch;
      continue;
    }
    if (run != 0) {
      // The run ends (an added token, or the end): its bytes decoded with U+FFFD for ill-formed parts.
      written += <usize>utf8Decode(scratch, run, out + written, true, scratch + run);
      run = 0;
    }
    if (record != 0) written += addedUtf8(addedTextAt + (<usize>load<u32>(record + 4) << 1), <usize>load<u32>(record + 8), out + written);
  }
  return <f64>written;
}
