// readBounded over an instruction file's text in one chunk (byte count, SHA-1, trimmed SHA-1) against
// what DSH's own loader does for the same results: Buffer.byteLength, then createHash('sha1') of the
// text and of text.trim().

import { createHash } from 'node:crypto';
import { readBounded } from 'dsh-context-engine/engine';
import type { Comparison } from './harness.js';
import { instructionText } from './inputs.js';

function dshPath(text: string): { bytes: number; sha1: string; trimmedSha1: string } {
  const bytes = Buffer.byteLength(text, 'utf8');
  const sha1 = createHash('sha1').update(text).digest('hex');
  const trimmedSha1 = createHash('sha1').update(text.trim()).digest('hex');
  return { bytes, sha1, trimmedSha1 };
}

export function readComparisons(): Comparison[] {
  return ([['1 KiB', 1024], ['16 KiB', 16384], ['64 KiB', 65536]] as const).map(([label, size]) => {
    const text = instructionText(size);
    return {
      group: `readBounded ${label} instruction file`,
      ours: { name: 'readBounded', fn: () => readBounded([text], { maxBytes: 1 << 20 }) },
      baselines: [{ name: 'DSH JS path', fn: () => dshPath(text) }],
      same: (v) => {
        const r = v as { bytes: number; sha1: string; trimmedSha1: string };
        return [r.bytes, r.sha1, r.trimmedSha1];
      },
      targets: { 'DSH JS path': 1.5 },
    };
  });
}
