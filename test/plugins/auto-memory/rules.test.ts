// Rules without a host (AM-31..AM-35, AM-38): discovery through an in-memory fs provider, links,
// frontmatter, ordering, limits, and activation through one GlobSet.

import picomatch from 'picomatch';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { below, parseRule, RuleMatcher, RuleReader, selectRules, type Rule } from '../../../src/plugins/auto-memory/rules.js';
import { RACY_WINDOW_MS } from '../../../src/host/index.js';
import { createMemoryFileSystem } from '../../../src/testing/index.js';

const LIMITS = { maxRuleBytes: 65536, maxRulesBytes: 131072, maxRules: 100 };
const USER_DIRS = [{ configured: '~/.dsh/rules', path: '/home/u/.dsh/rules' }, { configured: '~/.claude/rules', path: '/home/u/.claude/rules' }];
const SOURCES = { userRuleDirs: USER_DIRS, projectRuleDirs: ['.dsh/rules', '.claude/rules'], projectRoot: '/repo' };

function reader(files: Record<string, string>, limits = LIMITS) {
  const fs = createMemoryFileSystem({ files });
  const warnings: string[] = [];
  return { fs, warnings, reader: new RuleReader(fs, limits, (m) => warnings.push(m)) };
}

const summary = (rules: Rule[]) => rules.map((r) => [r.level, r.displayPath, r.paths, r.body]);

describe('discovery', () => {
  it('AM-31 user rules before project rules; configured dir order; relative paths in code-point order; **/*.md only', async () => {
    const { reader: r } = reader({
      '/home/u/.claude/rules/mac-config.md': 'mac',
      '/home/u/.dsh/rules/z.md': 'z',
      '/home/u/.dsh/rules/a/b.md': 'ab',
      '/home/u/.dsh/rules/a.md': 'a',
      '/home/u/.dsh/rules/notes.txt': 'no',
      '/home/u/.dsh/rules/.hidden.md': 'no',
      '/home/u/.dsh/rules/.dir/x.md': 'no',
      '/repo/.claude/rules/api.md': '---\npaths:\n  - "src/api/**/*.ts"\n---\n# API rules\n',
      '/repo/.dsh/rules/sub/deep.md': 'deep',
      '/repo/.git/HEAD': '',
    });
    expect(summary(await r.collect(SOURCES))).toEqual([
      ['user', '~/.dsh/rules/a.md', [], 'a'],
      ['user', '~/.dsh/rules/a/b.md', [], 'ab'],
      ['user', '~/.dsh/rules/z.md', [], 'z'],
      ['user', '~/.claude/rules/mac-config.md', [], 'mac'],
      ['project', '.dsh/rules/sub/deep.md', [], 'deep'],
      ['project', '.claude/rules/api.md', ['src/api/**/*.ts'], '# API rules'],
    ]);
  });

  it('AM-32 user rule dirs follow file and directory links (Home Manager / Nix), breaking cycles', async () => {
    const { fs, reader: r } = reader({ '/nix/store/abc/mac-config.md': 'mac', '/nix/store/dir/cloudflare.md': 'cf', '/home/u/.claude/rules/own.md': 'own' });
    fs.symlink('/home/u/.claude/rules/mac-config.md', '/nix/store/abc/mac-config.md');
    fs.symlink('/home/u/.claude/rules/shared', '/nix/store/dir');
    fs.symlink('/home/u/.claude/rules/loop', '/home/u/.claude/rules');
    fs.symlink('/home/u/.dsh/rules', '/home/u/.claude/rules');
    expect(summary(await r.collect({ ...SOURCES, userRuleDirs: USER_DIRS.slice(1) }))).toEqual([
      ['user', '~/.claude/rules/mac-config.md', [], 'mac'],
      ['user', '~/.claude/rules/own.md', [], 'own'],
      ['user', '~/.claude/rules/shared/cloudflare.md', [], 'cf'],
    ]);
    // Both user dirs reach the same files: each real file counts once, under the first dir.
    expect((await r.collect(SOURCES)).map((x) => x.displayPath)).toEqual(['~/.dsh/rules/mac-config.md', '~/.dsh/rules/own.md', '~/.dsh/rules/shared/cloudflare.md']);
  });

  it('AM-32 project rule dirs skip links whose real path leaves the project and follow links that stay inside', async () => {
    const { fs, reader: r } = reader({
      '/etc/secret.md': 'SECRET', '/outside/dir/x.md': 'OUT', '/repo/docs/inside.md': 'IN', '/repo/docs/dir/y.md': 'INDIR', '/repo/.claude/rules/own.md': 'own',
    });
    fs.symlink('/repo/.claude/rules/evil.md', '/etc/secret.md');
    fs.symlink('/repo/.claude/rules/evil-dir', '/outside/dir');
    fs.symlink('/repo/.claude/rules/ok.md', '../../docs/inside.md');
    fs.symlink('/repo/.claude/rules/ok-dir', '/repo/docs/dir');
    fs.symlink('/repo/.dsh/rules', '/outside/dir');
    expect(summary(await r.collect({ ...SOURCES, userRuleDirs: [] }))).toEqual([
      ['project', '.claude/rules/ok-dir/y.md', [], 'INDIR'],
      ['project', '.claude/rules/ok.md', [], 'IN'],
      ['project', '.claude/rules/own.md', [], 'own'],
    ]);
  });

  it('AM-33 frontmatter: only paths is read; the body has the frontmatter removed; CRLF normalized', () => {
    expect(parseRule('project', '.claude/rules/a.md', '---\r\npaths: "src/**"\r\ndescription: ignored\r\nalwaysApply: true\r\n---\r\n\r\n# Title\r\ntext\r\n\r\n')).toEqual({
      level: 'project', displayPath: '.claude/rules/a.md', paths: ['src/**'], body: '# Title\ntext', bytes: 12,
    });
  });

  it('AM-35 X-04 a rule file far over the limit is skipped without being read to the end, and reported once per version', async () => {
    const { fs, reader: r, warnings } = reader({ '/repo/.claude/rules/big.md': 'x'.repeat(200), '/repo/.claude/rules/ok.md': 'ok' }, { maxRuleBytes: 10, maxRulesBytes: 100, maxRules: 10 });
    expect(summary(await r.collect({ ...SOURCES, userRuleDirs: [] }))).toEqual([['project', '.claude/rules/big.md', [], 'x'.repeat(200)], ['project', '.claude/rules/ok.md', [], 'ok']]);
    fs.write('/repo/.claude/rules/huge.md', 'x'.repeat(70000));
    await r.collect({ ...SOURCES, userRuleDirs: [] });
    await r.collect({ ...SOURCES, userRuleDirs: [] });
    expect(warnings).toEqual(['auto-memory: skipped rule .claude/rules/huge.md: it is over 65546 bytes']);
    expect(fs.calls.filter((c) => c.op === 'streamText' && c.path.endsWith('huge.md'))).toHaveLength(1);
  });

  it('AM-31 a rule file the provider cannot read as text is skipped with a warning; the others load', async () => {
    const { reader: r, warnings } = reader({ '/repo/.claude/rules/bin.md': 'a\0b', '/repo/.claude/rules/ok.md': 'ok' });
    expect(summary(await r.collect({ ...SOURCES, userRuleDirs: [] }))).toEqual([['project', '.claude/rules/ok.md', [], 'ok']]);
    expect(warnings).toEqual(['auto-memory: skipped rule .claude/rules/bin.md: streamText /repo/.claude/rules/bin.md: binary content (NUL byte)']);
  });

  it('AM-36 a changed file is read again (new version); an unchanged one comes from the cache', async () => {
    const { fs, reader: r } = reader({ '/repo/.claude/rules/a.md': 'one' });
    const sources = { ...SOURCES, userRuleDirs: [] };
    expect(summary(await r.collect(sources))).toEqual([['project', '.claude/rules/a.md', [], 'one']]);
    await r.collect(sources);
    fs.write('/repo/.claude/rules/a.md', 'two');
    expect(summary(await r.collect(sources))).toEqual([['project', '.claude/rules/a.md', [], 'two']]);
    expect(fs.calls.filter((c) => c.op === 'streamText')).toHaveLength(2);
  });
});

describe('listings kept between collections (AM-31, racy directories)', () => {
  const sources = { ...SOURCES, userRuleDirs: [] };
  const files = { '/repo/.claude/rules/a.md': 'a', '/repo/.claude/rules/sub/b.md': 'b', '/repo/.claude/rules/notes.txt': 'x' };
  const clocked = (extra: Record<string, string> = {}) => {
    const fs = createMemoryFileSystem({ files: { ...files, ...extra } });
    const clock = { now: 0 };
    return { fs, clock, reader: new RuleReader(fs, LIMITS, () => {}, () => clock.now) };
  };
  const listings = (fs: ReturnType<typeof createMemoryFileSystem>) => fs.calls.filter((c) => c.op === 'listDir').map((c) => c.path);
  const names = (rules: Rule[]) => rules.map((r) => `${r.displayPath}:${r.body}`);

  it('AM-31 once a rule directory version is settled, an unchanged directory is not listed again: one lstat for it and one per rule file', async () => {
    const { fs, clock, reader: r } = clocked();
    await r.collect(sources);
    clock.now += RACY_WINDOW_MS;
    await r.collect(sources); // settles
    fs.calls.length = 0;
    expect(names(await r.collect(sources))).toEqual(['.claude/rules/a.md:a', '.claude/rules/sub/b.md:b']);
    expect(listings(fs)).toEqual([]);
    expect(fs.calls.filter((c) => c.op === 'lstat').map((c) => c.path).sort()).toEqual([
      '/repo/.claude/rules', '/repo/.claude/rules/a.md', '/repo/.claude/rules/sub', '/repo/.claude/rules/sub/b.md',
    ]);
  });

  it('AM-36 AM-31 after that, a rewritten, an added and a removed rule file are each seen at the next collection', async () => {
    const { fs, clock, reader: r } = clocked();
    await r.collect(sources);
    clock.now += RACY_WINDOW_MS;
    await r.collect(sources);
    fs.write('/repo/.claude/rules/sub/b.md', 'b2'); // in place: the directory keeps its version
    expect(names(await r.collect(sources))).toEqual(['.claude/rules/a.md:a', '.claude/rules/sub/b.md:b2']);
    fs.write('/repo/.claude/rules/c.md', 'c');
    expect(names(await r.collect(sources))).toEqual(['.claude/rules/a.md:a', '.claude/rules/c.md:c', '.claude/rules/sub/b.md:b2']);
    fs.remove('/repo/.claude/rules/a.md');
    expect(names(await r.collect(sources))).toEqual(['.claude/rules/c.md:c', '.claude/rules/sub/b.md:b2']);
  });

  it('AM-31 before the window has passed every directory is listed again, so a rule added within the same tick is seen', async () => {
    const { fs, clock, reader: r } = clocked();
    await r.collect(sources);
    clock.now += RACY_WINDOW_MS - 1;
    await r.collect(sources);
    fs.write('/repo/.claude/rules/c.md', 'c', { sameTick: true });
    expect(names(await r.collect(sources))).toEqual(['.claude/rules/a.md:a', '.claude/rules/c.md:c', '.claude/rules/sub/b.md:b']);
  });

  it('AM-32 a directory holding a linked rule file is listed at every collection (the link’s target may change under it)', async () => {
    const { fs, clock, reader: r } = clocked({ '/elsewhere/shared.md': 'shared' });
    fs.symlink('/home/u/.claude/rules/shared.md', '/elsewhere/shared.md');
    const withUser = { ...sources, userRuleDirs: [USER_DIRS[1]!] };
    await r.collect(withUser);
    clock.now += RACY_WINDOW_MS;
    await r.collect(withUser);
    fs.calls.length = 0;
    fs.write('/elsewhere/shared.md', 'shared v2');
    expect(names(await r.collect(withUser))).toEqual(['~/.claude/rules/shared.md:shared v2', '.claude/rules/a.md:a', '.claude/rules/sub/b.md:b']);
    expect(listings(fs)).toEqual(['/home/u/.claude/rules']);
  });
});

describe('selection', () => {
  const rule = (displayPath: string, body: string, paths: string[] = []): Rule => parseRule('project', displayPath, paths.length ? `---\npaths: [${paths.map((p) => JSON.stringify(p)).join(', ')}]\n---\n${body}` : body);

  it('AM-34 unconditional rules always; path-scoped ones only when active', () => {
    const rules = [rule('a.md', 'A'), rule('b.md', 'B', ['src/**']), rule('c.md', 'C', ['lib/**'])];
    expect(selectRules(rules, new Set(), LIMITS).map((r) => r.displayPath)).toEqual(['a.md']);
    expect(selectRules(rules, new Set(['c.md']), LIMITS).map((r) => r.displayPath)).toEqual(['a.md', 'c.md']);
  });

  it('AM-35 an oversize rule is skipped; the collection stops at the first rule over maxRules or maxRulesBytes', () => {
    const rules = [rule('a.md', 'aaaa'), rule('big.md', 'x'.repeat(11)), rule('b.md', 'bbbb'), rule('c.md', 'cc'), rule('d.md', 'd')];
    expect(selectRules(rules, new Set(), { maxRuleBytes: 10, maxRulesBytes: 10, maxRules: 10 }).map((r) => r.displayPath)).toEqual(['a.md', 'b.md', 'c.md']);
    expect(selectRules(rules, new Set(), { maxRuleBytes: 10, maxRulesBytes: 9, maxRules: 10 }).map((r) => r.displayPath)).toEqual(['a.md', 'b.md']);
    expect(selectRules(rules, new Set(), { maxRuleBytes: 10, maxRulesBytes: 100, maxRules: 2 }).map((r) => r.displayPath)).toEqual(['a.md', 'b.md']);
    expect(selectRules(rules, new Set(), { maxRuleBytes: 11, maxRulesBytes: 100, maxRules: 2 }).map((r) => r.displayPath)).toEqual(['a.md', 'big.md']);
  });
});

describe('activation', () => {
  const user = (displayPath: string, paths: string[]): Rule => ({ level: 'user', displayPath, paths, body: 'x', bytes: 1 });
  const project = (displayPath: string, paths: string[]): Rule => ({ level: 'project', displayPath, paths, body: 'x', bytes: 1 });

  it('AM-34 user rules match the cwd-relative path, project rules the root-relative one; outside a base never matches', () => {
    const matcher = new RuleMatcher();
    matcher.update([user('~/u.md', ['*.ts']), project('.claude/rules/api.md', ['src/api/**/*.ts']), project('.claude/rules/any.md', ['**/*.{ts,tsx}'])]);
    const touch = (path: string, cwd = '/repo/src', root = '/repo') => ({ fromCwd: below(cwd, path), fromRoot: below(root, path) });
    expect(matcher.activated([touch('/repo/src/x.ts')])).toEqual(['~/u.md', '.claude/rules/any.md']);
    expect(matcher.activated([touch('/repo/src/api/a/b.ts')])).toEqual(['.claude/rules/api.md', '.claude/rules/any.md']);
    expect(matcher.activated([touch('/repo/srcx/api/x.ts')])).toEqual(['.claude/rules/any.md']);
    expect(matcher.activated([touch('/other/x.ts')])).toEqual([]);
    expect(matcher.activated([touch('/repo/a.tsx'), touch('/repo/src/b.ts')])).toEqual(['.claude/rules/any.md', '~/u.md']);
  });

  it('AM-34 X-07 property: activation equals picomatch over every rule glob', () => {
    const globs = ['src/**/*.ts', '*.md', 'docs/**', '**/*.{ts,tsx}', 'a/?/c.md', '[ab]*.ts', 'src/api/**/*.ts'];
    const segment = fc.constantFrom('src', 'api', 'a', 'b', 'docs', 'x.ts', 'y.md', '.hidden', 'c.md', 'z.tsx');
    fc.assert(fc.property(fc.subarray(globs, { minLength: 1 }), fc.array(fc.array(segment, { minLength: 1, maxLength: 4 }), { maxLength: 5 }), (chosen, paths) => {
      const rules = chosen.map((g, i) => project(`r${i}.md`, [g]));
      const matcher = new RuleMatcher();
      matcher.update(rules);
      const rels = paths.map((p) => p.join('/'));
      const expected = new Set(rules.filter((r) => rels.some((rel) => picomatch(r.paths[0]!)(rel))).map((r) => r.displayPath));
      expect(new Set(matcher.activated(rels.map((rel) => ({ fromCwd: undefined, fromRoot: rel }))))).toEqual(expected);
    }));
  });

  it('AM-34 all globs live in one GlobSet, compiled again only when they change; a refused glob is reported and the rest still work', () => {
    const matcher = new RuleMatcher();
    matcher.update([project('a.md', ['src/**', '+(a|b)']), project('b.md', ['*.md'])]);
    expect(matcher.rejected).toEqual([{ displayPath: 'a.md', pattern: '+(a|b)', reason: expect.stringContaining('extglobs') }]);
    expect(matcher.activated([{ fromCwd: undefined, fromRoot: 'src/x' }, { fromCwd: undefined, fromRoot: 'r.md' }])).toEqual(['a.md', 'b.md']);
  });

  it('AM-34 a rule without globs added in front does not shift which rule a glob belongs to (no recompile needed)', () => {
    const matcher = new RuleMatcher();
    matcher.update([project('a.md', ['+(x)', 'src/**']), project('b.md', ['*.md'])]);
    matcher.update([project('u.md', []), project('a.md', ['+(x)', 'src/**']), project('b.md', ['*.md'])]);
    expect(matcher.activated([{ fromCwd: undefined, fromRoot: 'src/x' }])).toEqual(['a.md']);
    expect(matcher.activated([{ fromCwd: undefined, fromRoot: 'r.md' }])).toEqual(['b.md']);
  });

  it('below(): only strictly inside the base, with / separators', () => {
    expect([below('/repo', '/repo/a/b'), below('/repo', '/repo'), below('/repo', '/repox/a'), below('/repo', '/a'), below('/', '/a')]).toEqual(['a/b', undefined, undefined, undefined, 'a']);
  });
});
