// slice-tape mounted with the package's other plugins, as the bundle patch mounts them: their
// injected messages are protected nodes, keep their place and source, and stay visible, so their
// own suppression logic keeps working; nothing is logged.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as autoMemory from '../../../src/plugins/auto-memory/index.js';
import * as sliceTape from '../../../src/plugins/slice-tape/index.js';
import * as workspaceContext from '../../../src/plugins/workspace-context/index.js';
import { createTestHost } from '../../../src/testing/index.js';

describe('slice-tape with workspace-context and auto-memory', () => {
  it('ST-01 ST-16 their messages stay raw in place while the turns around them are sealed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dsh-tape-together-'));
    mkdirSync(join(home, 'auto-memory', '--repo--'), { recursive: true });
    writeFileSync(join(home, 'auto-memory', '--repo--', 'MEMORY.md'), '- [pnpm](pnpm.md) — use pnpm\n');
    const host = createTestHost({
      cwd: '/repo', dshHome: home,
      files: { '/repo/.git/HEAD': '', '/repo/AGENTS.md': 'root rules', '/repo/app/AGENTS.md': 'app rules', '/repo/app/x.ts': 'x', '/repo/.claude/rules/ts.md': '---\npaths: "app/**/*.ts"\n---\nTS rule.\n' },
    });
    host.use(workspaceContext, { maxBytes: 65536 });
    host.use(autoMemory, {});
    host.use(sliceTape, {});
    await host.run('hi', [{ tools: [{ name: 'read', input: { file_path: 'app/x.ts' } }] }, { text: 'ok' }]);
    await host.run('two', [{ text: 'second' }]);
    await host.run('three', [{ text: 'third' }]);
    const kinds = host.requests.at(-1)!.messages.map((m) => `${m.role}:${m.source.kind}${(m.source as { plugin?: string }).plugin ? `/${(m.source as { plugin?: string }).plugin}` : ''}`);
    expect(kinds).toEqual([
      'user:auto-memory', 'user:user', 'user:agent-instructions', 'user:plugin/slice:history',
      'user:agent-instructions', 'user:auto-memory', 'user:plugin/slice:history', 'user:plugin/slice:history', 'user:user',
    ]);
    expect(host.logs).toEqual([]);
  });
});
