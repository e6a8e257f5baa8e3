// createDshHost itself on real DSH 0.1.0-rc.8 (issue 30): one chosen row leaves DSH as it is without
// our bundle for the rest; a model that decides each step from its request (a responder); and when
// DSH refuses something, the test fails with DSH's own error rather than a symptom of it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conversation, dshHost, stderrOf } from './support.js';

const scratch = mkdtempSync(join(tmpdir(), 'dsh-driver-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a plugin module for DSH to load by path. */
function plugin(name: string, source: string): string {
  const path = join(scratch, `${name}.mjs`);
  writeFileSync(path, source);
  return path;
}

const FILES = { 'AGENTS.md': '# Rules\n\nKeep it small.\n', 'src/a.ts': 'export const a = 1;\n' };

describe('createDshHost', () => {
  it('issue 30: choosing slice-tape alone leaves DSH its own instruction loader (the bundle disables it only for workspace-context), and a responder answers every step from the request', async () => {
    const stock = dshHost({ packages: [], files: FILES });
    const tape = dshHost({ files: FILES }).use('slice-tape');
    for (const host of [stock, tape]) {
      let steps = 0;
      await host.run('read a', (request) => (++steps === 1 ? { tools: [{ name: 'read', id: 'r1', input: { file_path: 'src/a.ts' } }] } : { text: `seen ${request.messages.length} messages` }));
    }
    expect(stock.requests).toHaveLength(2);
    // The first request's conversation (instructions included) is stock DSH's, byte for byte.
    expect(conversation(tape, tape.requests[0]!)).toEqual(conversation(stock, stock.requests[0]!));
    expect(JSON.stringify(tape.requests[0]!.messages)).toContain('Instructions from: AGENTS.md');
    expect(tape.requests[1]!.messages.length).toBe(stock.requests[1]!.messages.length);
    expect([stderrOf(stock), stderrOf(tape)]).toEqual(['', '']);
  });

  it('issue 30: a turn DSH ends with an error fails with DSH’s own error (a surface replacement it refused), not with unused answers', async () => {
    const bad = plugin('bad-surface', `export const name = 'bad-surface';
export function apply(ctx) {
  ctx.on('agent/pre-step', async (event, next) => {
    const decision = await next();
    if (event.turn === 2) event.agent.session.append('user/message', { role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'plugin', plugin: 'bad' }, id: 'bad-1' }, { surfaceOp: { op: 'replace', start: 99999, end: 99999 }, sourceEventSeqs: [99999] });
    return decision;
  });
}
`);
    const host = dshHost({ packages: [] }).use(bad);
    await host.run('one', [{ text: 'a' }]);
    await expect(host.run('two', [{ text: 'b' }])).rejects.toThrow(/^DSH ended turn 2 with an error: surface replace: start seq 99999 not found in surface \(code UNKNOWN\); 1 scripted answer\(s\) were left unused\n/);
  });

  it('issue 30: a plugin DSH refuses at boot (an output schema outside DSH’s subset) fails with DSH’s loader error naming the row and the module', async () => {
    const bad = plugin('bad-schema', `export const name = 'bad-schema';
export const inject = ['tools'];
export function apply(ctx) {
  ctx.effect(() => ctx.tools.register({ name: 'bad', description: 'x', parameters: { type: 'object', properties: {} }, output: { schema: { type: 'string', pattern: 'a' }, render: (a, v) => [{ type: 'text', text: v }] }, async execute() { return 'x'; } }));
}
`);
    const host = dshHost({ packages: [] }).use(bad);
    await expect(host.run('hi', [{ text: 'a' }])).rejects.toThrow(`failed to apply loader entry bad-schema (${bad}): unsupported JSON schema: schema.pattern is not a supported keyword`);
  });
});
