// A small speed measurement the examples run with --bench (browser: ?bench): SHA-256 throughput on
// 1 MiB, synchronous 64-byte SHA-256 digests through the WASM ABI, and the same 64-byte digest
// through the runtime's own `crypto.subtle.digest` (asynchronous: each call awaits a promise).
// Both sides run in the same round, rounds alternate, and the answer is the median over rounds,
// because machine speed drifts between seconds. bench/runtimes.ts collects this from every runtime.

const ROUNDS = 9;

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
 * on each synchronous side (the async side runs a tenth as many: it is that much slower per call).
 * The raw digest (32 bytes, like crypto.subtle's) is the like-for-like comparison; the hex digest
 * (a 64-character string) is what most callers want and costs one more string.
 * @param {import('./engine.js').WasmEngine} engine
 */
export async function measure(engine, calls = 50_000) {
  const mib = fixedBytes(1 << 20);
  const small = fixedBytes(64);
  const subtle = globalThis.crypto?.subtle;
  // Equal answers before anything is timed.
  const hex = engine.sha256(small);
  if (toHex(engine.sha256Digest(small)) !== hex) throw new Error('sha256Digest and sha256 disagree');
  if (subtle && toHex(await subtle.digest('SHA-256', small)) !== hex) throw new Error('WASM and crypto.subtle disagree');
  for (let i = 0; i < 100_000; i++) { // warm-up: let the JIT tier up
    engine.sha256Digest(small);
    engine.sha256(small);
  }
  engine.sha256(mib);
  const timeSync = (n, f) => {
    const start = performance.now();
    for (let i = 0; i < n; i++) f();
    return (performance.now() - start) / n;
  };
  // The floor: the export alone on input already in memory, no copy in or out (what any wrapper adds
  // to this is JavaScript).
  const input = engine.putBytes(small);
  const bare = () => engine.wasm.sha256Hex(engine.ctx, input, 64, engine.out);
  const rounds = { mib: [], bare: [], raw: [], hex: [], subtle: [], ratioRaw: [], ratioHex: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.mib.push(timeSync(4, () => engine.sha256(mib)));
    engine.putBytes(small);
    rounds.bare.push(timeSync(calls, bare));
    const raw = timeSync(calls, () => engine.sha256Digest(small));
    const hexCall = timeSync(calls, () => engine.sha256(small));
    rounds.raw.push(raw);
    rounds.hex.push(hexCall);
    if (subtle) {
      const asyncCalls = Math.max(1, calls / 10);
      const start = performance.now();
      for (let i = 0; i < asyncCalls; i++) await subtle.digest('SHA-256', small);
      const perCall = (performance.now() - start) / asyncCalls;
      rounds.subtle.push(perCall);
      rounds.ratioRaw.push(perCall / raw);
      rounds.ratioHex.push(perCall / hexCall);
    }
  }
  const us = (ms) => ms * 1000;
  return {
    sha256MiBps: 1000 / median(rounds.mib),
    sha256Raw64PerSecond: 1000 / median(rounds.raw),
    wasmBare64Microseconds: us(median(rounds.bare)),
    wasmRaw64Microseconds: us(median(rounds.raw)),
    wasmHex64Microseconds: us(median(rounds.hex)),
    subtle64Microseconds: subtle ? us(median(rounds.subtle)) : null,
    subtleOverWasmRaw: subtle ? median(rounds.ratioRaw) : null,
    subtleOverWasmHex: subtle ? median(rounds.ratioHex) : null,
    rounds: ROUNDS,
    calls,
  };
}
