// Issue 31: the throwaway DSH home inspect runs DSH in. Everything DSH reads is copied; installed
// packages are linked, not copied; past sessions' data is left out; links stay links; a private file
// stays private; a home over the limits is refused with the numbers, and the original is never touched.

import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyDshHome, SESSION_DATA_DIRS } from '../../src/cli/dsh-home-copy.js';
import { CliError } from '../../src/cli/env.js';
import { cleanUp, tempDir } from '../support/cli.js';

afterAll(cleanUp);

function home(): string {
  const dir = join(tempDir('dsh-home-copy-'), 'dsh');
  const put = (path: string, text: string, mode?: number): void => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text, mode !== undefined ? { mode } : {});
  };
  put('AGENTS.md', '# Me\n');
  put('settings.yaml', 'a: 1\n');
  put('.credentials.yaml', 'k: v\n', 0o600);
  put('profiles/headless/package.json', '{}');
  put('profiles/headless/cordis.patch.yml', '[]\n');
  put('profiles/headless/node_modules/pkg/index.js', 'export {};\n');
  put('auto-memory/--p--/MEMORY.md', '- a\n');
  put('sessions/--p--/s1/session.jsonl', '{}\n');
  put('attachments/v1/x.png', 'png');
  symlinkSync('AGENTS.md', join(dir, 'CLAUDE.md'));
  // DSH's module fallback: one link per package of its installation, repaired at every boot.
  mkdirSync(join(dir, 'profiles/node_modules/@deepseek-ai'), { recursive: true });
  symlinkSync('/opt/dsh/node_modules/@deepseek-ai/dsh-base', join(dir, 'profiles/node_modules/@deepseek-ai/dsh-base'));
  return dir;
}

describe('issue 31: the throwaway copy of the DSH home', () => {
  it('copies files and folders, links node_modules, re-creates links, leaves out past sessions’ data, keeps modes; DSH’s module fallback is copied (DSH repairs it in place)', () => {
    const from = home();
    const to = join(tempDir('dsh-home-copy-to-'), 'dsh');
    const copy = copyDshHome(from, to);
    // 15 entries (the fallback's folder, scope folder and link among them; a profile's node_modules linked), 24 bytes of files.
    expect(copy).toEqual({ entries: 15, bytes: 24, linked: 1, skipped: ['attachments', 'sessions'] });
    expect(lstatSync(join(to, 'profiles/node_modules')).isDirectory()).toBe(true);
    expect(readlinkSync(join(to, 'profiles/node_modules/@deepseek-ai/dsh-base'))).toBe('/opt/dsh/node_modules/@deepseek-ai/dsh-base');
    expect(readFileSync(join(to, 'AGENTS.md'), 'utf8')).toBe('# Me\n');
    expect(readFileSync(join(to, 'auto-memory/--p--/MEMORY.md'), 'utf8')).toBe('- a\n');
    expect(readlinkSync(join(to, 'CLAUDE.md'))).toBe('AGENTS.md');
    expect(readlinkSync(join(to, 'profiles/headless/node_modules'))).toBe(join(from, 'profiles/headless/node_modules'));
    expect(lstatSync(join(to, 'profiles/headless')).isDirectory()).toBe(true);
    expect(statSync(join(to, '.credentials.yaml')).mode & 0o777).toBe(0o600);
    for (const dir of SESSION_DATA_DIRS) expect(() => lstatSync(join(to, dir))).toThrow();
    // The copy is the copy: writing to it leaves the original as it was.
    writeFileSync(join(to, 'AGENTS.md'), 'changed');
    expect(readFileSync(join(from, 'AGENTS.md'), 'utf8')).toBe('# Me\n');
  });

  it('a missing home gives an empty one (DSH initializes its stock profiles there)', () => {
    const to = join(tempDir('dsh-home-copy-to-'), 'dsh');
    expect(copyDshHome(join(tempDir('dsh-home-none-'), 'nope'), to)).toEqual({ entries: 0, bytes: 0, linked: 0, skipped: [] });
    expect(statSync(to).isDirectory()).toBe(true);
  });

  it('a home over the limits is refused with the limit named, and what to do', () => {
    const from = home();
    const error = (() => {
      try {
        copyDshHome(from, join(tempDir('dsh-home-copy-to-'), 'dsh'), { entries: 5, bytes: 1 << 20 });
      } catch (e) {
        return e;
      }
    })() as CliError;
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toBe('the DSH home holds more than 5 entries outside sessions, attachments, storages; inspect copies it to run DSH without writing to it, and stops at that size');
    expect(error.hint).toBe('move large files out of the DSH home, or run inspect with --offline (the plugins\' part only)');
    expect(() => copyDshHome(from, join(tempDir('dsh-home-copy-to-'), 'dsh'), { entries: 100, bytes: 10 })).toThrow('the DSH home holds more than 10 bytes outside sessions');
  });
});
