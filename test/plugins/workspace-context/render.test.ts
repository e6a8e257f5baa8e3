// Rendering and the byte budget, without a host (WC-17..WC-28, WC-44).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderBlock, renderEmptyReplacement, type RenderItem } from '../../../src/plugins/workspace-context/render.js';
import { added, COMPACT, frame, INTRO, removed, REPLACING, section, updated } from '../../support/workspace-context.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const file = (path: string, content: string, directory = '.'): RenderItem => ({ kind: 'baseline', path, directory, content });

describe('templates', () => {
  it('WC-17 a baseline frames intro and sections joined by blank lines', () => {
    const out = renderBlock([file('~/.dsh/AGENTS.md', 'global', 'user-global'), file('AGENTS.md', 'root')], INTRO, 65536);
    expect(out).toEqual({ text: frame(INTRO, section('~/.dsh/AGENTS.md', 'global'), section('AGENTS.md', 'root')), represented: [true, true], omitted: [] });
  });

  it('WC-19 WC-20 WC-21 WC-22 a dynamic batch has no intro and one section per transition', () => {
    const items: RenderItem[] = [
      { kind: 'set', path: 'packages/app/AGENTS.md', directory: 'packages/app', content: 'app' },
      { kind: 'replace', path: 'AGENTS.md', directory: '.', content: 'new root' },
      { kind: 'remove', path: 'packages/app/CLAUDE.md', directory: 'packages/app', content: '' },
    ];
    expect(renderBlock(items, '', 65536).text).toBe(frame(added('packages/app/AGENTS.md', 'packages/app', 'app'), updated('AGENTS.md', 'new root'), removed('packages/app/CLAUDE.md')));
    expect(renderBlock([{ kind: 'set', path: 'AGENTS.md', directory: '.', content: 'x' }], '', 100000).text)
      .toBe('<system-reminder>\nAdditional instructions from: AGENTS.md\n\nThese instructions apply to work under `.`. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.\n\nx\n</system-reminder>');
  });

  it('WC-28 an empty file renders its heading with an empty body', () => {
    expect(renderBlock([file('AGENTS.md', '')], INTRO, 65536).text).toBe(`<system-reminder>\n${INTRO}\n\nInstructions from: AGENTS.md\n\n\n</system-reminder>`);
  });

  it('WC-44 the superseding intros', () => {
    expect(renderEmptyReplacement(65536)).toBe(frame(`${REPLACING} No workspace instructions are currently active.`));
    expect(renderEmptyReplacement(10)).toBe('This compl');
  });
});

describe('escaping (WC-23, X-08)', () => {
  it('WC-23 escapes </system-reminder> in content and paths before counting bytes', () => {
    const items = [file('a</system-reminder>/AGENTS.md', 'x </system-reminder> y')];
    const text = frame(INTRO, section('a<\\/system-reminder>/AGENTS.md', 'x <\\/system-reminder> y'));
    expect(renderBlock(items, INTRO, bytes(text)).text).toBe(text);
    // One byte less no longer fits the escaped form, so the content is cut and a notice appears.
    const cut = renderBlock(items, INTRO, bytes(text) - 1).text;
    expect(cut.startsWith('<system-reminder>\nWorkspace instruction budget ')).toBe(true);
    expect(bytes(cut)).toBeLessThanOrEqual(bytes(text) - 1);
    expect(cut.match(/<\/system-reminder>/g)).toEqual(['</system-reminder>']);
  });
});

describe('budget (WC-25, WC-26, WC-27)', () => {
  const a = file('AGENTS.md', 'A'.repeat(100));
  const b = file('pkg/AGENTS.md', 'B'.repeat(100), 'pkg');
  const c = file('pkg/app/AGENTS.md', 'C'.repeat(100), 'pkg/app');

  it('WC-25 step 2 drops whole files from the broad end and names them in the notice (WC-26)', () => {
    const full = frame(INTRO, section(a.path, a.content), section(b.path, b.content), section(c.path, c.content));
    const withoutA = (max: number) => frame(`Workspace instruction budget ${max} bytes: omitted AGENTS.md`, INTRO, section(b.path, b.content), section(c.path, c.content));
    const max = bytes(withoutA(600));
    expect(bytes(full)).toBeGreaterThan(max);
    expect(renderBlock([a, b, c], INTRO, max)).toEqual({ text: withoutA(max), represented: [false, true, true], omitted: ['AGENTS.md'] });
    const withoutAB = (m: number) => frame(`Workspace instruction budget ${m} bytes: omitted AGENTS.md, pkg/AGENTS.md`, INTRO, section(c.path, c.content));
    expect(renderBlock([a, b, c], INTRO, max - 1)).toEqual({ text: withoutAB(max - 1), represented: [false, false, true], omitted: ['AGENTS.md', 'pkg/AGENTS.md'] });
  });

  it('WC-25 step 3 cuts the most specific file at a UTF-8 boundary, multibyte text at the cut', () => {
    const content = '规则'.repeat(50) + '😀'.repeat(10); // 300 + 40 bytes
    const cjk = file('pkg/app/AGENTS.md', content, 'pkg/app');
    const render = (kept: string) =>
      frame(`Workspace instruction budget 500 bytes: omitted AGENTS.md; truncated pkg/app/AGENTS.md from 340 to ${bytes(kept)} bytes`, INTRO, section(cjk.path, kept));
    // The longest whole-character prefix that fits, found by trying every one.
    const prefixes = [...Array(101).keys()].map((n) => content.slice(0, n));
    const best = prefixes.filter((p) => bytes(render(p)) <= 500).at(-1)!;
    expect(best.length).toBeGreaterThan(10);
    expect(renderBlock([a, cjk], INTRO, 500)).toEqual({ text: render(best), represented: [false, true], omitted: ['AGENTS.md'], truncated: { path: cjk.path, from: 340, to: bytes(best) } });
  });

  it('WC-25 a cut never splits a surrogate pair', () => {
    const emoji = file('AGENTS.md', '😀'.repeat(100));
    for (let max = 420; max < 470; max++) {
      const out = renderBlock([emoji], INTRO, max).text;
      expect(bytes(out)).toBeLessThanOrEqual(max);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
      expect(out).not.toContain('\ufffd');
    }
  });

  it('WC-25 step 4 retries with the compact intro when no content fits beside the normal one', () => {
    const only = file('AGENTS.md', 'hello world');
    const render = (intro: string, n: number) =>
      frame(`Workspace instruction budget 300 bytes: truncated AGENTS.md from 11 to ${n} bytes`, intro, section('AGENTS.md', 'hello world'.slice(0, n)));
    expect(bytes(render(INTRO, 0))).toBeGreaterThan(300);
    const n = [...Array(12).keys()].filter((k) => bytes(render(COMPACT, k)) <= 300).at(-1)!;
    expect(n).toBeGreaterThan(0);
    expect(renderBlock([only], INTRO, 300)).toEqual({ text: render(COMPACT, n), represented: [true], omitted: [], truncated: { path: 'AGENTS.md', from: 11, to: n } });
  });

  it('WC-25 step 5 falls back to the unframed notice with heading, the notice, then the cut notice', () => {
    const only = file('AGENTS.md', 'hello');
    const n = (max: number) => `Workspace instruction budget ${max} bytes: truncated AGENTS.md from 5 to 0 bytes`;
    const cut = { omitted: [], truncated: { path: 'AGENTS.md', from: 5, to: 0 } };
    expect(renderBlock([only], INTRO, 120)).toEqual({ text: `${n(120)}\n\nInstructions from: AGENTS.md\n\n`, represented: [false], ...cut });
    expect(renderBlock([only], INTRO, 100)).toEqual({ text: n(100), represented: [false], ...cut });
    expect(renderBlock([only], INTRO, 20)).toEqual({ text: n(20).slice(0, 20), represented: [false], ...cut });
  });

  it('WC-27 an empty file counts as rendered when its heading survives', () => {
    const empty = file('pkg/AGENTS.md', '', 'pkg');
    const render = (max: number) => frame(`Workspace instruction budget ${max} bytes: omitted AGENTS.md`, INTRO, section('pkg/AGENTS.md', ''));
    const max = bytes(render(400));
    expect(renderBlock([a, empty], INTRO, max)).toEqual({ text: render(max), represented: [false, true], omitted: ['AGENTS.md'] });
    expect(renderBlock([empty], INTRO, 120)).toEqual({
      text: 'Workspace instruction budget 120 bytes: truncated pkg/AGENTS.md from 0 to 0 bytes\n\nInstructions from: pkg/AGENTS.md\n\n', represented: [true], omitted: [], truncated: { path: 'pkg/AGENTS.md', from: 0, to: 0 },
    });
  });

  it('WC-25 property: the rendering never exceeds the budget, keeps a suffix, and represents what it shows', () => {
    const content = fc.string({ unit: fc.constantFrom('a', ' ', '\n', 'é', '规', '😀', '</system-reminder>'), maxLength: 60 });
    fc.assert(
      fc.property(fc.array(content, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 2000 }), (contents, max) => {
        const items = contents.map((c, i) => file(`d${i}/AGENTS.md`, c, `d${i}`));
        const out = renderBlock(items, INTRO, max);
        expect(bytes(out.text)).toBeLessThanOrEqual(max);
        const first = out.represented.indexOf(true);
        if (first >= 0) expect(out.represented.slice(first).every(Boolean) || out.represented.filter(Boolean).length === 1).toBe(true);
        out.represented.forEach((shown, i) => {
          if (shown && out.represented.filter(Boolean).length > 1) expect(out.text).toContain(section(items[i]!.path.replace('</system-reminder>', '<\\/system-reminder>'), ''));
        });
      }),
      { numRuns: 300 },
    );
  });
});
