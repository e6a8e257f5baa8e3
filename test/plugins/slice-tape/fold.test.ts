// Tool-result folding, minimum contract (ST-11): the view's first line names the exact locator,
// the original stays retrievable verbatim, and nothing already sent is folded again.

import { describe, expect, it } from 'vitest';
import type { Context, PreStepDecision, PreStepEvent } from '../../../src/host/index.js';
import { createTestHost, type TestHost } from '../../../src/testing/index.js';
import * as tape from '../../../src/plugins/slice-tape/index.js';
import { callTool, surfaceTexts, tapeHost, toolLine, visibleEntries } from './support.js';
import { catTool } from '../../support/cat-tool.js';

const BIG = `${'头'.repeat(1500)}\n${'😀'.repeat(500)}\n${'t'.repeat(700)}`; // 2702 code points, 7202 UTF-8 bytes
const bytes = (s: string) => Buffer.byteLength(s);
const files = { '/repo/big.txt': BIG, '/repo/small.txt': 'small', '/repo/b2.txt': BIG };
/** Large results come from `cat` (the file's raw text, as any tool's result): DSH's own `read` wraps and caps its output. */
const read = (path: string, id?: string) => ({ name: 'cat', ...(id ? { id } : {}), input: { file_path: path } });
/** A host with the tape and the `cat` tool. */
const catHost = (config: object, options: Parameters<typeof tapeHost>[1]) => {
  const host = tapeHost(config, options);
  host.ctx.tools!.register(catTool(host, '/repo'));
  return host;
};
const resultSeq = (host: TestHost, callId: string) => host.session.events.find((e) => e.type === 'tool/result' && (e.data as { message: { source: { callId: string } } }).message.source.callId === callId)!.seq;
/** Our folds: tool results rewritten in place (a replacement of one original tool/result). */
const folds = (host: TestHost) => host.session.events.filter((e) => e.type === 'tool/result' && e.surfaceOp !== 'append');
/** The tool-result text the model was sent in request `i`. */
const sentResults = (host: TestHost, i: number) => host.requests[i]!.messages.filter((m) => m.source.kind === 'tool').map((m) => surfaceText(m.content));
const surfaceText = (content: readonly { type: string; content?: readonly { type: string; text?: string }[] }[]) => content.flatMap((b) => b.content ?? []).map((b) => b.text ?? '').join('');

describe('folding', () => {
  it('ST-11 a large unsent result is condensed before the request; the first line names the exact locator and expand_result returns the original', async () => {
    const host = catHost({ fold: { spillPreviewMinBytes: 4000 } }, { files });
    await host.run('q', [{ tools: [read('big.txt', 'c1'), read('small.txt', 'c2')] }, { text: 'ok' }]);
    const seq = resultSeq(host, 'c1');
    const view = `[condensed tool result · turn 1 step 1 call 1 · 2702 chars · full text: expand_result({"seq":${seq},"formatVersion":3})]\n${'头'.repeat(1200)}…[+902 chars]…${'t'.repeat(600)}`;
    expect(bytes(BIG)).toBe(7202);
    expect(sentResults(host, 1)).toEqual([view, 'small']);
    expect(folds(host).map((e) => e.sourceEventSeqs)).toEqual([[seq]]);
    expect(await callTool(host, 'expand_result', { seq, formatVersion: 3 })).toEqual({ isError: false, text: BIG });
    expect(await callTool(host, 'expand_result', { seq: folds(host)[0]!.seq, formatVersion: 3 })).toEqual({ isError: false, text: BIG });
  });

  it('ST-11 below the threshold, with spillPreviewMinBytes 0, or with enabled false nothing is folded; the default threshold is 50000 bytes', async () => {
    for (const fold of [{ spillPreviewMinBytes: 7203 }, { spillPreviewMinBytes: 0 }, { enabled: false, spillPreviewMinBytes: 1 }, {}]) {
      const host = catHost({ fold }, { files });
      await host.run('q', [{ tools: [read('big.txt')] }, { text: 'ok' }]);
      expect([fold, sentResults(host, 1)]).toEqual([fold, [BIG]]);
    }
    const host = catHost({ fold: { spillPreviewMinBytes: 7202 } }, { files });
    await host.run('q', [{ tools: [read('big.txt')] }, { text: 'ok' }]);
    expect(sentResults(host, 1)[0]!.startsWith('[condensed tool result · ')).toBe(true);
  });

  it('ST-11 pinSteps keeps results of the first steps raw when they are under pinMaxChars code points', async () => {
    const run = async (fold: object) => {
      const host = catHost({ fold: { spillPreviewMinBytes: 4000, ...fold } }, { files });
      await host.run('q', [{ tools: [read('big.txt')] }, { tools: [read('b2.txt')] }, { text: 'ok' }]);
      return sentResults(host, 2).map((t) => t.startsWith('[condensed'));
    };
    expect(await run({})).toEqual([true, true]);
    expect(await run({ pinSteps: 1 })).toEqual([false, true]);
    expect(await run({ pinSteps: 1, pinMaxChars: 2702 })).toEqual([true, true]);
  });

  it('ST-11 results already sent are never folded: not on a late mount, not the view itself, not retrieved originals', async () => {
    const host = createTestHost({ cwd: '/repo', files });
    host.ctx.tools!.register(catTool(host, '/repo'));
    await host.run('q1', [{ tools: [read('big.txt', 'old')] }, { text: 'ok' }]);
    host.use(tape, { fold: { spillPreviewMinBytes: 4000 } });
    await host.run('q2', [{ tools: [read('big.txt', 'new')] }, { tools: [{ name: 'expand_result', input: { turn: 2, step: 1 } }] }, { text: 'ok' }]);
    expect(folds(host).map((e) => e.sourceEventSeqs)).toEqual([[resultSeq(host, 'new')]]);
    expect(sentResults(host, 4).slice(-1)).toEqual([BIG]);
  });

  it('ST-11 backoffAfterExpansions: after that many distinct full expansions of one resource its results stay raw; partial ones do not count', async () => {
    const host = catHost({ fold: { spillPreviewMinBytes: 4000, backoffAfterExpansions: 2 } }, { files });
    const cycle = (turn: number, filter: object = {}) => [{ tools: [read('big.txt')] }, { tools: [{ name: 'expand_result', input: { turn, step: 1, ...filter } }] }, { text: 'ok' }];
    await host.run('1', cycle(1, { lines: '1-1' }));
    await host.run('2', cycle(2));
    await host.run('3', cycle(3));
    await host.run('4', [{ tools: [read('big.txt', 'last')] }, { text: 'ok' }]);
    expect(folds(host).length).toBe(3);
    expect(sentResults(host, host.requests.length - 1).at(-1)).toBe(BIG);
  });

  it('ST-11 backoff counts expansions of our folds only: a result another plugin rewrote in place (as DSH\'s tool-result pruner does) is not a fold', async () => {
    const run = async (pruner: boolean) => {
      const host = catHost({ fold: { spillPreviewMinBytes: 4000, backoffAfterExpansions: 1 } }, { files });
      if (pruner) {
        // DSH's dsh-compaction-tool-result-pruner, as when pressure qualifies in turn 1 only: it spreads the
        // original data and changes only content (head, marker, tail).
        host.use({
          name: 'pruner',
          apply(ctx: Context) {
            ctx.on('agent/pre-step', async (event: PreStepEvent, next: () => Promise<PreStepDecision>) => {
              const session = event.agent.session;
              for (const seq of event.turn === 1 ? session.surface.nodes : []) {
                const e = session.events[seq]!;
                if (e.type !== 'tool/result' || e.surfaceOp !== 'append') continue;
                const data = e.data as { message: { content: { type: string; content: { type: string; text: string }[] }[] } };
                const [block] = data.message.content;
                const text = block!.content[0]!.text;
                if (text.length <= 3000) continue;
                const pruned = { ...block, content: [{ type: 'text', text: `${text.slice(0, 100)}\n\n[... tool result middle pruned ...]\n\n${text.slice(-50)}` }] };
                session.append('tool/result', { ...data, message: { ...data.message, content: [pruned] } }, { surfaceOp: { op: 'replace', start: seq, end: seq }, sourceEventSeqs: [seq] });
              }
              return next();
            }, { prepend: true });
          },
        });
      }
      await host.run('1', [{ tools: [read('big.txt')] }, { tools: [{ name: 'expand_result', input: { turn: 1, step: 1 } }] }, { text: 'ok' }]);
      await host.run('2', [{ tools: [read('big.txt', 'again')] }, { text: 'ok' }]);
      return sentResults(host, host.requests.length - 1).at(-1)!;
    };
    // Our own fold, fully expanded once: the resource backs off and its next result stays raw.
    expect(await run(false)).toBe(BIG);
    // Pruned by someone else before our fold saw it, then expanded: not our fold, so no backoff.
    expect((await run(true)).startsWith('[condensed tool result · turn 2 step 1 call 1 · 2702 chars · ')).toBe(true);
  });

  it('ST-11 ST-22 a sealed turn\'s tool line points at the original result and its size', async () => {
    const host = catHost({ fold: { spillPreviewMinBytes: 4000 }, history: { pinFirstTurn: false } }, { files });
    await host.run('q', [{ tools: [read('big.txt', 'c1')] }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    expect(visibleEntries(host)[0]!.split('\n').at(-1)).toBe(toolLine(resultSeq(host, 'c1'), 'cat', 2702, 'big.txt'));
    expect(surfaceTexts(host).slice(-2)).toEqual(['next', 'ok']);
  });
});
