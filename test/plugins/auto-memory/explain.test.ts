// What auto-memory exposes so a tool (the CLI's inspect) can explain its choices without computing
// them a second time: rule decisions with skip reasons, the index read, the project of a directory.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeDisk } from '../../../src/plugins/auto-memory/disk.js';
import { readIndex } from '../../../src/plugins/auto-memory/inject.js';
import { projectAt } from '../../../src/plugins/auto-memory/project.js';
import { renderIndexMessage } from '../../../src/plugins/auto-memory/render.js';
import { decideRules, parseRule, selectRules } from '../../../src/plugins/auto-memory/rules.js';
import { createMemoryFileSystem } from '../../../src/testing/index.js';
import { projectKey } from '../../../src/host/index.js';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('decideRules', () => {
  it('AM-35 every due rule is rendered or skipped with its reason; selectRules is exactly the rendered part', () => {
    const rules = [
      parseRule('user', 'a.md', 'A'),
      parseRule('user', 'empty.md', '---\npaths: "x"\n---\n'),
      parseRule('project', 'scoped.md', '---\npaths: "src/**"\n---\nScoped'),
      parseRule('project', 'waiting.md', '---\npaths: "docs/**"\n---\nWaiting'),
      parseRule('project', 'big.md', 'B'.repeat(50)),
      parseRule('project', 'c.md', 'C'),
      parseRule('project', 'd.md', 'D'),
      parseRule('project', 'e.md', ''),
    ];
    const limits = { maxRuleBytes: 40, maxRulesBytes: 1000, maxRules: 3 };
    const active = new Set(['empty.md', 'scoped.md']);
    const decisions = decideRules(rules, active, limits);
    expect(decisions.map((d) => [d.rule.displayPath, d.due, d.skip])).toEqual([
      ['a.md', true, undefined],
      ['empty.md', true, 'empty'],
      ['scoped.md', true, undefined],
      ['waiting.md', false, undefined],
      ['big.md', true, 'over-rule-bytes'],
      ['c.md', true, undefined],
      ['d.md', true, 'over-limits'],
      ['e.md', true, 'over-limits'],
    ]);
    expect(selectRules(rules, active, limits).map((r) => r.displayPath)).toEqual(['a.md', 'scoped.md', 'c.md']);
  });
});

describe('readIndex', () => {
  const memdir = (files: Record<string, string | Buffer>) => {
    const dir = mkdtempSync(join(tmpdir(), 'am-index-'));
    made.push(dir);
    for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
    return dir;
  };
  const limits = { maxIndexLines: 3, maxIndexBytes: 44 };

  it('AM-27 absent, not a file, undecodable, and a bounded prefix of a large file', async () => {
    expect(await readIndex(nodeDisk, memdir({}), limits)).toEqual({ kind: 'absent' });
    const dir = memdir({});
    mkdirSync(join(dir, 'MEMORY.md'));
    expect(await readIndex(nodeDisk, dir, limits)).toEqual({ kind: 'not-a-file' });
    expect(await readIndex(nodeDisk, memdir({ 'MEMORY.md': Buffer.from([0xff, 0xfe, 0x00]) }), limits)).toMatchObject({ kind: 'undecodable', error: { code: 'BINARY_CONTENT' } });
    const big = `- [a](a.md) — first\n${'- [x](x.md) — more\n'.repeat(100_000)}`;
    const read = await readIndex(nodeDisk, memdir({ 'MEMORY.md': big }), limits);
    expect(read).toEqual({ kind: 'read', size: Buffer.byteLength(big), index: { body: '- [a](a.md) — first\n- [x](x.md) — more', truncated: true } });
    if (read.kind === 'read') expect(renderIndexMessage(read.index)).toContain('- [a](a.md) — first');
  });

  it('AM-27 a symbolic link is refused (the injector logs it and injects nothing)', async () => {
    const dir = memdir({ 'real.md': '- [a](a.md) — a\n' });
    symlinkSync(join(dir, 'real.md'), join(dir, 'MEMORY.md'));
    await expect(readIndex(nodeDisk, dir, limits)).rejects.toThrow('/memories/MEMORY.md is a symbolic link; memory storage never follows links');
  });
});

describe('projectAt', () => {
  it('AM-05..AM-07 the project of a directory: root by markers, key, memory directory', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '', '/repo/pkg/x': '' } });
    expect(await projectAt('/repo/pkg', ['.git'], fs, '/m')).toEqual({ cwd: '/repo/pkg', root: '/repo', key: projectKey('/repo'), memdir: join('/m', projectKey('/repo')) });
    expect((await projectAt('/repo/pkg', ['.git'], undefined, '/m')).root).toBe('/repo/pkg');
  });
});
