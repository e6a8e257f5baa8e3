// workspace-context in real DSH 0.1.0-rc.8, installed from our packed tarball with
// `dsh plugin add`: every scenario runs twice, once on stock DSH (its built-in agent-instructions
// loader) and once with our plugin in its place, and the model must receive byte-identical requests
// (temporary paths normalized). Exact texts are asserted too, against the spec's templates.

import { describe, expect, it } from 'vitest';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { RACY_WINDOW_MS, type SessionEvent } from '../../src/host/index.js';
import type { ChatScript, DshHost } from '../../src/testing/index.js';
import { added, baselineText, frame, identity, removed, REPLACING, section, updated } from '../support/workspace-context.js';
import { dshHost, normalizedLog, normalizedRequests, stderrOf } from './support.js';

/** The instruction user/messages of a session (either loader), in log order. */
function instructionEvents(events: readonly SessionEvent[]): SessionEvent[] {
  return events.filter((e) => e.type === 'user/message' && (e.data as { source: { kind: string } }).source.kind === 'agent-instructions');
}

/** The content text of a chat message sent to the model that starts with `<system-reminder>` and names instructions. */
function instructionTexts(host: DshHost, request = host.requests.length - 1): string[] {
  return host.requests[request]!.messages.flatMap((m) => (m.role === 'user' && typeof m.content === 'string' && /^<system-reminder>\n(The following workspace|Additional|Updated|Instructions removed|This complete)/.test(m.content) ? [m.content] : []));
}

const files = {
  'AGENTS.md': '# Root\nUse pnpm.\n',
  'CLAUDE.md': '# Claude\nKeep diffs small.\n',
  'pkg/AGENTS.md': '# Pkg\nPackage rules.\n',
  'pkg/app/CLAUDE.md': '# App\nApp rules.\n',
  'pkg/app/AGENTS.local.md': '# Local\nMy overrides.\n',
  'pkg/app/src/main.ts': 'export const main = 1;\n',
  'lib/AGENTS.md': '# Lib\nLib rules.\n',
  'lib/x.ts': 'x\n',
};
const homeFiles = { '.dsh/AGENTS.md': '# Me\nAnswer briefly.\n' };

/**
 * Runs `scenario` on stock DSH and on DSH with our workspace-context in place of its loader.
 * @returns [stock, ours]
 */
async function both(options: { cwd?: string; env?: Record<string, string> }, scenario: (host: DshHost) => Promise<void>): Promise<[DshHost, DshHost]> {
  const stock = dshHost({ packages: [], files, homeFiles, ...options });
  const ours = dshHost({ files, homeFiles, ...options }).use('workspace-context');
  await scenario(stock);
  await scenario(ours);
  return [stock, ours];
}

const read = (path: string): ChatScript[] => [{ tools: [{ name: 'read', input: { file_path: path } }] }, { text: 'done' }];

describe('workspace-context in real DSH: the same requests as DSH’s own loader (WC-29, WC-46)', () => {
  it('WC-17 WC-11 baseline chain: user-global, then root to cwd, base names before local overlays', async () => {
    const [stock, ours] = await both({ cwd: 'pkg/app' }, async (host) => {
      await host.run('hello', [{ text: 'hi' }]);
    });
    expect(normalizedRequests(ours)).toEqual(normalizedRequests(stock));
    // X-11, contract correction 5: DSH's session log text too (messages built as { content, source, role, id }).
    expect(normalizedLog(ours)).toEqual(normalizedLog(stock));
    expect(instructionTexts(ours)).toEqual([baselineText(
      section('~/.dsh/AGENTS.md', '# Me\nAnswer briefly.\n'),
      section('AGENTS.md', '# Root\nUse pnpm.\n'),
      section('CLAUDE.md', '# Claude\nKeep diffs small.\n'),
      section('pkg/AGENTS.md', '# Pkg\nPackage rules.\n'),
      section('pkg/app/CLAUDE.md', '# App\nApp rules.\n'),
      section('pkg/app/AGENTS.local.md', '# Local\nMy overrides.\n'),
    )]);
    const { events } = await ours.session();
    const [baseline] = instructionEvents(events);
    expect((baseline!.data as { source: { baselineIdentity: string } }).source.baselineIdentity).toBe(identity('../..'));
    expect(stderrOf(ours)).toBe('');
    expect(stderrOf(stock)).toBe('');
  });

  it('WC-38 WC-19 nested discovery after a read: the next step gets the directory’s instructions', async () => {
    const [stock, ours] = await both({}, async (host) => {
      await host.run('read it', read('lib/x.ts'));
    });
    expect(normalizedRequests(ours)).toEqual(normalizedRequests(stock));
    expect(normalizedLog(ours)).toEqual(normalizedLog(stock));
    expect(instructionTexts(ours)).toEqual([
      baselineText(section('~/.dsh/AGENTS.md', '# Me\nAnswer briefly.\n'), section('AGENTS.md', '# Root\nUse pnpm.\n'), section('CLAUDE.md', '# Claude\nKeep diffs small.\n')),
      frame(added('lib/AGENTS.md', 'lib', '# Lib\nLib rules.\n')),
    ]);
    expect(stderrOf(ours)).toBe('');
  });

  it('WC-15 WC-46 nested discovery from a read made inside Code Mode’s run_code', async () => {
    const code = { name: 'run_code', input: { code: 'const r = await tools.read({ file_path: "pkg/app/src/main.ts" });\nreturn "read";', description: 'read one file' } };
    const [stock, ours] = await both({ env: { DSH_TOOLS_MODE: 'code' } }, async (host) => {
      await host.run('read in code', [{ tools: [code] }, { text: 'done' }]);
    });
    expect(stock.requests[0]!.tools!.map((t) => t.function.name)).toContain('run_code');
    expect(normalizedRequests(ours)).toEqual(normalizedRequests(stock));
    expect(normalizedLog(ours)).toEqual(normalizedLog(stock));
    expect(instructionTexts(ours).at(-1)).toBe(frame(
      added('pkg/AGENTS.md', 'pkg', '# Pkg\nPackage rules.\n'),
      added('pkg/app/CLAUDE.md', 'pkg/app', '# App\nApp rules.\n'),
      added('pkg/app/AGENTS.local.md', 'pkg/app', '# Local\nMy overrides.\n'),
    ));
    expect(stderrOf(ours)).toBe('');
  });

  it('WC-32 resume after an offline edit: the changed file comes back as an update', async () => {
    const [stock, ours] = await both({}, async (host) => {
      await host.run('first', [{ text: 'one' }]);
      await host.restart();
      host.write('AGENTS.md', '# Root\nUse npm now.\n');
      await host.run('second', [{ text: 'two' }]);
    });
    expect(normalizedRequests(ours)).toEqual(normalizedRequests(stock));
    expect(normalizedLog(ours)).toEqual(normalizedLog(stock));
    expect(instructionTexts(ours).at(-1)).toBe(frame(updated('AGENTS.md', '# Root\nUse npm now.\n')));
    expect(stderrOf(ours)).toBe('');
  });

  it('WC-46 between steps, past the racy window: an added sibling, an in-place rewrite and a deletion in visible directories', async () => {
    // Long enough apart that our probe memory answers for unchanged directories (RACY_WINDOW_MS).
    const pause = () => new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 400));
    const [stock, ours] = await both({}, async (host) => {
      await host.run('read', [...read('pkg/app/src/main.ts').slice(0, 1), ...read('lib/x.ts')]);
      await pause();
      await host.run('quiet', [{ text: 'nothing changed' }]);
      await pause();
      await host.run('still quiet', [{ text: 'nothing changed' }]);
      host.write('pkg/CLAUDE.md', '# Pkg Claude\nMore rules.\n');
      host.write('pkg/app/CLAUDE.md', '# App\nApp rules, changed in place.\n');
      rmSync(join(host.workspace, 'lib/AGENTS.md'));
      await host.run('changed', [{ text: 'seen' }]);
    });
    expect(normalizedRequests(ours)).toEqual(normalizedRequests(stock));
    expect(normalizedLog(ours)).toEqual(normalizedLog(stock));
    // Directories in the order their instructions first came (as DSH's loader takes them), not by name.
    expect(instructionTexts(ours).at(-1)).toBe(frame(
      added('pkg/CLAUDE.md', 'pkg', '# Pkg Claude\nMore rules.\n'),
      updated('pkg/app/CLAUDE.md', '# App\nApp rules, changed in place.\n'),
      removed('lib/AGENTS.md'),
    ));
    expect(stderrOf(ours)).toBe('');
  });

  it('WC-45 WC-26 resume with an incompatible baseline (maxBytes changed): a replacement baseline', async () => {
    const stock = dshHost({ packages: [], files, homeFiles });
    const ours = dshHost({ files, homeFiles }).use('workspace-context');
    for (const host of [stock, ours]) {
      await host.run('first', [{ text: 'one' }]);
      await host.restart();
    }
    stock.patch({ id: 'agent-instructions', config: { maxBytes: 32768 } });
    ours.use('workspace-context', { maxBytes: 32768 });
    for (const host of [stock, ours]) await host.run('second', [{ text: 'two' }]);
    expect(normalizedRequests(ours)).toEqual(normalizedRequests(stock));
    expect(normalizedLog(ours)).toEqual(normalizedLog(stock));
    const last = instructionTexts(ours).at(-1)!;
    expect(last.startsWith(`<system-reminder>\n${REPLACING}`)).toBe(true);
    const { events } = await ours.session();
    expect((instructionEvents(events).at(-1)!.data as { source: { baselineIdentity: string } }).source.baselineIdentity).toBe(identity('', 32768));
    expect(stderrOf(ours)).toBe('');
  });

  it('WC-13 WC-43 item 6: a CLAUDE.md linking to ../home/.git-credentials is refused with a warning (stock DSH sends the token)', async () => {
    const ours = dshHost({ files: { 'AGENTS.md': files['AGENTS.md'] }, homeFiles: { '.git-credentials': 'https://me:ghp_REALDSHTOKEN@github.com\n' } }).use('workspace-context');
    symlinkSync('../home/.git-credentials', join(ours.workspace, 'CLAUDE.md'));
    await ours.run('hello', [{ text: 'hi' }]);
    expect(JSON.stringify(ours.requests)).not.toContain('ghp_REALDSHTOKEN');
    expect(instructionTexts(ours)).toEqual([baselineText(section('AGENTS.md', '# Root\nUse pnpm.\n'))]);
    const warned = (await ours.logs()).filter((l) => l.name === 'workspace-context').map((l) => `${l.level} ${l.text}`);
    expect(warned).toEqual([`warn workspace-context: not loading CLAUDE.md: it leads to ${join(ours.home, '.git-credentials')}, outside the project root, so it is not sent to the model (DSH's own loader would send it); allow it with the allowedLinkTargets config key`]);
    expect(stderrOf(ours)).toBe('');
  });
});
