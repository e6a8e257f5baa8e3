// A property over whole sessions (WC-12, WC-30, WC-31, WC-32, WC-36, WC-39, WC-46): whatever files
// are written, rewritten, duplicated or deleted between turns, and whatever compactions and resumes
// happen, after each turn the state the model has (the latest typed change per scope on the visible
// surface, plus what is pending) equals the files on disk, deduplicated per directory, for the
// baseline directory, every directory a visible change names, and the directories the turn touched.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { expect } from 'vitest';
import type { UserMessage } from '../../../src/host/index.js';
import { mount } from '../../support/workspace-context.js';

const DIRS = ['.', 'a', 'a/b'] as const;
const NAMES = ['AGENTS.md', 'CLAUDE.md', 'AGENTS.local.md'] as const;
const TEXTS = ['alpha', ' alpha\n', 'beta', '规则 😀'] as const;
const abs = (dir: string, name: string) => (dir === '.' ? `/repo/${name}` : `/repo/${dir}/${name}`);
const sha1 = (t: string) => createHash('sha1').update(t).digest('hex');

type Op =
  | { kind: 'write'; dir: string; name: string; text: string }
  | { kind: 'remove'; dir: string; name: string }
  | { kind: 'turn'; touch: string | undefined }
  | { kind: 'resume' }
  | { kind: 'compact' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), dir: fc.constantFrom(...DIRS), name: fc.constantFrom(...NAMES), text: fc.constantFrom(...TEXTS) }),
  fc.record({ kind: fc.constant('remove' as const), dir: fc.constantFrom(...DIRS), name: fc.constantFrom(...NAMES) }),
  fc.record({ kind: fc.constant('turn' as const), touch: fc.option(fc.constantFrom('a', 'a/b'), { nil: undefined }) }),
  fc.constant({ kind: 'resume' as const }),
  fc.constant({ kind: 'compact' as const }),
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
        const host = mount({ '/repo/a/x.ts': '', '/repo/a/b/x.ts': '', '/repo/c/x.ts': '' });
        for (const o of ops) {
          if (o.kind === 'write') {
            files.set(abs(o.dir, o.name), o.text);
            host.fs.write(abs(o.dir, o.name), o.text);
          } else if (o.kind === 'remove') {
            files.delete(abs(o.dir, o.name));
            host.fs.remove(abs(o.dir, o.name));
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
      { numRuns: 100, examples: [[[
        { kind: 'write', dir: 'a', name: 'AGENTS.md', text: 'beta' }, { kind: 'write', dir: 'a', name: 'CLAUDE.md', text: 'alpha' },
        { kind: 'turn', touch: 'a' }, { kind: 'write', dir: 'a', name: 'AGENTS.md', text: 'alpha' }, { kind: 'turn', touch: undefined },
      ]]] },
    );
  });
});
