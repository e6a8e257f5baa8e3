// Issue 31: inspect's @-import notes follow Claude Code's rule for `@path` imports: an `@` at a line's
// start or after whitespace, then a path (no whitespace or `\`, `\ ` for a space), not inside fenced
// code blocks or inline code spans; inline references count. The scan is linear, with no regular
// expression over the text.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { atImports, MAX_IMPORTS, scanImports } from '../../src/cli/imports.js';
import { cleanUp, tempDir } from '../support/cli.js';

afterAll(cleanUp);

const tokens = (text: string) => scanImports(text).map((i) => i.token);

describe('issue 31: @-imports by Claude Code’s rule', () => {
  it('an inline reference counts, as a line of its own does: `See @AGENTS.md`', () => {
    expect(scanImports('See @AGENTS.md\n')).toEqual([{ token: '@AGENTS.md', path: 'AGENTS.md' }]);
    expect(tokens('@docs/style.md\n  @~/notes.md and @./b.md\n')).toEqual(['@docs/style.md', '@~/notes.md', '@./b.md']);
    expect(tokens('first\t@tabbed.md')).toEqual(['@tabbed.md']);
  });

  it('not inside a fenced code block (``` or ~~~, with an info string, closed by a run at least as long)', () => {
    const fenced = '# Deps\n```text\n@ai-sdk/<provider> ─┴──▶ …\n```\nthen @real.md\n~~~~\n@x.md\n~~~\n@still-fenced.md\n~~~~\n@after.md\n';
    expect(tokens(fenced)).toEqual(['@real.md', '@after.md']);
    // An unclosed fence runs to the end of the text, as in Markdown.
    expect(tokens('```\n@inside.md\n')).toEqual([]);
    // Up to three spaces of indentation open a fence; a backtick fence's info string holds no backtick.
    expect(tokens('   ```\n@a.md\n   ```\n@b.md\n')).toEqual(['@b.md']);
    expect(tokens('``` not `a` fence\n@c.md\n')).toEqual(['@c.md']);
  });

  it('not inside an inline code span (a run of N backticks closed by the next run of exactly N); an unmatched run is text', () => {
    expect(tokens('run `npm i @ai-sdk/openai` then see @README.md')).toEqual(['@README.md']);
    expect(tokens('``a ` @in.md`` @out.md')).toEqual(['@out.md']);
    expect(tokens('a stray ` then @open.md')).toEqual(['@open.md']);
  });

  it('an @ after a non-space is no import (mail addresses, handles in words); a backslash-escaped space belongs to the path', () => {
    expect(tokens('mail me@example.com or x@y')).toEqual([]);
    expect(scanImports('@my\\ notes.md more')).toEqual([{ token: '@my\\ notes.md', path: 'my notes.md' }]);
    expect(scanImports('@a\\b.md')).toEqual([{ token: '@a', path: 'a' }]);
    expect(tokens('@ alone, and @')).toEqual([]);
  });

  it(`stops after ${MAX_IMPORTS + 1} imports`, () => {
    expect(scanImports(Array.from({ length: 50 }, (_, i) => `@f${i}.md`).join(' '))).toHaveLength(MAX_IMPORTS + 1);
  });

  it('resolves each as Claude Code does (from the importing file’s folder, ~/ from the home) and says whether a regular file is there', () => {
    const dir = tempDir('dsh-imports-');
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', 'AGENTS.md'), 'x');
    mkdirSync(join(dir, 'home'));
    writeFileSync(join(dir, 'home', 'me.md'), 'x');
    const found = atImports('See @AGENTS.md, @missing.md, @~/me.md and @pkg', join(dir, 'pkg', 'CLAUDE.md'), join(dir, 'home'));
    expect(found).toEqual([
      { token: '@AGENTS.md,', path: 'AGENTS.md,', exists: false },
      { token: '@missing.md,', path: 'missing.md,', exists: false },
      { token: '@~/me.md', path: '~/me.md', exists: true },
      { token: '@pkg', path: 'pkg', exists: false },
    ]);
    expect(atImports('@AGENTS.md', join(dir, 'pkg', 'CLAUDE.md'), dir)[0]!.exists).toBe(true);
  });

  it('property: every import is an @ at a line start or after whitespace, with a non-empty path without whitespace', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('@', '`', '~', ' ', '\n', '\\', 'a', '.', '/', '\t') , maxLength: 200 }), (text) => {
      for (const { token, path } of scanImports(text)) {
        expect(token.startsWith('@')).toBe(true);
        expect(path.length).toBeGreaterThan(0);
        expect(/[\t\n\r]/.test(path)).toBe(false);
      }
    }));
  });
});
