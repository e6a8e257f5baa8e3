// Issue 33: the compose phase asks "does it fit" (fitsUtf8), which the engine answers from a block's
// length where it can; the baseline counts with Buffer.byteLength every time, as DSH's loader does.
// renderBlock must give byte-identical blocks either way, and composeAgrees must catch a wrong answer.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bufferBudget, composeAgrees, composeAll } from '../../src/cli/bench-paths.js';
import { engineBudget, INTRO, renderBlock, type ByteBudget, type RenderItem } from '../../src/plugins/workspace-context/render.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const cutOf = (budget: ByteBudget, text: string, max: number) => {
  const { text: cut, bytes: n } = budget.truncateUtf8(text, max);
  return { text: cut, bytes: n };
};
const item = (path: string, content: string): RenderItem => ({ kind: 'baseline', path, directory: '.', content });
/**
 * Well-formed text, as a file's decoded content is: one to four UTF-8 bytes a character, astral
 * characters as surrogate pairs, no lone surrogate.
 */
const fileText = (maxLength: number) => fc.string({ unit: 'binary', maxLength });
/** Chains of one to three files (and `</system-reminder>`, which escaping lengthens). */
const chain = fc.array(fc.oneof(fileText(400), fc.constant('</system-reminder>'), fileText(3000)), { minLength: 1, maxLength: 3 })
  .map((contents) => contents.map((content, i) => item(`${'p/'.repeat(i)}AGENTS.md`, content)));

describe('issue 33 X-05 WC-25: compose through the engine\'s fit test gives the blocks Buffer\'s count gives', () => {
  it('WC-25 renderBlock is byte-identical with the engine and with Buffer, at budgets around each block\'s n, 3n and byte size', () => {
    fc.assert(fc.property(chain, fc.nat({ max: 12_000 }), (items, max) => {
      const full = renderBlock(items, INTRO, 1e9, bufferBudget).text;
      for (const m of [max, full.length - 1, full.length, 3 * full.length - 1, 3 * full.length, bytes(full) - 1, bytes(full), 60, 150].filter((m) => m > 0)) {
        expect(renderBlock(items, INTRO, m), `budget ${m}`).toEqual(renderBlock(items, INTRO, m, bufferBudget));
      }
      expect(composeAgrees([items], max + 1)).toBe(true);
    }), { numRuns: 120 });
  });

  it('composeAgrees compares every fit answer: an engine wrong only at the exact boundary is caught', () => {
    const items = [item('AGENTS.md', 'root rules'), item('pkg/AGENTS.md', '中文'.repeat(300))];
    const full = renderBlock(items, INTRO, 1e9, bufferBudget).text;
    // The budget of the whole block: the one question whose true answer is "fits at exactly its size".
    const offByOne: ByteBudget = { ...engineBudget, fitsUtf8: (text, max) => bytes(text) < max };
    expect(composeAgrees([items], bytes(full))).toBe(true);
    expect(composeAgrees([items], bytes(full), offByOne)).toBe(false);
    const wrongCount: ByteBudget = { ...engineBudget, utf8Length: (text) => text.length };
    expect(composeAgrees([items], 200)).toBe(true);
    expect(composeAgrees([items], 200, wrongCount)).toBe(false);
  });

  it('X-05 the baseline\'s cut and the engine\'s agree at every byte of a four-byte character: an over-budget file cut inside an emoji is no disagreement', () => {
    const items = [item('AGENTS.md', `${'a'.repeat(100)}😀${'b'.repeat(40)}`)];
    const overhead = bytes(renderBlock([item('AGENTS.md', '')], INTRO, 1e9, bufferBudget).text);
    for (let k = 0; k <= 4; k++) {
      for (const budget of [engineBudget, bufferBudget]) expect(cutOf(budget, 'a'.repeat(100) + '😀b', 100 + k)).toEqual(k < 4 ? { text: 'a'.repeat(100), bytes: 100 } : { text: `${'a'.repeat(100)}😀`, bytes: 104 });
    }
    // Every budget from the empty block's up: the content's cut (after the budget notice) lands before,
    // inside (1, 2, 3 bytes in) and after the emoji.
    for (let max = overhead; max <= overhead + 400; max++) {
      expect(composeAgrees([items], max), `budget ${max}`).toBe(true);
      expect(renderBlock(items, INTRO, max), `budget ${max}`).toEqual(renderBlock(items, INTRO, max, bufferBudget));
    }
  });

  it('composeAll gives the same total on both paths (length and last unit of every block)', () => {
    const chains = [[item('AGENTS.md', 'a'.repeat(5000))], [item('AGENTS.md', '中'.repeat(30_000))], [item('AGENTS.md', 'x'), item('b/AGENTS.md', '😀'.repeat(9000))]];
    for (const max of [65_536, 20_000, 300]) {
      const expected = chains.map((c) => renderBlock(c, INTRO, max, bufferBudget).text).reduce((sum, t) => sum + t.length + t.charCodeAt(t.length - 1), 0);
      expect([composeAll('wasm', chains, max), composeAll('js', chains, max)]).toEqual([expected, expected]);
    }
  });
});
