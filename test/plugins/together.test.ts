// The plugins of this package mounted together in one profile, as the bundle patch mounts them:
// each keeps its own messages, neither disturbs the other, and nothing is logged.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as autoMemory from '../../src/plugins/auto-memory/index.js';
import * as workspaceContext from '../../src/plugins/workspace-context/index.js';
import * as sliceTape from '../../src/plugins/slice-tape/index.js';
import * as contextProfiles from '../../src/plugins/context-profiles/index.js';
import { toolSearchTool } from '../../src/plugins/context-profiles/placeholders.js';
import { jsonSchemaViolations, type PluginModule } from '../../src/host/index.js';
import { createTestHost } from '../../src/testing/index.js';

describe('workspace-context and auto-memory together', () => {
  it('both inject on the first step and after a touch; compaction brings both back; no log lines', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dsh-together-'));
    mkdirSync(join(home, 'auto-memory', '--repo--'), { recursive: true });
    writeFileSync(join(home, 'auto-memory', '--repo--', 'MEMORY.md'), '- [pnpm](pnpm.md) — use pnpm\n');
    const host = createTestHost({
      cwd: '/repo', dshHome: home,
      files: {
        '/repo/.git/HEAD': '', '/repo/AGENTS.md': 'root rules', '/repo/app/AGENTS.md': 'app rules', '/repo/app/x.ts': '',
        '/repo/.claude/rules/ts.md': '---\npaths: "app/**/*.ts"\n---\nTS rule.\n',
      },
    });
    host.use(workspaceContext, { maxBytes: 65536 });
    host.use(autoMemory, {});
    await host.run('hi', [{ tools: [{ name: 'read', input: { file_path: 'app/x.ts' } }] }, { text: 'ok' }]);
    const kinds = (n: number) => host.requests[n]!.messages.map((m) => `${m.role}:${m.source.kind}${(m.source as { channel?: string }).channel ? `/${(m.source as { channel?: string }).channel}` : ''}`);
    expect(kinds(0)).toEqual(['user:auto-memory/index', 'user:user', 'user:agent-instructions']);
    expect(kinds(1)).toEqual([
      'user:auto-memory/index', 'user:user', 'user:agent-instructions', 'assistant:model', 'user:tool',
      'user:agent-instructions', 'user:auto-memory/rules',
    ]);
    host.compact();
    await host.run('again', [{ text: 'ok' }]);
    // The summary, then the index and the still-active path rule (AM-29, AM-36), the prompt, the baseline (WC-31).
    expect(kinds(2)).toEqual(['user:plugin', 'user:auto-memory/index', 'user:auto-memory/rules', 'user:user', 'user:agent-instructions']);
    expect(host.logs).toEqual([]);
  });
});

describe('every tool our plugins register is inside DSH’s JSON-schema subset (contract correction 1)', () => {
  it('X-12 output schemas (checked when DSH registers a tool) and parameter schemas (Code Mode types) of all four plugins', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dsh-schemas-'));
    const host = createTestHost({ cwd: '/repo', dshHome: home, files: { '/repo/.git/HEAD': '' }, models: { 'deepseek/deepseek-chat': ['low', 'high'] } });
    host.use(workspaceContext, { maxBytes: 65536 });
    host.use(autoMemory, {});
    host.use(sliceTape as unknown as PluginModule, {});
    host.use(contextProfiles as unknown as PluginModule, { dshHome: home });
    const agent = await host.start();
    const ours = host.core.tools.schemas(agent).map((s) => s.name).filter((name) => !['read', 'write', 'edit', 'run_code'].includes(name));
    expect(ours.sort()).toEqual(['expand_result', 'memory', 'recall_search', 'recall_step', 'recall_turn']);
    // tool_search registers only while a profile defers tools; its definition does not depend on them.
    const definitions = [...ours.map((name) => host.core.tools.get(name, agent)!), toolSearchTool({ deferred: () => [] } as never)];
    for (const def of definitions) {
      expect([def.name, jsonSchemaViolations(def.output.schema)]).toEqual([def.name, []]);
      expect([def.name, jsonSchemaViolations(def.parameters)]).toEqual([def.name, []]);
    }
  });
});
