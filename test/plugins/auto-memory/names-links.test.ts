// Memory names that look like other names, and hard links planted in the memory directory (AM-24,
// issue 32 item 15). A new name must be in Unicode normalization form C and hold no format character
// (zero-width, BOM, bidirectional controls); existing names are still readable and removable. A file
// with more than one name (a hard link) is read by no command and never injected as MEMORY.md: it
// could show a file stored elsewhere, one a sandboxed shell could link but not read.

import { linkSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeDisk } from '../../../src/plugins/auto-memory/disk.js';
import { readIndex } from '../../../src/plugins/auto-memory/inject.js';
import { visible, visibleLine } from '../../../src/cli/report.js';
import { tempDir, tempStore } from './support.js';

const LIMITS = { maxIndexLines: 200, maxIndexBytes: 25600 };

describe('item 15: names that look like other names', () => {
  it('AM-24 item 15: a decomposed café is refused, naming the composed form; the composed one is created once', async () => {
    const { store, memdir } = tempStore();
    const nfd = 'cafe\u0301';
    expect(await store.create(`/memories/${nfd}.md`, 'x')).toEqual({
      ok: false, code: 'INVALID_PATH',
      message: `"/memories/${nfd}.md" is not allowed: the segment "${nfd}.md" is not in Unicode normalization form C; write it as "café.md", which looks the same`,
    });
    expect(await store.create('/memories/café.md', 'x')).toMatchObject({ ok: true });
    expect(readdirSync(memdir).filter((n) => n.endsWith('.md')).sort()).toEqual(['MEMORY.md', 'café.md']);
  });

  it('AM-24 item 15: U+202E, U+200B and U+FEFF in a new name are refused for create and rename; a file that has one can still be read and deleted', async () => {
    const { store, memdir } = tempStore();
    for (const [char, code] of [['\u202e', 'U+202E'], ['\u200b', 'U+200B'], ['\ufeff', 'U+FEFF']] as const) {
      const name = `note${char}dm.md`;
      const shown = JSON.stringify(`/memories/${name}`);
      const problem = { ok: false, code: 'INVALID_PATH', message: `${shown} is not allowed: the segment ${JSON.stringify(name)} contains the invisible format character ${code}, which hides or reorders what a name shows` };
      expect(await store.create(`/memories/${name}`, 'x')).toEqual(problem);
      expect(await store.create('/memories/plain.md', 'x')).toMatchObject({ ok: true });
      expect(await store.rename('/memories/plain.md', `/memories/${name}`)).toEqual(problem);
      expect(await store.delete('/memories/plain.md')).toMatchObject({ ok: true });
    }
    // One planted by hand stays readable and removable.
    writeFileSync(join(memdir, 'planted\u202egnp.md'), 'planted');
    expect(await store.view('/memories/planted\u202egnp.md', false)).toMatchObject({ ok: true, content: 'planted' });
    expect(await store.delete('/memories/planted\u202egnp.md')).toMatchObject({ ok: true });
  });

  it('item 15: the terminal shows a bidirectional override escaped, so a name cannot reorder what the report shows', () => {
    expect(visibleLine('notes\u202egnp.md')).toBe('notes\\u202egnp.md');
    expect(visible('a\u2066b\u2069c\n')).toBe('a\\u2066b\\u2069c\n');
  });
});

describe('item 15: hard links planted in the memory directory', () => {
  it('AM-24 item 15: a hard link to a file elsewhere is not readable through view, str_replace or rename, and can be deleted', async () => {
    const { store, memdir, base } = tempStore();
    expect(await store.create('/memories/a.md', 'mine')).toMatchObject({ ok: true });
    writeFileSync(join(base, 'secret'), 'ssh-key');
    linkSync(join(base, 'secret'), join(memdir, 'key.md'));
    const refused = { ok: false, code: 'FORBIDDEN', message: '/memories/key.md has 2 names on disk (a hard link); memory storage reads only files that have one name, so a link cannot show a file stored elsewhere: delete it and create the memory again' };
    expect(await store.view('/memories/key.md', false)).toEqual(refused);
    expect(await store.strReplace('/memories/key.md', 'ssh', 'x')).toEqual(refused);
    expect(await store.rename('/memories/key.md', '/memories/b.md')).toEqual(refused);
    expect(await store.delete('/memories/key.md')).toMatchObject({ ok: true });
    expect(await store.view('/memories/a.md', false)).toMatchObject({ ok: true, content: 'mine' });
  });

  it('AM-27 item 15: a MEMORY.md that is a hard link is not injected', async () => {
    const base = tempDir();
    const memdir = join(base, 'mem');
    mkdirSync(memdir);
    writeFileSync(join(base, 'secret'), '- [Key](key.md) — ssh-key\n');
    linkSync(join(base, 'secret'), join(memdir, 'MEMORY.md'));
    await expect(readIndex(nodeDisk, memdir, LIMITS)).rejects.toThrow('/memories/MEMORY.md has 2 names on disk (a hard link)');
  });
});
