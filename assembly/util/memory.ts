// The module keeps its own scratch in static data; everything above heapBase() belongs to the host,
// which lays out contexts and I/O buffers there and grows the memory itself.

import { HOST_ALIGN } from "../abi";

/** First byte the host may use: the end of static data, rounded up to HOST_ALIGN (64) bytes. */
export function heapBase(): usize {
  return (__heap_base + <usize>HOST_ALIGN - 1) & ~(<usize>HOST_ALIGN - 1);
}

