// Which path a facade call takes (issue 33). A call into WASM has a fixed cost (moving the input into
// WASM memory, the call, the result out: about 0.1–0.2 µs), so below a few dozen code units plain
// JavaScript answers sooner, and node:crypto's hardware SHA beats our WASM SHA at every size. Each
// function picks per call by the input's size (and, for a bounded read, by how V8 holds the string);
// the answers are the same on every path, and test/engine/paths.test.ts checks both sides of every
// threshold against the references. The thresholds are measured by `node build/bench/paths.js`
// (bench/README.md, "Which path a call takes").

/** Switches shared by the facade's modules. */
export const enginePaths = {
  /**
   * Every call on the WASM path, whatever the runtime offers. For tests and benches that must reach
   * the WASM code where node:crypto would otherwise take the call; never set in production.
   */
  wasmOnly: false,
};

/**
 * Keeps every call of the facade on the WASM path (`true`) or lets it choose again (`false`). For
 * tests and benches only: the answers are the same, only the time differs.
 * @param on whether to force the WASM path
 */
export function useWasmOnly(on: boolean): void {
  enginePaths.wasmOnly = on;
}

/**
 * Strings up to this many code units are measured by Buffer.byteLength, where the runtime has it,
 * without looking at how V8 holds them: for a one-byte string Buffer is the fastest at any length,
 * and the look (oneByteText) costs 20–70 ns on a string just built by concatenation, 5–15% of the
 * count there; a two-byte string of 256–1,024 units would be 1.5–2.4× faster in WASM, but Buffer is
 * never slower than plain JavaScript, which is what the engine must not lose to.
 */
export const SMALL_UTF8_UNITS = 1024;
/**
 * Strings longer than SMALL_UTF8_UNITS and up to this many code units are told apart by
 * latin1AtSamples, not by oneByteText: the regular expression's fixed cost (about 50 ns) was 5–8% of
 * composing a 2,000-unit baseline (the engine 0.92–0.96× Buffer in `dsh-context bench`'s compose
 * phase on real-shaped repositories); eight charCodeAt cost a tenth of that. Longer strings keep the
 * look at their start, which finds text with CJK words or emoji more often than eight samples (on the
 * bench's 1 MiB text, where one unit in 16 is above U+00FF, no sample hit one).
 */
export const SAMPLED_LOOK_UNITS = 16_384;
/** How many evenly spaced code units latin1AtSamples reads. */
export const LOOK_SAMPLES = 8;
/** Without Buffer, strings up to this many code units are measured by a JavaScript loop (utf8Length, truncateUtf8). */
export const LOOP_UTF8_UNITS = 32;
/** Strings up to this many code units are counted and capped in JavaScript (code points). */
export const SMALL_CODE_POINT_UNITS = 48;
/** How far a bounded read's first chunk is looked at to tell a one-byte string (see oneByteText). */
export const ONE_BYTE_PROBE_UNITS = 256;

// No code unit above 0xFF. V8 compiles a regular expression separately for strings it holds one byte
// per unit, and this class matches nothing there, so on such a string the test returns at once
// (0.3 µs for 1 MB, measured); on a two-byte string it scans to the first unit above 0xFF.
const ABOVE_LATIN1 = /[^\x00-\xff]/;

/**
 * Whether `text` starts with ONE_BYTE_PROBE_UNITS code units none above U+00FF: true at once for a
 * string V8 holds one byte per unit (ASCII or Latin-1 text read from disk), where node:crypto and
 * Buffer need no transcoding and beat a WASM pass; false for text with CJK, emoji and the like near
 * its start, which WASM transcodes with SIMD.
 * @param text any string
 * @returns true when its start is Latin-1
 */
export function oneByteText(text: string): boolean {
  return !ABOVE_LATIN1.test(text.length <= ONE_BYTE_PROBE_UNITS ? text : text.slice(0, ONE_BYTE_PROBE_UNITS));
}

/**
 * Whether the LOOK_SAMPLES code units at evenly spaced offsets of `text` (its first and last
 * included) are all at most U+00FF. A guess at how V8 holds the string, only for choosing a path: a
 * two-byte string whose samples miss its wide units is counted by Buffer, slower than WASM but never
 * slower than plain JavaScript, and with the same answer.
 * @param text a string of at least one code unit
 * @returns false when a sampled unit is above U+00FF
 */
export function latin1AtSamples(text: string): boolean {
  const last = text.length - 1;
  for (let k = 0; k < LOOK_SAMPLES; k++) {
    if (text.charCodeAt(Math.floor((last * k) / (LOOK_SAMPLES - 1))) > 0xff) return false;
  }
  return true;
}
