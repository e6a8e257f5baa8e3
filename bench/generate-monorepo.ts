// Writes a generated monorepo for `dsh-context bench` (issue 9): 100,000 tracked files by default
// (the seeded path mix of glob-inputs.ts: packages, apps, docs, services, dotfiles, assets, configs),
// AGENTS.md / CLAUDE.md / local overlays in the root, every package and app and some deeper
// directories, project rules in .claude/rules and .dsh/rules (the 50 benchmark glob patterns as
// `paths:`, plus unconditional ones), a .gitignore, and ignored build output the walk must skip.
//
// With --rules-dir the rules go to that directory instead (a repository without rules of its own, as
// most real ones are, with rules brought by `dsh-context bench --rules-from`); with --git the root is
// a real git work tree (`git init`, files left untracked: `git ls-files -co` lists them) instead of a
// bare `.git/HEAD` marker.
//
//   node build/bench/generate-monorepo.js <dir> [--files N] [--rules-dir DIR] [--git]
//
// --profile real writes a real-shaped repository instead (real-repo.ts: few instruction files of
// 0.1–15 KB, a symlinked or one-line CLAUDE.md, 0–24 rule globs brought from --rules-dir):
//
//   node build/bench/generate-monorepo.js <dir> --profile real [--shape ts|rust] [--files N]
//     [--instructions N] [--claude link|line|none] [--globs N] [--rules-dir DIR] [--commit]

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dirname, join } from 'node:path';
import ignore from 'ignore';
import { RULE_PATTERNS, monorepoPaths } from './glob-inputs.js';
import { instructionText, random } from './inputs.js';
import { generateRealRepo } from './real-repo.js';

/** What was written. */
export interface GeneratedMonorepo {
  /** Files a walk that honours .gitignore sees. */
  readonly files: number;
  readonly instructionFiles: number;
  readonly ruleFiles: number;
  readonly ignoredFiles: number;
}

/** Where the rules go and what marks the root. */
export interface GenerateOptions {
  /** Write the rule files here (flat) instead of the repository's .claude/rules and .dsh/rules. */
  readonly rulesDir?: string;
  /** Make the root a real git work tree instead of writing a `.git/HEAD` marker. */
  readonly git?: boolean;
}

/** Writes the monorepo under `root` (which must not exist or be empty). */
export function generateBenchMonorepo(root: string, files = 100_000, seed = 42, options: GenerateOptions = {}): GeneratedMonorepo {
  const next = random(seed);
  const made = new Set<string>(); // directories made already: one mkdir per directory, not per file (1,000,000 files)
  const write = (path: string, text: string, base = root) => {
    const full = join(base, path);
    const dir = dirname(full);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(full, text);
  };
  if (options.git) {
    mkdirSync(root, { recursive: true });
    execFileSync('git', ['init', '-q', root]);
  } else {
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  }
  const GITIGNORE = 'node_modules/\ndist/\n*.log\n.cache/\n';
  // Tracked files only: a seeded path the .gitignore would hide is left out, so `files` is exact.
  const ignored = ignore().add(GITIGNORE);
  const paths = monorepoPaths(files, seed).filter((p) => !ignored.ignores(p) && p !== '.gitignore');
  const dirs = new Set<string>();
  const taken = new Set(paths);
  for (const path of paths) {
    write(path, path.endsWith('.md') ? `# ${path}\n` : `// ${path}\n`);
    dirs.add(dirname(path));
  }
  write('.gitignore', GITIGNORE);
  // Instruction files: the root, each package and app root, and about one directory in twenty-five.
  let instructionFiles = 0;
  const instruct = (dir: string, name: string, bytes: number) => {
    const path = dir === '.' ? name : `${dir}/${name}`;
    if (taken.has(path)) return;
    write(path, instructionText(bytes, next() < 0.5, 1 + instructionFiles));
    instructionFiles++;
  };
  instruct('.', 'AGENTS.md', 6144);
  instruct('.', 'CLAUDE.md', 2048);
  instruct('.', 'AGENTS.local.md', 512);
  for (const dir of [...dirs].sort()) {
    const depth = dir.split('/').length;
    if (depth === 2 && /^(packages|apps|services)\//.test(dir)) instruct(dir, 'AGENTS.md', 1024 + Math.floor(next() * 4096));
    else if (next() < 0.04) instruct(dir, next() < 0.8 ? 'AGENTS.md' : 'CLAUDE.md', 256 + Math.floor(next() * 3072));
    if (next() < 0.005) instruct(dir, 'CLAUDE.local.md', 256);
  }
  // Rules: each benchmark pattern scoped, in groups, plus a few unconditional rules.
  let ruleFiles = 0;
  const rule = (dir: string, name: string, text: string) => (options.rulesDir === undefined ? write(`${dir}/${name}`, text) : write(name, text, options.rulesDir));
  RULE_PATTERNS.forEach((pattern, i) => {
    rule(i % 2 === 0 ? '.claude/rules' : '.dsh/rules', `rule-${String(i).padStart(2, '0')}.md`, `---\npaths:\n  - ${JSON.stringify(pattern)}\n---\nRule ${i} for ${pattern}.\n`);
    ruleFiles++;
  });
  for (let i = 0; i < 5; i++) {
    rule('.claude/rules', `general-${i}.md`, `# General rule ${i}\n\nKeep changes small.\n`);
    ruleFiles++;
  }
  // Ignored output the walk must not count.
  let ignoredFiles = 0;
  for (let i = 0; i < 2000; i++) {
    write(`${i % 2 === 0 ? 'node_modules' : 'packages/core/dist'}/m${i % 40}/f${i}.js`, '');
    ignoredFiles++;
  }
  // Listed: the paths, the instruction and rule files (when in the repository), and the .gitignore.
  return { files: paths.length + instructionFiles + (options.rulesDir === undefined ? ruleFiles : 0) + 1, instructionFiles, ruleFiles, ignoredFiles };
}

if (process.argv[1]?.endsWith('generate-monorepo.js')) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      files: { type: 'string' }, 'rules-dir': { type: 'string' }, git: { type: 'boolean' }, profile: { type: 'string' }, shape: { type: 'string' },
      instructions: { type: 'string' }, claude: { type: 'string' }, globs: { type: 'string' }, commit: { type: 'boolean' },
    },
  });
  const [dir] = positionals;
  const usage = 'usage: node build/bench/generate-monorepo.js <dir> [--files N] [--rules-dir DIR] [--git]\n' +
    '       node build/bench/generate-monorepo.js <dir> --profile real [--shape ts|rust] [--files N] [--instructions N] [--claude link|line|none] [--globs N] [--rules-dir DIR] [--commit]\n';
  if (dir === undefined || positionals.length > 1 || (values.profile !== undefined && values.profile !== 'real' && values.profile !== 'monorepo')) {
    process.stderr.write(usage);
    process.exit(2);
  }
  const rulesDir = values['rules-dir'] !== undefined ? { rulesDir: values['rules-dir'] } : {};
  const result = values.profile === 'real'
    ? generateRealRepo(dir, {
      files: Number(values.files ?? 8000), shape: values.shape === 'rust' ? 'rust' : 'ts', instructionFiles: Number(values.instructions ?? 3),
      claude: values.claude === 'line' || values.claude === 'none' ? values.claude : 'link', globs: Number(values.globs ?? 4), commit: values.commit === true, ...rulesDir,
    })
    : generateBenchMonorepo(dir, values.files === undefined ? undefined : Number(values.files), undefined, { ...rulesDir, git: values.git === true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
