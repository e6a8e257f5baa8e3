// A property over whole sessions (WC-12, WC-30, WC-31, WC-32, WC-36, WC-39, WC-46): whatever files
// are written, rewritten, duplicated or deleted between turns, and whatever compactions and resumes
// happen, after each turn the state the model has (the latest typed change per scope on the visible
// surface, plus what is pending) equals the files on disk, deduplicated per directory, for the
// baseline directory, every directory a visible change names, and the directories the turn touched.
// Time passes between operations, and an entry may be added or removed within the timestamp tick of
// its directory's previous change (the directory's version stays as it was): the probe memory
// (probes.ts) must never let such a change go unseen.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { expect } from 'vitest';
import type { UserMessage } from '../../../src/host/index.js';
import { RACY_WINDOW_MS } from '../../../src/host/index.js';
import { mount } from '../../support/workspace-context.js';

const DIRS = ['.', 'a', 'a/b'] as const;
const NAMES = ['AGENTS.md', 'CLAUDE.md', 'AGENTS.local.md'] as const;
const TEXTS = ['alpha', ' alpha\n', 'beta', '规则 😀'] as const;
const abs = (dir: string, name: string) => (dir === '.' ? `/repo/${name}` : `/repo/${dir}/${name}`);
const sha1 = (t: string) => createHash('sha1').update(t).digest('hex');

/** The coarsest filesystem timestamp the probe memory allows for (FAT's 2 s): a same-tick change comes at most this long after the change it shares a tick with. */
const TICK_MS = 2000;

type Op =
  | { kind: 'write'; dir: string; name: string; text: string; sameTick: boolean }
  | { kind: 'remove'; dir: string; name: string; sameTick: boolean }
  | { kind: 'turn'; touch: string | undefined }
  | { kind: 'wait'; ms: number }
  | { kind: 'resume' }
  | { kind: 'compact' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('write' as const), dir: fc.constantFrom(...DIRS), name: fc.constantFrom(...NAMES), text: fc.constantFrom(...TEXTS), sameTick: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), dir: fc.constantFrom(...DIRS), name: fc.constantFrom(...NAMES), sameTick: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('turn' as const), touch: fc.option(fc.constantFrom('a', 'a/b'), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.constantFrom(1, 500, 1999, RACY_WINDOW_MS, 5000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'compact' as const }) },
);

/** What the model has: the latest change per scope over visible instruction messages, and the directories any change names. */
function modelState(messages: readonly UserMessage[]): { state: Map<string, string>; tracked: Set<string> } {
  const state = new Map<string, string>();
  const tracked = new Set<string>();
  for (const m of messages) {
    if (m.source.kind !== 'agent-instructions') continue;
    for (const c of (m.source as unknown as { changes: { action: string; scope: string; digest?: string }[] }).changes) {
      tracked.add(c.scope.split('\u0000')[0]!);
      if (c.action === 'remove') state.delete(c.scope);
      else state.set(c.scope, c.digest!);
    }
  }
  return { state, tracked };
}

/** What is on disk for the given directories, deduplicated per directory by trimmed text. */
function diskState(files: ReadonlyMap<string, string>, dirs: Iterable<string>): Map<string, string> {
  const state = new Map<string, string>();
  for (const dir of dirs) {
    const kept = new Set<string>();
    for (const name of NAMES) {
      const text = files.get(abs(dir, name));
      if (text === undefined || kept.has(text.trim())) continue;
      kept.add(text.trim());
      state.set(`${dir}\u0000${name}`, sha1(text));
    }
  }
  return state;
}

describe('convergence', () => {
  it('WC-39 WC-30 WC-31 the model state equals the deduplicated files of the baseline and touched directories', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        const files = new Map<string, string>();
        let now = 0;
        const host = mount({ '/repo/a/x.ts': '', '/repo/a/b/x.ts': '', '/repo/c/x.ts': '' }, undefined, { now: () => now });
        // When each directory's version last changed; a change may share that tick only within TICK_MS of it.
        const changed = new Map<string, number>(DIRS.map((d) => [d, 0]));
        const entryChange = (dir: string, sameTick: boolean): boolean => {
          const legal = sameTick && now - changed.get(dir)! < TICK_MS;
          if (!legal) changed.set(dir, now);
          return legal;
        };
        for (const o of ops) {
          if (o.kind === 'write') {
            const path = abs(o.dir, o.name);
            const sameTick = !files.has(path) && entryChange(o.dir, o.sameTick);
            files.set(path, o.text);
            host.fs.write(path, o.text, { sameTick });
          } else if (o.kind === 'remove') {
            const path = abs(o.dir, o.name);
            const sameTick = files.has(path) && entryChange(o.dir, o.sameTick);
            files.delete(path);
            host.fs.remove(path, { sameTick });
          } else if (o.kind === 'wait') {
            now += o.ms;
          } else if (o.kind === 'resume') {
            await host.resume();
          } else if (o.kind === 'compact') {
            if (host.session.surface.nodes.length > 0) host.compact();
          } else {
            if (o.touch === undefined) await host.run('turn', [{ text: 'ok' }]);
            else await host.run('turn', [{ tools: [{ name: 'read', input: { file_path: `${o.touch}/x.ts` } }] }, { text: 'ok' }]);
            // The last pre-step re-checked the baseline and every directory a visible change names;
            // the touch (if any) reached its directories. What is still pending in the inbox counts.
            const { state, tracked } = modelState([...host.session.deriveMessages().filter((m): m is UserMessage => m.role === 'user'), ...host.agent.inbox.nextStep]);
            const touched = o.touch === undefined ? [] : o.touch === 'a/b' ? ['a', 'a/b'] : [o.touch];
            expect(state).toEqual(diskState(files, new Set(['.', ...tracked, ...touched])));
          }
        }
      }),
      { numRuns: 200, examples: [[[
        // An entry added within the tick of its directory's last change, after the directory was seen twice.
        { kind: 'turn', touch: 'a' }, { kind: 'wait', ms: 500 }, { kind: 'turn', touch: 'a' },
        { kind: 'write', dir: 'a', name: 'AGENTS.md', text: 'alpha', sameTick: true }, { kind: 'turn', touch: 'a' },
      ]], [[
        { kind: 'write', dir: 'a', name: 'AGENTS.md', text: 'beta', sameTick: false }, { kind: 'write', dir: 'a', name: 'CLAUDE.md', text: 'alpha', sameTick: false },
        { kind: 'turn', touch: 'a' }, { kind: 'write', dir: 'a', name: 'AGENTS.md', text: 'alpha', sameTick: false }, { kind: 'turn', touch: undefined },
      ]]] },
    );
  });
});
