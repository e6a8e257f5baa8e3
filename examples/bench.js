// A small speed measurement the examples run with --bench (browser: ?bench): SHA-256 throughput on
// 1 MiB, synchronous 64-byte SHA-256 digests through the WASM ABI, and the same 64-byte digest
// through the runtime's own `crypto.subtle.digest` (asynchronous: each call awaits a promise).
// Both sides run in the same round, rounds alternate, and the answer is the median over rounds,
// because machine speed drifts between seconds. bench/runtimes.ts collects this from every runtime.

const ROUNDS = 7;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Fills `length` bytes with a fixed pseudo-random sequence (no randomness: runs are comparable). */
function fixedBytes(length) {
  const bytes = new Uint8Array(length);
  let x = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

function toHex(buffer) {
  let hex = '';
  for (const byte of new Uint8Array(buffer)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Measures the engine and returns plain numbers. `calls` sets how many 64-byte digests a round runs
 * on each side (the async side runs a tenth as many: it is that much slower per call).
 * @param {import('./engine.js').WasmEngine} engine
 */
export async function measure(engine, calls = 20_000) {
  const mib = fixedBytes(1 << 20);
  const small = fixedBytes(64);
  const subtle = globalThis.crypto?.subtle;
  // Equal answers before anything is timed.
  if (subtle && engine.sha256(small) !== toHex(await subtle.digest('SHA-256', small))) {
    throw new Error('WASM and crypto.subtle disagree on the 64-byte SHA-256');
  }
  for (let i = 0; i < 1000; i++) engine.sha256(small); // warm-up: let the JIT settle
  engine.sha256(mib);
  const mibSeconds = [];
  const wasmCall = [];
  const subtleCall = [];
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    let start = performance.now();
    for (let i = 0; i < 4; i++) engine.sha256(mib);
    mibSeconds.push((performance.now() - start) / 4 / 1000);

    start = performance.now();
    for (let i = 0; i < calls; i++) engine.sha256(small);
    const wasm = (performance.now() - start) / calls;
    wasmCall.push(wasm);

    if (subtle) {
      const asyncCalls = Math.max(1, calls / 10);
      start = performance.now();
      for (let i = 0; i < asyncCalls; i++) await subtle.digest('SHA-256', small);
      const perCall = (performance.now() - start) / asyncCalls;
      subtleCall.push(perCall);
      ratios.push(perCall / wasm);
    }
  }
  return {
    sha256MiBps: 1 / median(mibSeconds),
    sha256Small64PerSecond: 1000 / median(wasmCall),
    wasm64Microseconds: median(wasmCall) * 1000,
    subtle64Microseconds: subtle ? median(subtleCall) * 1000 : null,
    subtleOverWasm: subtle ? median(ratios) : null,
    rounds: ROUNDS,
    calls,
  };
}
