// The workload of `npm run bench:session` (issue 30): a generated monorepo whose files have the sizes
// of a real repository's (the generator's paths, filled with code, prose and data of a seeded
// log-normal size, 85 B to 192 KB, about one file in eighty over 60 KB), committed to git so a
// session starts on a clean tree; and a seeded plan of turns shaped like a coding session's: a user
// request, one to four tool steps (`read` most, then `grep`, and `glob`, `bash`, `edit`, `write`), and a
// final answer of 300–900 characters. Same seed, same files and plan, byte for byte.
//
// DSH's tools decide what a result holds; the plan only chooses calls whose results are
// deterministic: ripgrep walks a directory in parallel and prints files in the order its threads
// finish, so a `grep` searches one file, or a directory for an identifier only one file defines;
// `glob` sorts by modification time, so every file gets a fixed, distinct mtime (`resetWorkspace`).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generateBenchMonorepo } from './generate-monorepo.js';
import { random } from './inputs.js';

/** One tool call the plan makes, as the model sends it. */
export interface PlannedCall {
  readonly name: 'read' | 'grep' | 'glob' | 'bash' | 'edit' | 'write';
  readonly input: Readonly<Record<string, unknown>>;
}

/** One turn of the plan: the user's request, the tool steps (calls per step), the final answer. */
export interface PlannedTurn {
  readonly prompt: string;
  readonly steps: readonly (readonly PlannedCall[])[];
  readonly answer: string;
}

/** The workspace on disk and the files the plan may read. */
export interface SessionWorkspace {
  readonly root: string;
  /** Text files (relative paths, sorted) with their sizes in bytes. */
  readonly files: readonly { readonly path: string; readonly bytes: number }[];
}

/** Files over this size are "large": DSH's `read` returns their first 50 KiB of lines. */
export const LARGE_FILE_BYTES = 60_000;
const MAX_FILE_BYTES = 192_000;
const MIN_FILE_BYTES = 85;
/** Median and spread of the log-normal size of an ordinary file. */
const MEDIAN_BYTES = 7_000;
const SIGMA = 1.0;
/** Share of files that are large (generated clients, fixtures, bundles). */
const LARGE_SHARE = 0.0125;
/** One new read in this many goes to a large file (five of 81 reads in the session the issue measured). */
const LARGE_READ_EVERY = 16;
/** Share of reads that read a file the session has read before. */
const REREAD_SHARE = 0.25;
/** The fixed time (seconds since the epoch) files' mtimes count up from: 2026-01-01T00:00:00Z. */
const MTIME_BASE = 1_767_225_600;
const COMMIT_ENV = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };

const TEXT_EXTS = new Set(['ts', 'tsx', 'js', 'mjs', 'cjs', 'py', 'go', 'sh', 'md', 'mdx', 'json', 'yaml', 'yml', 'sql', 'graphql', 'gql', 'css', 'scss', 'snap', 'txt', 'tf', 'tfvars']);
const CODE_WORDS = ['config', 'request', 'handler', 'session', 'worker', 'binding', 'route', 'cache', 'token', 'module', 'bundle', 'asset', 'deploy', 'secret', 'queue', 'durable', 'object', 'storage', 'tail', 'metric', 'retry', 'limit', 'schema', 'parse', 'format', 'resolve', 'build', 'watch', 'proxy', 'event'];
const PROSE_WORDS = ['the', 'worker', 'runs', 'each', 'request', 'through', 'a', 'binding', 'and', 'returns', 'its', 'result', 'when', 'configured', 'for', 'local', 'development', 'with', 'the', 'CLI', 'deploys', 'to', 'production', 'after', 'tests', 'pass'];

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const between = (next: () => number, lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));

/** A standard normal draw (Box–Muller). */
function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

function identifier(next: () => number, prefix: string): string {
  const a = pick(next, CODE_WORDS);
  const b = pick(next, CODE_WORDS);
  return `${prefix}${a[0]!.toUpperCase()}${a.slice(1)}${b[0]!.toUpperCase()}${b.slice(1)}`;
}

/** `bytes` of text shaped like the file's kind; every code line carries a counter, so lines are unique. */
function fileText(path: string, bytes: number, next: () => number, tag: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1);
  const lines: string[] = [];
  let size = 0;
  let n = 0;
  const push = (line: string): void => {
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  };
  if (ext === 'md' || ext === 'mdx' || ext === 'txt') {
    push(`# ${path.split('/').at(-1)}`);
    while (size < bytes) {
      if (next() < 0.12) push(`\n## ${pick(next, PROSE_WORDS)} ${pick(next, CODE_WORDS)} ${n++}`);
      else push(Array.from({ length: between(next, 8, 22) }, () => pick(next, PROSE_WORDS)).join(' ') + ` (${tag}-${n++}).`);
    }
  } else if (ext === 'json' || ext === 'snap') {
    push('{');
    while (size < bytes) push(`  "${identifier(next, 'k')}${n++}": ${next() < 0.5 ? between(next, 0, 99999) : JSON.stringify(`${pick(next, CODE_WORDS)}-${tag}`)},`);
    push(`  "end${tag}": true\n}`);
  } else {
    const fn = identifier(next, tag.replace(/[^a-z0-9]/gi, '').slice(0, 6).toLowerCase() || 'f');
    push(`// ${path}`);
    push(`import { ${identifier(next, 'use')} } from './${pick(next, CODE_WORDS)}';`);
    while (size < bytes) {
      const r = next();
      if (r < 0.1) push(`\nexport function ${fn}${n++}(${pick(next, CODE_WORDS)}: ${pick(next, ['string', 'number', 'Request', 'Env'])}) {`);
      else if (r < 0.2) push(`}`);
      else if (r < 0.3) push(`  // ${Array.from({ length: between(next, 4, 12) }, () => pick(next, PROSE_WORDS)).join(' ')}`);
      else push(`  const ${pick(next, CODE_WORDS)}_${n++} = ${identifier(next, 'get')}(${pick(next, CODE_WORDS)}, ${between(next, 0, 999)});`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Instruction files kept at the root; below it, only package roots keep theirs, one in KEEP_PACKAGE_INSTRUCTIONS. */
const KEEP_PACKAGE_INSTRUCTIONS = 6;

/**
 * The generator writes an instruction file in every package and in one directory of 25, and 55
 * rules, for the loaders' benches; a repository such as the one issue 30 measured has a few nested
 * instruction files and no rules. Keeps the root's instruction files and one package root's in six,
 * and no rules (a repository with rules pays for what they say, with or without this package).
 */
function thinInstructions(root: string, next: () => number): void {
  for (const path of walk(root)) {
    const name = path.split('/').at(-1)!;
    const depth = path.split('/').length;
    if (/^(AGENTS|CLAUDE)(\.local)?\.md$/.test(name) && depth > 1) {
      const packageRoot = depth === 3 && /^(packages|apps|services)\//.test(path) && name === 'AGENTS.md';
      if (!packageRoot || next() >= 1 / KEEP_PACKAGE_INSTRUCTIONS) rmSync(join(root, path));
    } else if (/^\.(claude|dsh)\/rules\//.test(path)) rmSync(join(root, path));
  }
}

/** Every regular file under `root` but `.git` and `node_modules`, relative and sorted. */
function walk(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) out.push(relative(root, path));
    }
  };
  visit(root);
  return out.sort();
}

/**
 * Writes (once) the session workspace: the generated monorepo's paths filled with real-shaped text,
 * committed to git; a later call finds it by its marker and only reads the file list. With
 * `generate` false, `root` is a committed git work tree to use as it is.
 * @param root - where it lives.
 * @param files - how many paths the generator draws.
 * @param seed - the generator's seed.
 * @param generate - whether to generate it (default true).
 * @returns the workspace and its readable files.
 */
export function sessionWorkspace(root: string, files: number, seed: number, generate = true): SessionWorkspace {
  const marker = join(root, '.git', 'bench-session-ready');
  if (generate && !existsSync(marker)) {
    rmSync(root, { recursive: true, force: true });
    generateBenchMonorepo(root, files, seed, { git: true });
    const next = random(seed ^ 0x5e55);
    thinInstructions(root, next);
    for (const [i, path] of walk(root).entries()) {
      const ext = path.slice(path.lastIndexOf('.') + 1);
      if (!TEXT_EXTS.has(ext) || /(^|\/)(AGENTS|CLAUDE)(\.local)?\.md$/.test(path) || path.includes('/rules/')) continue;
      const large = next() < LARGE_SHARE;
      const bytes = large ? between(next, LARGE_FILE_BYTES, MAX_FILE_BYTES) : Math.round(Math.min(LARGE_FILE_BYTES - 1, Math.max(MIN_FILE_BYTES, MEDIAN_BYTES * Math.exp(SIGMA * gaussian(next)))));
      writeFileSync(join(root, path), fileText(path, bytes, next, `f${i}`));
    }
    execFileSync('git', ['add', '-A'], { cwd: root });
    execFileSync('git', ['commit', '-q', '-m', 'generated monorepo'], { cwd: root, env: { ...process.env, ...COMMIT_ENV } });
    writeFileSync(marker, '');
  }
  resetWorkspace(root);
  const list = walk(root)
    .filter((path) => TEXT_EXTS.has(path.slice(path.lastIndexOf('.') + 1)) && !path.includes('node_modules/') && !path.includes('/dist/'))
    .map((path) => ({ path, bytes: statSync(join(root, path)).size }));
  return { root, files: list };
}

/**
 * Puts the workspace back as committed (a session's edits and new files undone) with every file's
 * mtime fixed and distinct, so DSH's `glob` (newest first) orders the same way in every session.
 * @param root - the workspace.
 */
export function resetWorkspace(root: string): void {
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: root });
  execFileSync('git', ['clean', '-q', '-fdx', '-e', 'node_modules', '-e', 'dist'], { cwd: root });
  for (const [i, path] of walk(root).entries()) utimesSync(join(root, path), MTIME_BASE + i, MTIME_BASE + i);
}

/** Words a prompt or an answer is made of. */
const TASKS = ['Find out why', 'Check how', 'Explain where', 'Fix the way', 'Trace how', 'Review how', 'Make sure'];
const SUBJECTS = ['the config is resolved', 'bindings are passed to the worker', 'the dev server proxies requests', 'assets are uploaded', 'retries are limited', 'secrets reach the build', 'the queue consumer acks messages', 'the tail logs are formatted'];

function prose(next: () => number, minChars: number, maxChars: number, mention: readonly string[]): string {
  const target = between(next, minChars, maxChars);
  const words: string[] = [];
  let length = 0;
  let m = 0;
  while (length < target) {
    // Each file the turn touched is named at most once, as an answer would cite it.
    const word = next() < 0.08 && m < mention.length ? `\`${mention[m++]}\`` : pick(next, PROSE_WORDS);
    words.push(word);
    length += word.length + 1;
    if (next() < 0.07) {
      words[words.length - 1] += '.';
    }
  }
  return `${words.join(' ')}.`;
}

/** The directory part of a path ('' for a top-level file). */
const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.');

/**
 * The seeded plan: `turns` turns over the workspace's files.
 * @param workspace - the files to read.
 * @param turns - how many turns.
 * @param seed - the plan's seed.
 * @returns one planned turn per turn, in order.
 */
export function planSession(workspace: SessionWorkspace, turns: number, seed: number): PlannedTurn[] {
  const next = random(seed);
  const text = workspace.files;
  const ordinary = text.filter((f) => f.bytes < LARGE_FILE_BYTES && f.bytes >= MIN_FILE_BYTES);
  const large = text.filter((f) => f.bytes >= LARGE_FILE_BYTES);
  const code = ordinary.filter((f) => /\.(ts|tsx|js|mjs|cjs|py|go)$/.test(f.path));
  const read: string[] = [];
  let fresh = 0;
  const edited = new Set<string>();
  const contents = new Map<string, string>();
  const content = (path: string): string => {
    let value = contents.get(path);
    if (value === undefined) contents.set(path, (value = readFileSync(join(workspace.root, path), 'utf8')));
    return value;
  };
  const plan: PlannedTurn[] = [];
  for (let t = 1; t <= turns; t++) {
    const steps: PlannedCall[][] = [];
    const r = next();
    const count = r < 0.3 ? 1 : r < 0.7 ? 2 : r < 0.9 ? 3 : 4;
    const mentioned: string[] = [];
    for (let s = 0; s < count; s++) {
      const calls: PlannedCall[] = [];
      // Files read in earlier steps: an edit needs its read done before it runs.
      const readBefore = read.filter((p) => /\.(ts|tsx|js|py|go)$/.test(p) && !edited.has(p));
      const parallel = next() < 0.05 ? 2 : 1;
      for (let c = 0; c < parallel; c++) {
        const kind = next();
        if (kind < 0.62) {
          let path: string;
          if (read.length > 0 && next() < REREAD_SHARE) path = pick(next, read);
          else path = (++fresh % LARGE_READ_EVERY === LARGE_READ_EVERY / 2 && large.length > 0 ? pick(next, large) : pick(next, ordinary)).path;
          read.push(path);
          mentioned.push(path);
          calls.push({ name: 'read', input: { file_path: path } });
        } else if (kind < 0.88) {
          const file = pick(next, code).path;
          const body = content(file);
          if (next() < 0.5) {
            // A common word over one file: many hits, in the file's own order.
            calls.push({ name: 'grep', input: { pattern: pick(next, CODE_WORDS), path: file } });
          } else {
            // An identifier only this file defines, over its directory: one file's hits.
            const defined = [...body.matchAll(/export function (\w+)/g)].map((m) => m[1]!);
            const id = defined.length > 0 ? pick(next, defined) : pick(next, CODE_WORDS);
            calls.push({ name: 'grep', input: { pattern: `\\b${id}\\b`, path: dirOf(file) } });
          }
          mentioned.push(file);
        } else if (kind < 0.92) {
          const dir = dirOf(pick(next, code).path);
          calls.push({ name: 'glob', input: { pattern: `${dir === '.' ? '' : `${dir}/`}**/*.${pick(next, ['ts', 'tsx', 'md', 'json'])}` } });
        } else if (kind < 0.95) {
          const file = pick(next, ordinary).path;
          calls.push({ name: 'bash', input: { command: next() < 0.5 ? `wc -l ${JSON.stringify(file)}` : `head -n 30 ${JSON.stringify(file)}`, description: 'Look at a file' } });
          mentioned.push(file);
        } else if (kind < 0.98 && readBefore.some((p) => !edited.has(p))) {
          // An edit of a code file this session read (DSH requires the read first), once per file.
          const target = pick(next, readBefore.filter((p) => !edited.has(p)));
          const lines = content(target).split('\n').filter((line) => /const \w+_\d+ =/.test(line));
          if (lines.length === 0) {
            calls.push({ name: 'read', input: { file_path: target } });
            read.push(target);
            continue;
          }
          const line = pick(next, lines);
          edited.add(target);
          calls.push({ name: 'edit', input: { file_path: target, old_string: line, new_string: `${line} // checked in turn ${t}` } });
          mentioned.push(target);
        } else {
          const path = `notes/turn-${t}-${c}.md`;
          calls.push({ name: 'write', input: { file_path: path, content: prose(next, 200, 1200, mentioned) + '\n' } });
        }
      }
      steps.push(calls);
    }
    const files = [...new Set(mentioned)].slice(0, 3);
    const prompt = `${pick(next, TASKS)} ${pick(next, SUBJECTS)}${files.length > 0 ? ` (start with ${files.map((f) => `\`${f}\``).join(', ')})` : ''}. ${prose(next, 40, 260, [])}`;
    plan.push({ prompt, steps, answer: prose(next, 300, 900, [...new Set(mentioned)]) });
  }
  return plan;
}
