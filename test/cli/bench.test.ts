// dsh-context bench on fixture repositories built in the test (issue 19): the files are git's set
// (or, outside a work tree, a walk that agrees with git), the instruction files and rules are the
// plugins', bad files and patterns are skipped with a reason (issue 18 item 12), and the figures are
// comparable: samples, spread, the ratio of the medians shown, machine, --compare.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateBenchMonorepo } from '../../bench/generate-monorepo.js';
import { cleanUp, cli, tempDir } from '../support/cli.js';

afterAll(cleanUp);

/** git with no user or system configuration, so the fixture's own ignore files alone decide. */
const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent-home', GIT_CONFIG_NOSYSTEM: '1' } });
const gitFiles = (cwd: string) => git(cwd, ['ls-files', '-z', '-co', '--exclude-standard']).split('\0').filter((f) => f !== '').sort();

/** Files (`null` for a directory), then links (`path` → target), under `root`. */
function write(root: string, files: Record<string, string | Buffer | null>, links: Record<string, string> = {}): void {
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    if (body === null) mkdirSync(join(root, path), { recursive: true });
    else writeFileSync(join(root, path), body);
  }
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    symlinkSync(target, join(root, path));
  }
}

/** A repository with everything the old walk got wrong: linked instruction files, nested negations, parent ignores, root rules. */
const TREE = {
  '.gitignore': '*.log\nbuild/\n',
  'CONTRIBUTING.md': 'Contributing: run the tests.\n',
  'AGENTS.md': 'Root agents.\n',
  'docs/agents.md': 'Docs agents.\n',
  'a.log': 'x',
  'build/out.js': 'x',
  'src/a.ts': 'x',
  'pkg/.gitignore': '!keep.log\n',
  'pkg/keep.log': 'x',
  'pkg/drop.log': 'x',
  'pkg/src/b.ts': 'x',
  'pkg/src/deep/AGENTS.md': 'Deep.\n',
  'pkg/README.md': 'x',
  '.claude/rules/ts.md': '---\npaths: "**/*.ts"\n---\nTypeScript rule.\n',
  '.claude/rules/always.md': 'Always.\n',
};
const LINKS = { 'CLAUDE.md': 'CONTRIBUTING.md', 'pkg/AGENTS.md': '../docs/agents.md', 'pkg/CLAUDE.md': '../CONTRIBUTING.md' };

function repository(initGit = true): string {
  const root = join(tempDir('dsh-bench-'), 'repo');
  mkdirSync(root, { recursive: true });
  if (initGit) git(root, ['init', '-q']);
  write(root, TREE, LINKS);
  return root;
}

const bench = (args: string[], cwd?: string) => {
  const out = cli(['bench', ...args, '--rounds', '1', '--processes', '1', '--sample-ms', '0', '--json'], {}, cwd);
  expect([out.code, out.stderr]).toEqual([0, '']);
  return JSON.parse(out.stdout);
};

describe('issue 19: the files and the workload are what git and the plugins see', () => {
  it("in a git work tree the listing is git ls-files -co --exclude-standard: links kept, nested negations honoured", () => {
    const root = repository();
    const report = bench([root]);
    expect(gitFiles(root)).toContain('pkg/keep.log');
    expect(report.files).toEqual({ source: 'git', listed: gitFiles(root).length, excluded: 0 });
    expect(report.instructionFiles).toEqual([
      { path: 'AGENTS.md', reach: 'baseline' },
      { path: 'CLAUDE.md', reach: 'baseline' },
      { path: 'pkg/AGENTS.md', reach: 'touch' },
      { path: 'pkg/CLAUDE.md', reach: 'touch' },
      { path: 'pkg/src/deep/AGENTS.md', reach: 'touch' },
    ]);
    expect([report.projectRoot, report.projectRootMarker, report.ruleFiles, report.globs]).toEqual(['.', '.git', 2, 1]);
  });

  it("on a sub-directory: the parent .gitignore applies, the root's rules and instruction chain are found, as inspect finds them", () => {
    const root = repository();
    const pkg = join(root, 'pkg');
    const report = bench([pkg]);
    expect(report.files).toEqual({ source: 'git', listed: gitFiles(pkg).length, excluded: 0 });
    expect(gitFiles(pkg)).toEqual(['.gitignore', 'AGENTS.md', 'CLAUDE.md', 'README.md', 'keep.log', 'src/b.ts', 'src/deep/AGENTS.md']);
    expect([report.cwd, report.projectRoot, report.projectRootMarker, report.ruleFiles, report.globs]).toEqual(['.', '..', '.git', 2, 1]);
    const inspect = JSON.parse(cli(['inspect', pkg, '--dsh-home', join(root, '..', 'home'), '--json']).stdout);
    const chain = report.instructionFiles.filter((f: { reach: string }) => f.reach === 'baseline').map((f: { path: string }) => f.path);
    expect(chain).toEqual(inspect.workspace.files.map((f: { path: string }) => f.path));
    expect(chain).toEqual(['AGENTS.md', 'CLAUDE.md', 'pkg/AGENTS.md', 'pkg/CLAUDE.md']);
    // The glob phase runs on the root's rule: pkg/src/b.ts (root-relative) against **/*.ts.
    expect(report.phases.find((p: { phase: string }) => p.phase === 'glob')).toMatchObject({ items: 7, ratio: expect.any(Number) });
  });

  it('--cwd picks the session cwd inside the directory: the chain ends there, deeper files are reached by touches', () => {
    const root = repository();
    const report = bench([root, '--cwd', 'pkg/src']);
    expect(report.cwd).toBe('pkg/src');
    expect(report.instructionFiles).toEqual([
      { path: 'AGENTS.md', reach: 'baseline' },
      { path: 'CLAUDE.md', reach: 'baseline' },
      { path: 'pkg/AGENTS.md', reach: 'baseline' },
      { path: 'pkg/CLAUDE.md', reach: 'baseline' },
      { path: 'pkg/src/deep/AGENTS.md', reach: 'touch' },
    ]);
  });

  it('outside a git work tree the walk lists what git would, and the cwd becomes the root with a warning', () => {
    const plain = repository(false);
    const reference = repository();
    const report = bench([plain]);
    expect(report.files).toEqual({ source: 'walk', listed: gitFiles(reference).length, excluded: 0 });
    expect(report.projectRootMarker).toBeNull();
    expect(report.warnings[0]).toMatch(/^no \.git found in the session cwd or above it/);
  });

  it('--exclude leaves files out, --glob adds globs, --rules-from adds a rule directory', () => {
    const root = repository();
    const rules = join(root, '..', 'rules');
    write(rules, { 'md.md': '---\npaths: "**/*.md"\n---\nMarkdown.\n', 'two.md': '---\npaths: ["docs/**", "src/**"]\n---\nTwo.\n' });
    const report = bench([root, '--exclude', 'pkg/**', '--glob', '*.log', 'src/*.ts', '--rules-from', rules]);
    const kept = gitFiles(root).filter((f) => !f.startsWith('pkg/'));
    expect(report.files).toEqual({ source: 'git', listed: kept.length, excluded: gitFiles(root).length - kept.length });
    expect([report.ruleFiles, report.globs]).toEqual([4, 6]);
    expect(report.options).toMatchObject({ rulesFrom: rules, globs: ['*.log', 'src/*.ts'], exclude: ['pkg/**'] });
    const bad = cli(['bench', root, '--exclude', '+(a|b)']);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringMatching(/^dsh-context: --exclude: .*\n {2}use glob syntax without extglobs/)]);
  });
});

describe('issue 18 item 12: bench skips what the plugins skip, with a reason, and runs the rest', () => {
  it('an invalid-UTF-8 AGENTS.md, an unreadable CLAUDE.md (a link loop) and an extglob rule pattern are skipped', () => {
    const root = repository();
    write(root, {
      'AGENTS.md': Buffer.from([0x41, 0xff, 0xfe, 0x0a]),
      '.claude/rules/ext.md': '---\npaths:\n  - "+(a|b).ts"\n  - "docs/**"\n---\nExtglob.\n',
    });
    rmSync(join(root, 'pkg', 'CLAUDE.md'));
    symlinkSync('CLAUDE.md', join(root, 'pkg', 'CLAUDE.md'));
    const report = bench([root]);
    expect(report.skipped).toEqual([
      { kind: 'instruction file', path: 'pkg/CLAUDE.md', reason: expect.stringMatching(/^the provider failed: resolve .*\/pkg\/CLAUDE\.md: ELOOP/) },
      { kind: 'glob', path: '.claude/rules/ext.md', pattern: '+(a|b).ts', reason: expect.stringMatching(/^compileGlobs: glob pattern "\+\(a\|b\)\.ts" has "\+" at index 0: extglobs are not supported$/) },
      { kind: 'instruction file', path: 'AGENTS.md', reason: `the provider failed: streamText ${join(root, 'AGENTS.md')}: invalid UTF-8` },
    ]);
    expect(report.globs).toBe(2);
    expect(report.phases.map((p: { phase: string; ratio: number | null }) => [p.phase, p.ratio === null])).toEqual([['read+digest', false], ['compose', false], ['glob', false]]);
    const text = cli(['bench', root, '--rounds', '1', '--processes', '1', '--sample-ms', '0']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('  skipped glob .claude/rules/ext.md glob "+(a|b).ts": ');
    expect(text.stdout).toMatch(/\n {2}skipped instruction file AGENTS\.md: the provider failed: /);
  });
});

describe('issue 19: figures that can be compared', () => {
  it('issue 33 --json: schema version, per-round samples of several runs, the median per-round ratio with its interval and verdict, machine and Node version', () => {
    const root = repository();
    const out = cli(['bench', root, '--rounds', '7', '--processes', '1', '--sample-ms', '5', '--json']);
    const report = JSON.parse(out.stdout);
    expect(report.schemaVersion).toBe(4);
    expect(report.options).toMatchObject({ rounds: 7, processes: 1, sampleMs: 5 });
    expect(report.node).toBe(process.version);
    expect(Object.keys(report.machine).sort()).toEqual(['arch', 'cores', 'cpu', 'freeMemoryBytes', 'loadAverage', 'memoryBytes', 'platform']);
    expect(Number.isNaN(Date.parse(report.date))).toBe(false);
    for (const p of [...report.phases, report.whole]) {
      for (const side of [p.js, p.wasm]) {
        expect(side.samples).toHaveLength(7);
        const sorted = [...side.samples].sort((a: number, b: number) => a - b);
        expect([side.median, side.min, side.max]).toEqual([sorted[3], sorted[0], sorted[6]]);
      }
      const perRound = p.js.samples.map((j: number, i: number) => j / p.wasm.samples[i]).sort((a: number, b: number) => a - b);
      // 7 rounds: the 1st and 7th smallest bound the median with 98.4% confidence (binomial, p = 1/2).
      expect(p.ratio).toBe(perRound[3]);
      expect(p.interval).toEqual({ low: perRound[0], high: perRound[6], confidence: 1 - 2 / 128 });
      expect(p.verdict).toBe(perRound[0] > 1 ? 'engine faster' : perRound[6] < 1 ? 'JavaScript faster' : 'within the spread');
      expect(p.roundRatios).toEqual({ min: perRound[0], max: perRound[6] });
    }
    // A phase of a few small files takes far less than 5 ms: its samples hold several runs; a whole run is one run a sample.
    expect(report.phases.find((p: { phase: string }) => p.phase === 'glob').runsPerSample).toBeGreaterThan(1);
    expect(report.whole.runsPerSample).toBe(1);
    expect(Object.keys(report.whole.steps.wasm)).toEqual(['list', 'discover', 'read', 'compose', 'glob']);
    expect(report.whole).toMatchObject({ phase: 'whole run', items: gitFiles(root).length });
  });

  it('issue 33 --processes: the rounds run in fresh processes, each process\'s ratio is the median of its rounds\', the ratio and interval are over the processes', () => {
    const root = repository();
    const report = JSON.parse(cli(['bench', root, '--rounds', '3', '--processes', '2', '--sample-ms', '2', '--json']).stdout);
    expect(report.options).toMatchObject({ rounds: 3, processes: 2, sampleMs: 2 });
    const median3 = (v: number[]) => [...v].sort((a, b) => a - b)[1]!;
    for (const p of [...report.phases, report.whole]) {
      expect(p.js.samples).toHaveLength(6);
      const perRound = p.js.samples.map((j: number, i: number) => j / p.wasm.samples[i]);
      const own = [median3(perRound.slice(0, 3)), median3(perRound.slice(3))];
      expect(p.processRatios).toEqual(own);
      expect(p.ratio).toBe((own[0]! + own[1]!) / 2);
      // Two processes: the interval is their two ratios, 50% coverage, too few to decide.
      expect(p.interval).toEqual({ low: Math.min(...own), high: Math.max(...own), confidence: 0.5 });
      expect(p.verdict).toBe('too few rounds');
    }
    const text = cli(['bench', root, '--rounds', '1', '--processes', '2', '--sample-ms', '0']).stdout;
    expect(text).toContain('time per run: median (min–max) of 2 rounds in 2 fresh processes, each sample at least 0 ms of runs; ratio: the median of the processes\' own (each the median of its rounds\' JavaScript ÷ WASM) (50.0% interval over the processes), above 1 the engine is faster');
  });

  it('a phase with nothing to measure gets no ratio and says why', () => {
    const root = repository();
    rmSync(join(root, '.claude'), { recursive: true });
    const report = bench([root]);
    expect(report.phases.find((p: { phase: string }) => p.phase === 'glob')).toEqual({ phase: 'glob', items: 0, unit: 'path × glob pair', ratio: null, interval: null, verdict: null, roundRatios: null });
    const text = cli(['bench', root, '--rounds', '1', '--processes', '1', '--sample-ms', '0']).stdout;
    expect(text).toMatch(/\n {2}glob +0 path × glob pairs +– +– +– +no globs: nothing to measure \(bring rules with --rules-from, or globs with --glob\)\n/);
  });

  it('--compare prints the change per phase and the workload differences; a bad file is refused with the reason', () => {
    const root = repository();
    const previous = join(root, '..', 'previous.json');
    const fast = ['--rounds', '1', '--processes', '1', '--sample-ms', '0'];
    writeFileSync(previous, cli(['bench', root, ...fast, '--json']).stdout);
    const json = JSON.parse(cli(['bench', root, ...fast, '--json', '--glob', '*.md', '--compare', previous]).stdout);
    expect(json.comparison).toMatchObject({ file: previous, differences: ['globs: 1 then, 2 now'] });
    expect(json.comparison.phases.map((p: { phase: string }) => p.phase)).toEqual(['read+digest', 'compose', 'glob', 'whole run']);
    // One round: each interval is its one ratio, so two runs agree only if their ratios are equal.
    for (const p of json.comparison.phases) expect(p.agree).toBe(p.ratio.before === p.ratio.now);
    const text = cli(['bench', root, ...fast, '--compare', previous]).stdout;
    expect(text).toMatch(/\nCompared with .*previous\.json \(.*, Node v\d+/);
    expect(text).toMatch(/\n {2}read\+digest +\d+\.\d\d× → \d+\.\d\d× +(yes|no) +[+−]\d+\.\d% +[+−]\d+\.\d%\n/);
    writeFileSync(previous, JSON.stringify({ phases: [] }));
    const bad = cli(['bench', root, '--compare', previous]);
    expect([bad.code, bad.stderr]).toEqual([1, `dsh-context: --compare ${previous}: schemaVersion is null; this bench reads 4\n  pass a report written by \`dsh-context bench --json\` of this version\n`]);
  });

  it('the generated monorepo: git listing, its instruction files and rules, every phase measured', () => {
    const base = tempDir('dsh-cli-bench-');
    const generated = generateBenchMonorepo(join(base, 'repo'), 1500, 42, { git: true });
    symlinkSync('/nonexistent', join(base, 'repo', 'dangling'));
    const report = bench([join(base, 'repo')]);
    expect(report.files.listed).toBe(generated.files + 1);
    expect(report.instructionFiles).toHaveLength(generated.instructionFiles);
    expect(report.ruleFiles).toBe(generated.ruleFiles);
    expect(report.phases.map((p: { phase: string; ratio: number | null }) => [p.phase, p.ratio !== null])).toEqual([['read+digest', true], ['compose', true], ['glob', true]]);
    const text = cli(['bench', join(base, 'repo'), '--rounds', '1', '--processes', '1', '--sample-ms', '0']).stdout;
    expect(text).toMatch(/^dsh-context bench: /);
    expect(text).toMatch(/\n {2}phase +work +runs\/sample +JavaScript +WASM engine +JavaScript ÷ WASM \(95% interval\)\n {2}read\+digest /);
    // One round decides nothing: the ratio is shown with the words that say so.
    expect(text).toMatch(/\n {2}glob +[\d,]+ path × glob pairs +1 +.* \d+\.\d\d× \(\d+\.\d\d–\d+\.\d\d×; too few rounds to tell\)\n/);
    expect(text).toMatch(/\nwhole run, median per step: WASM listing .* ms, discovery .*; JavaScript listing /);
  });
});


describe('issue 33: a million files', () => {
  it('baselineChains: each session\'s chain is the plugin\'s baselineDirectories, its files broadest first, trimmed duplicates in a directory dropped', async () => {
    const { baselineChains, rootRelative } = await import('../../src/cli/bench-workload.js');
    const { baselineDirectories } = await import('../../src/plugins/workspace-context/files.js');
    const loaded = (path: string, directory: string, text: string) => ({
      input: { path, directory, probe: { kind: 'present' as const, target: {} as never, version: '' as never } },
      read: { kind: 'loaded' as const, text, digest: `d-${text}`, trimmedDigest: `t-${text.trim()}` },
    });
    const outcomes = [
      loaded('AGENTS.md', '.', 'root'), loaded('CLAUDE.md', '.', ' root\n'), loaded('a/AGENTS.md', 'a', 'a'),
      loaded('a/b/c/AGENTS.md', 'a/b/c', 'c'), loaded('x/AGENTS.md', 'x', 'x'),
    ];
    const sessions = ['.', 'a', 'a/b', 'a/b/c', 'a/b/c/d', 'x', 'y/z'];
    const root = '/repo';
    const items = new Map<string, string[]>([['.', ['AGENTS.md']], ['a', ['a/AGENTS.md']], ['a/b/c', ['a/b/c/AGENTS.md']], ['x', ['x/AGENTS.md']]]);
    const expected = sessions.map((d) => baselineDirectories({ root, cwd: d === '.' ? root : `${root}/${d}`, config: {} as never }).slice(1).flatMap((dir) => items.get(dir) ?? []));
    const chains = baselineChains(sessions, outcomes);
    expect(chains.map((c) => c.map((i) => i.path))).toEqual(expected);
    expect(chains[1]).toBe(chains[2]); // a/b holds no file of its own: it shares a's array
    expect(rootRelative('/r', '/r', ['a', 'b/c'])).toEqual(['a', 'b/c']);
    expect(rootRelative('/r/sub', '/r', ['a', 'b/c'])).toEqual(['sub/a', 'sub/b/c']);
    expect(rootRelative('/r', '/r/sub', ['a', 'sub/b', 'subway/x', 'sub/c/d'])).toEqual(['b', 'c/d']);
    expect(rootRelative('/r/one', '/r/two', ['a'])).toEqual([]);
  });

  it('matchDigest tells match results apart by every index and every path boundary', async () => {
    const { matchDigest } = await import('../../src/cli/bench-paths.js');
    const base = [[0, 2], [], [1]];
    expect(matchDigest(base)).toBe(matchDigest([[0, 2], [], [1]]));
    for (const other of [[[0, 2], [], [2]], [[0], [2], [1]], [[0, 2], [1], []], [[0, 2], [], [1], []], [[0, 2], []]]) {
      expect(matchDigest(other), JSON.stringify(other)).not.toBe(matchDigest(base));
    }
  });
});
