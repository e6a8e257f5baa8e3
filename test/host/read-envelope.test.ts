// DSH's `read` envelope (issue 30): the read index counts the file's lines the window shows, not the
// envelope's own (path, type and content tags, the blank line and the footer).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readWindowLines } from '../../src/host/index.js';
import { readResult, writeResult } from '../support/file-tools.js';

const envelope = (body: string): string => `<path>/repo/a.ts</path>\n<type>file</type>\n<content>\n${body}\n</content>`;
const numbered = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}: line ${from + i}`).join('\n');

describe('readWindowLines', () => {
  it('issue 30: a 245-line file read whole is 245 lines (the envelope adds 6)', () => {
    const text = Array.from({ length: 245 }, (_, i) => `const x${i} = ${i};`).join('\n') + '\n';
    const result = readResult('/repo/merge-config-args.ts', text);
    expect(result.split('\n')).toHaveLength(251);
    expect(readWindowLines(result)).toBe(245);
  });

  it('issue 30: an empty file is 0 lines; a window that ends early or is capped counts the lines it shows', () => {
    expect(readWindowLines(readResult('/repo/empty.txt', ''))).toBe(0);
    expect(readWindowLines(envelope(`${numbered(10, 20)}\n\n(Showing lines 10-20 of 100. Use offset=21 to continue.)`))).toBe(11);
    expect(readWindowLines(envelope(`${numbered(1, 1800)}\n\n(Output capped. Showing lines 1-1800. Use offset=1801 to continue.)`))).toBe(1800);
    expect(readWindowLines(envelope('(Output capped. Showing lines 5-4. Use offset=5 to continue.)'))).toBe(0);
  });

  it('issue 30: text that is not DSH’s read envelope is undefined (the caller counts its lines itself)', () => {
    for (const text of ['', 'plain\ntext', writeResult('/repo/a.ts', true), '<path>a</path>\n<type>file</type>\n<content>\nno footer\n</content>', `x${envelope('(End of file - total 0 lines)')}`]) {
      expect([text, readWindowLines(text)]).toEqual([text, undefined]);
    }
  });

  it('issue 30: for any file text, the count is the number of lines DSH numbered', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', ' ', '(', ')', ':', '1', '\t') }), { maxLength: 40 }), (lines) => {
      expect(readWindowLines(readResult('/repo/f.txt', lines.map((l) => `${l}\n`).join('')))).toBe(lines.length);
    }));
  });
});
