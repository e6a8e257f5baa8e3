// The built module as DSH loads it (CP-01a): plain ESM by package name, importing no DSH package,
// `name = 'context-profiles'`, no default export, silent on stderr.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinProfiles } from '../../../src/plugins/context-profiles/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('built module (CP-01a)', () => {
  it('CP-01a loads by package name, applies lean to a session, and writes nothing to stderr', () => {
    const home = mkdtempSync(join(tmpdir(), 'cp-'));
    writeFileSync(join(home, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: {} }));
    const script = `
      const plugin = await import('dsh-context-engine/context-profiles');
      const { createTestHost } = await import('dsh-context-engine/testing');
      const host = createTestHost({ dshHome: ${JSON.stringify(home)}, cwd: '/repo', files: {} });
      const tool = (name) => ({ name, description: name + '. More.', parameters: { type: 'object', properties: { a: { type: 'string', description: 'x' } } }, output: { schema: { type: 'object' }, render: () => [] }, execute: async () => ({}) });
      for (const name of ['todo_write', 'mcp__gh__get']) host.ctx.tools.register(tool(name));
      host.use(plugin, {});
      await host.run('hi', [{ text: 'ok' }]);
      console.log(JSON.stringify({ name: plugin.name, default: 'default' in plugin, tools: host.requests[0].tools.map((t) => t.name + ':' + t.description), logs: host.logs.length }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      name: 'context-profiles', default: false,
      // In name order, as DSH sends them.
      tools: ['edit:Edit an existing UTF-8 text file by replacing literal text.', 'mcp__gh__get:mcp__gh__get.', 'read:Read a UTF-8 text file and return line-numbered content.', "run_code:Run a program of tool calls, in order; returns each call's text.", `tool_search:${'Load the full definitions of deferred tools.'} Deferred tools appear in your tool list with a one-line summary and a bare parameter skeleton. Call tool_search with a query (matched case-insensitively against deferred tool names and summaries) to receive their complete descriptions and parameter schemas. It only returns definitions; it never runs a tool.`, 'write:Create or fully replace a UTF-8 text file.'],
      logs: 0,
    });
  });
});
