// The text primitives the tape renders with: code-point counting and capping and SHA-256
// from the WASM engine. They are passed in rather than imported where used so that the
// bench can run the same renderer over a plain-JS implementation and compare (same output, timed).

import { capCodePoints, codePointLength, sha256Hex } from '../../engine/index.js';

/** Code-point and digest operations; every character budget of the tape is counted with these. */
export interface TextOps {
  codePointLength(text: string): number;
  /** The longest prefix with at most `max` code points; a surrogate pair is never split. */
  capCodePoints(text: string, max: number): string;
  /** Lowercase hex SHA-256 of the UTF-8 encoding. */
  sha256Hex(text: string): string;
}

/** The engine's implementations: what the plugin uses. */
export const engineText: TextOps = { codePointLength, capCodePoints, sha256Hex };

/** The last `max` code points of `text` (the whole text when it is shorter). */
export function tailCodePoints(ops: TextOps, text: string, max: number): string {
  const total = ops.codePointLength(text);
  if (total <= max) return text;
  return text.slice(ops.capCodePoints(text, total - max).length);
}
