// The session bench's harness on real DSH 0.1.0-rc.8 (issue 30), in a few turns: the needs-aware model
// finds in stock DSH every result it needs, and in our bundle recalls what was sealed or folded in one
// step each (a 60 KB read in pages under DSH's spill limit included); the bill adds up; and the
// fidelity check gets every sampled original back byte for byte. The long runs are `npm run bench:session`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleConfig, runSession } from '../../bench/session.js';
import { LARGE_FILE_BYTES, sessionWorkspace, type PlannedTurn } from '../../bench/session-workload.js';
import { realDsh } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'session-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }), 60_000);

describe('npm run bench:session, in a few turns', () => {
  it('issue 30: needs are found in stock DSH and recalled in one step from the bundle’s tape (pages of a folded 60 KB read too); the bill adds up; sampled originals come back byte for byte', { timeout: 240_000 }, async () => {
    const { dsh, tarball, pnpmStore } = realDsh();
    const workspace = sessionWorkspace(join(dir, 'ws'), 600, 7);
    const large = workspace.files.find((f) => f.bytes >= LARGE_FILE_BYTES)!.path;
    const [a, b, c] = workspace.files.filter((f) => f.bytes > 500 && f.bytes < 20_000 && /\.ts$/.test(f.path)).map((f) => f.path);
    const plan: PlannedTurn[] = [
      { prompt: 'Look at the big one.', steps: [[{ name: 'read', input: { file_path: large } }], [{ name: 'grep', input: { pattern: 'const', path: a! } }]], answer: 'It is big.' },
      { prompt: 'And this one?', steps: [[{ name: 'read', input: { file_path: b! } }]], answer: 'Small.' },
      { prompt: 'One more.', steps: [[{ name: 'read', input: { file_path: c! } }, { name: 'glob', input: { pattern: '**/*.md' } }]], answer: 'Done.' },
      { prompt: 'Count lines.', steps: [[{ name: 'bash', input: { command: `wc -l ${a}`, description: 'Count lines' } }]], answer: 'Counted.' },
    ];
    const common = { dsh, tarball, pnpmStore, workspace, plan, policy: 'needs3' as const, seed: 7 };
    const stock = await runSession({ ...common, config: 'stock', fidelity: 0 });
    // Four short turns are far from the bundle's startAfterChars: the tape here starts at once.
    const tape = bundleConfig('slice-tape');
    const rowConfigs = new Map([['slice-tape', { ...tape, history: { ...(tape.history as object), startAfterChars: 0 } }]]);
    const bundle = await runSession({ ...common, config: 'bundle', fidelity: 8, rowConfigs });

    const planned = plan.reduce((n, t) => n + t.steps.length + 1, 0);
    expect(stock.totals.requests).toBe(planned);
    // Turns 2-4 need one result of the previous turn and up to three older ones.
    expect(stock.needs.length).toBeGreaterThanOrEqual(6);
    expect(stock.needs.every((n) => n.first === 'present' && n.satisfied)).toBe(true);
    // The bundle sealed every earlier turn: each need is one recall step, by the locator it shows.
    expect(bundle.needs.map((n) => [n.first, n.steps, n.satisfied])).toEqual(stock.needs.map(() => ['expand', 1, true]));
    expect(bundle.totals.requests).toBe(planned + 3);
    expect(bundle.folds).toBe(1);

    for (const r of [stock, bundle]) {
      expect(r.costThroughTurns.at(-1)).toBeCloseTo(r.totals.cost, 6);
      expect(r.totals.cost).toBeCloseTo(r.requests.reduce((n, q) => n + q.miss + q.hit / 10, 0), 6);
      expect(r.requests.every((q) => q.hit % 64 === 0 && q.hit + q.miss === q.tokens && q.toolTokens + q.messageTokens === q.tokens)).toBe(true);
    }
    // Tools are billed apart: the bundle sends its own (recall tools, memory, tool_search) and defers DSH's others (its frugal profile).
    expect(bundle.totals.toolTokens / bundle.totals.requests).not.toBe(stock.totals.toolTokens / stock.totals.requests);

    expect(bundle.fidelity.filter((f) => f.kind === 'expand_result').length).toBeGreaterThanOrEqual(4);
    expect(bundle.fidelity.some((f) => f.folded === true)).toBe(true);
    expect(bundle.fidelity.filter((f) => !f.exact)).toEqual([]);
  });
});
