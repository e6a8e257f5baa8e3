// The real-shaped repository profile of `generate-monorepo.ts` (issue 33): what `dsh-context bench`
// met in five open-source repositories (1,497 to 11,053 git files; 1–10 instruction files of 0.1–15 KB,
// mostly English; a CLAUDE.md that is a link to AGENTS.md or one line pointing at it; no rules of their
// own, 0–24 rule globs brought from outside). A TypeScript monorepo (the seeded path mix of
// glob-inputs.ts) or a Rust workspace (crates with src, tests, benches, examples; docs; CI), written
// as a git work tree, committed or untracked.

import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { monorepoPaths, RULE_PATTERNS } from './glob-inputs.js';
import { markdownInstructions, random } from './inputs.js';

/** What the generator makes. */
export interface RealRepoOptions {
  /** Files in the tree, instruction files and the .gitignore included. */
  readonly files: number;
  /** `ts`: a TypeScript monorepo; `rust`: a Rust workspace. */
  readonly shape: 'ts' | 'rust';
  /** AGENTS.md files: the root's, then one in each of that many packages or crates minus one. */
  readonly instructionFiles: number;
  /** The root CLAUDE.md: a link to AGENTS.md, a one-line file naming it, or none. */
  readonly claude: 'link' | 'line' | 'none';
  /** Rule globs (0–50), written as rule files into `rulesDir`, never into the repository. */
  readonly globs: number;
  /** Where the rule files go (required when `globs` > 0). */
  readonly rulesDir?: string;
  /** Commit the files (`git add` + `git commit`) instead of leaving them untracked. */
  readonly commit?: boolean;
  readonly seed?: number;
}

/** What was written. */
export interface RealRepo {
  /** Files `git ls-files -co --exclude-standard` lists. */
  readonly files: number;
  /** Instruction files written (a CLAUDE.md link counts: it is a listed file DSH reads). */
  readonly instructionFiles: number;
  readonly ruleFiles: number;
  readonly globs: readonly string[];
}

/** Globs of a Rust workspace's rules, as the TypeScript ones are RULE_PATTERNS. */
export const RUST_RULE_PATTERNS: readonly string[] = [
  '**/*.rs', 'crates/*/src/**', '**/Cargo.toml', 'crates/*/tests/**/*.rs', '**/*.md', '.github/workflows/*.yml',
  'crates/*/benches/**', '**/build.rs', 'docs/**', 'crates/core/src/**/*.rs', '**/mod.rs', 'xtask/**',
  '**/*.{toml,yml,yaml}', 'crates/*/examples/*.rs', '**/tests/fixtures/**', 'crates/{cli,server}/src/**/*.rs',
  '**/src/bin/*.rs', 'scripts/*.sh', '**/*.proto', 'crates/*/src/lib.rs', '**/README.md', 'fuzz/**',
  '**/[a-m]*.rs', 'crates/*/src/**/tests.rs', '**/*.snap', 'benches/**/*.rs', 'Cargo.lock', 'rustfmt.toml',
  '**/migrations/*.sql', 'crates/*/Cargo.toml', 'deny.toml', '**/*.json', '.cargo/**', 'crates/*/src/**/*.rs',
  '**/*.sh', 'docs/**/*.md', '**/*.py', 'crates/**/mod.rs', 'tools/**', '**/*.{yml,yaml}', 'LICENSE*',
  'crates/*/README.md', '**/*.txt', 'src/**/*.rs', '**/*.lock', 'examples/**', '**/.gitignore', 'clippy.toml',
  'crates/storage/**', '**/*.wasm',
];

const CRATES = [
  'core', 'cli', 'server', 'client', 'proto', 'storage', 'parser', 'lexer', 'runtime', 'macros', 'util',
  'config', 'net', 'fs', 'cache', 'index', 'query', 'planner', 'exec', 'types', 'codegen', 'testing', 'bench-utils', 'ffi',
];
const MODULES = [
  'ast', 'token', 'span', 'error', 'visitor', 'session', 'buffer', 'reader', 'writer', 'encode', 'decode', 'hash',
  'table', 'row', 'column', 'schema', 'value', 'expr', 'stmt', 'scope', 'symbol', 'resolve', 'infer', 'check',
  'lower', 'emit', 'opt', 'pass', 'graph', 'node', 'edge', 'task', 'pool', 'queue', 'channel', 'signal', 'io', 'os',
];

type Next = () => number;
const pick = <T>(next: Next, list: readonly T[]): T => list[(next() * list.length) | 0]!;

/** One path of a Rust workspace. */
function rustPath(next: Next): string {
  const crate = `crates/${pick(next, CRATES)}`;
  const r = next();
  const modules = (max: number): string[] => {
    const out: string[] = [];
    while (out.length < max && next() < 0.55) out.push(pick(next, MODULES));
    return out;
  };
  if (r < 0.55) return [crate, 'src', ...modules(4), `${next() < 0.15 ? 'mod' : pick(next, MODULES)}.rs`].join('/');
  if (r < 0.68) return [crate, 'tests', ...modules(1), `${pick(next, MODULES)}_${pick(next, MODULES)}.rs`].join('/');
  if (r < 0.74) return [crate, 'tests', 'fixtures', ...modules(2), `${pick(next, MODULES)}.${pick(next, ['json', 'txt', 'toml', 'sql'])}`].join('/');
  if (r < 0.78) return [crate, 'tests', 'snapshots', `${pick(next, MODULES)}__${pick(next, MODULES)}.snap`].join('/');
  if (r < 0.81) return [crate, 'benches', `${pick(next, MODULES)}.rs`].join('/');
  if (r < 0.84) return [crate, 'examples', `${pick(next, MODULES)}_${pick(next, MODULES)}.rs`].join('/');
  if (r < 0.86) return [crate, pick(next, ['Cargo.toml', 'README.md', 'build.rs', 'CHANGELOG.md'])].join('/');
  if (r < 0.92) return ['docs', ...modules(2), `${pick(next, MODULES)}.md`].join('/');
  if (r < 0.95) return ['xtask', 'src', `${pick(next, MODULES)}.rs`].join('/');
  if (r < 0.97) return ['fuzz', 'fuzz_targets', `${pick(next, MODULES)}.rs`].join('/');
  return pick(next, [
    'Cargo.toml', 'Cargo.lock', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE', 'rustfmt.toml', 'clippy.toml', 'deny.toml',
    '.github/workflows/ci.yml', '.github/workflows/release.yml', '.github/dependabot.yml', 'scripts/release.sh', '.cargo/config.toml',
  ]);
}

/**
 * `count` distinct paths of a Rust workspace from a fixed seed (crates with src, tests, fixtures,
 * snapshots, benches and examples; docs, xtask, fuzz targets, CI and root files).
 * @param count how many
 * @param seed the seed
 * @returns the paths
 */
export function rustWorkspacePaths(count: number, seed = 33): string[] {
  return shapePaths('rust', count, seed);
}

/** `count` distinct paths of the shape, none of them an instruction file name. */
function shapePaths(shape: 'ts' | 'rust', count: number, seed: number): string[] {
  const skip = (p: string): boolean => /(^|\/)(AGENTS|CLAUDE)(\.local)?\.md$/.test(p) || p === '.gitignore';
  if (shape === 'ts') return monorepoPaths(count + 64, seed).filter((p) => !skip(p)).slice(0, count);
  const next = random(seed);
  const seen = new Set<string>();
  while (seen.size < count) {
    const path = rustPath(next);
    if (!skip(path)) seen.add(path);
  }
  return [...seen];
}

/** A size from 0.1 to 15 KB, spread evenly on a log scale (most instruction files are small). */
function instructionBytes(next: Next): number {
  return Math.round(100 * 150 ** next());
}

/**
 * Writes a real-shaped repository at `root` (which must not exist or be empty).
 * @param root the directory
 * @param options the profile
 * @returns what was written
 */
export function generateRealRepo(root: string, options: RealRepoOptions): RealRepo {
  const seed = options.seed ?? 33;
  // Mixed with the file count, so that profiles differ in their instruction files' sizes too.
  const next = random((Math.imul(seed, 0x9e3779b1) ^ options.files) >>> 0);
  for (let i = 0; i < 8; i++) next();
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid' } });
  mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const claudeFiles = options.claude === 'none' ? 0 : 1;
  const paths = shapePaths(options.shape, Math.max(0, options.files - options.instructionFiles - claudeFiles - 1), seed);
  for (const path of paths) write(path, path.endsWith('.md') ? `# ${path}\n` : `// ${path}\n`);
  write('.gitignore', options.shape === 'rust' ? '/target\n' : 'node_modules/\ndist/\n');

  // AGENTS.md at the root, then in package or crate roots (ASCII English, as in the repositories met).
  const homes = [...new Set(paths.map((p) => p.split('/').slice(0, 2).join('/')).filter((d) => /^(packages|apps|services|crates)\/[^/]+$/.test(d)))].sort();
  const dirs = ['.', ...homes.filter((_, i) => i % Math.max(1, Math.floor(homes.length / Math.max(1, options.instructionFiles - 1))) === 0)].slice(0, options.instructionFiles);
  dirs.forEach((dir, i) => write(dir === '.' ? 'AGENTS.md' : `${dir}/AGENTS.md`, markdownInstructions(instructionBytes(next), seed + i, false)));
  if (options.claude === 'link') symlinkSync('AGENTS.md', join(root, 'CLAUDE.md'));
  if (options.claude === 'line') write('CLAUDE.md', 'Read AGENTS.md.\n');

  const all = options.shape === 'rust' ? RUST_RULE_PATTERNS : RULE_PATTERNS;
  const globs = all.slice(0, Math.min(options.globs, all.length));
  let ruleFiles = 0;
  if (globs.length > 0) {
    if (options.rulesDir === undefined) throw new Error('generateRealRepo: rule globs need a rulesDir');
    // Rule files of one to three globs each, as rule files list them under paths:.
    for (let i = 0; i < globs.length; ruleFiles++) {
      const take = globs.slice(i, i + 1 + ((next() * 3) | 0));
      i += take.length;
      mkdirSync(options.rulesDir, { recursive: true });
      writeFileSync(join(options.rulesDir, `rule-${String(ruleFiles).padStart(2, '0')}.md`), `---\npaths:\n${take.map((g) => `  - ${JSON.stringify(g)}\n`).join('')}---\nRule ${ruleFiles}.\n`);
    }
  }
  if (options.commit) {
    git('add', '-A');
    git('commit', '-q', '-m', 'generated');
  }
  return { files: paths.length + dirs.length + claudeFiles + 1, instructionFiles: dirs.length + claudeFiles, ruleFiles, globs };
}
