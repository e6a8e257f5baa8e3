// Character budgets in code points (spec X-06): a surrogate pair is one code point, a lone surrogate
// is one code point, as Array.from(text) counts them. Short strings are counted in JavaScript, longer
// ones in WASM with SIMD (paths.ts).

import { codePointCount, codePointPrefix } from '../wasm/text.js';
import { expectLimit, expectString } from './args.js';
import { enginePaths, SMALL_CODE_POINT_UNITS } from './paths.js';
import { smallCodePointLength, smallCodePointPrefix } from './small.js';

const small = (text: string): boolean => text.length <= SMALL_CODE_POINT_UNITS && !enginePaths.wasmOnly;

/**
 * Number of code points in `text`, equal to `Array.from(text).length`.
 * @param text any string
 * @returns its code points (a pair is one, a lone surrogate is one)
 */
export function codePointLength(text: string): number {
  expectString('codePointLength', 'text', text);
  return small(text) ? smallCodePointLength(text) : codePointCount(text);
}

/**
 * The longest prefix of `text` with at most `max` code points; a surrogate pair is never split.
 * @param text any string
 * @param max a non-negative integer, or Infinity
 * @returns the prefix
 */
export function capCodePoints(text: string, max: number): string {
  expectString('capCodePoints', 'text', text);
  expectLimit('capCodePoints', 'max', max, true);
  if (text.length <= max) return text; // code points never outnumber code units
  return text.slice(0, small(text) ? smallCodePointPrefix(text, max) : codePointPrefix(text, max));
}
