// readBounded over an instruction file's text in one chunk of an async iterable (byte count, SHA-1, trimmed SHA-1) against
// what DSH's own loader does for the same results: Buffer.byteLength, then createHash('sha1') of the
// text and of text.trim().

import { createHash } from 'node:crypto';
import { readBounded } from 'dsh-context-engine/engine';
import type { Comparison } from './harness.js';
import { markdownInstructions } from './inputs.js';

/** DSH's fs provider hands text over as an async iterable of strings; a small file is one chunk. */
async function* oneChunk(text: string): AsyncGenerator<string> {
  yield text;
}

function dshPath(text: string): { bytes: number; sha1: string; trimmedSha1: string } {
  const bytes = Buffer.byteLength(text, 'utf8');
  const sha1 = createHash('sha1').update(text).digest('hex');
  const trimmedSha1 = createHash('sha1').update(text.trim()).digest('hex');
  return { bytes, sha1, trimmedSha1 };
}

export function readComparisons(): Comparison[] {
  const cases: Array<[string, number, boolean]> = [];
  for (const [label, size] of [['1 KiB', 1024], ['16 KiB', 16384], ['64 KiB', 65536]] as const) {
    cases.push([label, size, false], [label, size, true]);
  }
  return cases.map(([label, size, asciiOnly]) => {
    // A Markdown AGENTS.md, mostly ASCII with a CJK word in about one line of ten. The ASCII-only
    // twin (the same file with those words replaced) shows the case where V8 keeps the string one
    // byte per unit and node:crypto's native UTF-8 path is at its fastest.
    const markdown = markdownInstructions(size);
    // Decoding ASCII-only UTF-8 gives a one-byte string, as reading such a file does (a string
    // built by replace() from a two-byte one stays two-byte).
    const text = asciiOnly ? Buffer.from(markdown.replace(/[^\x00-\x7f]+/g, 'cjk'), 'utf8').toString('utf8') : markdown;
    return {
      group: `readBounded ${label} Markdown instructions, ${asciiOnly ? 'ASCII only (twin)' : 'a few CJK words'}`,
      ours: { name: 'readBounded', fn: () => readBounded(oneChunk(text), { maxBytes: 1 << 20 }) },
      baselines: [{ name: 'DSH JS path', fn: () => dshPath(text) }],
      same: (v) => {
        const r = v as { bytes: number; sha1: string; trimmedSha1: string };
        return [r.bytes, r.sha1, r.trimmedSha1];
      },
      targets: asciiOnly ? undefined : { 'DSH JS path': 1.5 },
    };
  });
}
