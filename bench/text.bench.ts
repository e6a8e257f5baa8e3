// Text budgets on 1 MiB of lines where one line in three mixes CJK words and an emoji into ASCII
// prose: UTF-8 length against Buffer.byteLength, and capping at half the code points against a tight
// charCodeAt loop. Ours includes moving the string into WASM.

import { capCodePoints, utf8Length } from 'dsh-context-engine/engine';
import type { Comparison } from './harness.js';
import { linesWithCjkAndEmoji } from './inputs.js';

/** The plain-JavaScript way: walk code units, a surrogate pair counting once. */
function capCodePointsJs(text: string, max: number): string {
  let i = 0;
  let n = 0;
  const len = text.length;
  while (i < len && n < max) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    i++;
    n++;
  }
  return text.slice(0, i);
}

export function textComparisons(): Comparison[] {
  const text = linesWithCjkAndEmoji(1 << 20);
  const half = Math.floor(Array.from(text).length / 2);
  return [
    {
      group: 'utf8Length 1 MiB, one line in three with CJK and emoji',
      ours: { name: 'utf8Length', fn: () => utf8Length(text) },
      baselines: [{ name: 'Buffer.byteLength', fn: () => Buffer.byteLength(text, 'utf8') }],
      targets: { 'Buffer.byteLength': 4 },
    },
    {
      group: 'capCodePoints 1 MiB, one line in three with CJK and emoji, to half',
      ours: { name: 'capCodePoints', fn: () => capCodePoints(text, half) },
      baselines: [{ name: 'JS charCodeAt loop', fn: () => capCodePointsJs(text, half) }],
      same: (v) => (v as string).length,
      targets: { 'JS charCodeAt loop': 4 },
    },
  ];
}
