// Pages (issue 30): DSH spills a tool result over 50,000 bytes, so a recalled result over one page
// comes in pages under that limit whose texts joined are the original byte for byte, and every
// locator of such a result (fold header, tape line, recall page) names each page, so a model asks
// for all of them in one step.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPILL_INLINE_BYTES } from '../../../src/host/index.js';
import { PAGE_BYTES, paginate, resultLocator } from '../../../src/plugins/slice-tape/pages.js';
import { catTool } from '../../support/cat-tool.js';
import { callTool, tapeHost, visibleEntries } from './support.js';

const bytes = (s: string) => Buffer.byteLength(s);
/** 130,000+ bytes of lines mixing ASCII, CJK and emoji. */
const HUGE = Array.from({ length: 2600 }, (_, i) => `${String(i).padStart(5, '0')} ${i % 3 === 0 ? '数据😀' : 'line'} ${'x'.repeat(30)}`).join('\n');

/** A page answer split into its header and the page's text. */
function parsePage(answer: string): { header: string; text: string } {
  const at = answer.indexOf('\n');
  return { header: answer.slice(0, at), text: answer.slice(at + 1) };
}

describe('paginate', () => {
  it('issue 30: pages of at most PAGE_BYTES bytes, cut after a line, joined are the text; a text that fits is one page', () => {
    expect(PAGE_BYTES).toBe(SPILL_INLINE_BYTES - 2000);
    expect(paginate('short')).toEqual([{ start: 0, end: 5, fromByte: 0, toByte: 5 }]);
    const pages = paginate(HUGE);
    expect(pages.length).toBe(Math.ceil(bytes(HUGE) / PAGE_BYTES));
    expect(pages.map((p) => HUGE.slice(p.start, p.end)).join('')).toBe(HUGE);
    for (const p of pages.slice(0, -1)) {
      expect(bytes(HUGE.slice(p.start, p.end))).toBeLessThanOrEqual(PAGE_BYTES);
      expect(HUGE.slice(p.start, p.end).endsWith('\n')).toBe(true);
    }
  });

  it('issue 30 property: for any text and page size, pages join to the text, fit the size, never split a character, and cut after a newline when one falls inside', () => {
    const unit = fc.constantFrom('a', '\n', '字', '😀', 'é', ' ');
    fc.assert(fc.property(fc.array(unit, { maxLength: 400 }).map((a) => a.join('')), fc.integer({ min: 4, max: 60 }), (text, size) => {
      const pages = paginate(text, size);
      expect(pages.map((p) => text.slice(p.start, p.end)).join('')).toBe(text);
      pages.forEach((p, i) => {
        const piece = text.slice(p.start, p.end);
        expect(bytes(piece)).toBeLessThanOrEqual(size);
        expect(p.toByte - p.fromByte).toBe(bytes(piece));
        // Never a lone surrogate: a character is never split.
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(piece)).toBe(false);
        if (i < pages.length - 1 && piece.includes('\n')) expect(piece.endsWith('\n')).toBe(true);
      });
    }));
  });
});

describe('expand_result in pages', () => {
  const host = () => {
    const h = tapeHost({ fold: { enabled: false } }, { files: { '/repo/huge.txt': HUGE, '/repo/small.txt': 'small' } });
    h.ctx.tools!.register(catTool(h, '/repo'));
    return h;
  };
  const seqOf = (h: ReturnType<typeof host>) => h.session.events.find((e) => e.type === 'tool/result')!.seq;

  it('issue 30: a result over one page comes a page at a time, each answer under DSH’s spill limit, with a header naming the page, its bytes and the next page’s call; the pages join to the original', async () => {
    const h = host();
    await h.run('q', [{ tools: [{ name: 'cat', input: { file_path: 'huge.txt' } }] }, { text: 'ok' }]);
    const seq = seqOf(h);
    const count = paginate(HUGE).length;
    expect(count).toBe(3);
    let joined = '';
    for (let page = 1; page <= count; page++) {
      const answer = await callTool(h, 'expand_result', { seq, formatVersion: 3, page });
      expect(answer.isError).toBe(false);
      expect(bytes(answer.text)).toBeLessThanOrEqual(SPILL_INLINE_BYTES);
      const { header, text } = parsePage(answer.text);
      const p = paginate(HUGE)[page - 1]!;
      const next = page < count ? ` · next: expand_result({"seq":${seq},"formatVersion":3,"page":${page + 1}})` : ' · last page';
      expect(header).toBe(`[expand_result({"seq":${seq},"formatVersion":3,"page":${page}}) · page ${page} of ${count} · bytes ${p.fromByte}-${p.toByte} of ${bytes(HUGE)}${next}]`);
      joined += text;
    }
    expect(joined).toBe(HUGE);
    // Without a page: the first one (before issue 30, the whole text, which DSH then spilled).
    expect(await callTool(h, 'expand_result', { seq, formatVersion: 3 })).toEqual(await callTool(h, 'expand_result', { seq, formatVersion: 3, page: 1 }));
    expect(await callTool(h, 'expand_result', { seq, formatVersion: 3, page: 4 })).toEqual({ isError: true, text: `Error: expand_result: page 4 does not exist; the result has 3 page(s) of at most ${PAGE_BYTES} bytes` });
    expect(await callTool(h, 'expand_result', { seq, formatVersion: 3, page: 0 })).toEqual({ isError: true, text: 'Error: expand_result: page must be a positive integer, got 0' });
  });

  it('issue 30: a result that fits one page is returned verbatim, with or without page 1; a filter is carried into the next page’s call', async () => {
    const h = host();
    await h.run('q', [{ tools: [{ name: 'cat', input: { file_path: 'small.txt' } }, { name: 'cat', input: { file_path: 'huge.txt' } }] }, { text: 'ok' }]);
    const [small, huge] = h.session.events.filter((e) => e.type === 'tool/result').map((e) => e.seq);
    expect(await callTool(h, 'expand_result', { seq: small, formatVersion: 3 })).toEqual({ isError: false, text: 'small' });
    expect(await callTool(h, 'expand_result', { seq: small, formatVersion: 3, page: 1 })).toEqual({ isError: false, text: 'small' });
    expect(await callTool(h, 'expand_result', { seq: small, formatVersion: 3, page: 2 })).toEqual({ isError: true, text: 'Error: expand_result: page 2 does not exist; the result has 1 page' });
    const kept = HUGE.split('\n').filter((l) => l.includes('line')).join('\n');
    const first = await callTool(h, 'expand_result', { seq: huge, formatVersion: 3, grep: 'line' });
    expect(paginate(kept).length).toBe(2);
    expect(parsePage(first.text).header).toContain(` · next: expand_result({"seq":${huge},"formatVersion":3,"grep":"line","page":2})]`);
    const second = await callTool(h, 'expand_result', { seq: huge, formatVersion: 3, grep: 'line', page: 2 });
    expect(parsePage(first.text).text + parsePage(second.text).text).toBe(kept);
  });

  it('issue 30: the fold header and the tape line of a result over one page name every page’s call', async () => {
    const h = tapeHost({ history: { pinFirstTurn: false } }, { files: { '/repo/huge.txt': HUGE } });
    h.ctx.tools!.register(catTool(h, '/repo'));
    await h.run('q', [{ tools: [{ name: 'cat', id: 'c', input: { file_path: 'huge.txt' } }] }, { text: 'ok' }]);
    const seq = h.session.events.find((e) => e.type === 'tool/result')!.seq;
    const pages = `3 pages: ${[1, 2, 3].map((p) => `expand_result({"seq":${seq},"formatVersion":3,"page":${p}})`).join(' ')}`;
    expect(resultLocator({ seq }, HUGE)).toBe(pages);
    const sent = h.requests[1]!.messages.find((m) => m.source.kind === 'tool')!;
    const view = JSON.stringify(sent.content);
    expect(view).toContain(`[condensed tool result · turn 1 step 1 call 1 · ${[...HUGE].length} chars · full text: ${pages}]`.replaceAll('"', '\\"'));
    await h.run('next', [{ text: 'ok' }]);
    expect(visibleEntries(h)[0]!.split('\n').at(-1)).toBe(`[tool seq ${seq} · cat "huge.txt" · ${[...HUGE].length} chars · ${pages}]`);
  });
});
