// `dsh-context bench`: a real repository, phase by phase, through the WASM engine and through the
// plain-JavaScript path DSH itself takes (node:crypto, Buffer, picomatch), in the same process, on
// the same inputs, with the answers compared before anything is timed.
//
// Phases: walk (honouring .gitignore) and discover (instruction candidates and rule files) are the
// same code for both paths; read+digest reads every instruction file with a bounded read and its two
// SHA-1s; compose builds the instruction baseline of every directory that holds source files, under
// the byte budget; glob matches every file path against every rule glob.

import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { compileGlobs, sha1Hex } from '../engine/index.js';
import { createNodeFileSystem } from '../fs/index.js';
import type { FileSystem } from '../host/index.js';
import { parseRule, type Rule } from '../plugins/auto-memory/rules.js';
import { DEFAULT_INSTRUCTION_FILE_CANDIDATES, DEFAULT_LOCAL_INSTRUCTION_FILE_CANDIDATES, DEFAULT_MAX_SOURCE_BYTES } from '../plugins/workspace-context/config.js';
import { readCandidate, type Probe } from '../plugins/workspace-context/files.js';
import { INTRO, renderBlock, type ByteBudget, type RenderItem } from '../plugins/workspace-context/render.js';
import { progress } from './progress.js';
import { formatMs, table } from './report.js';
import { walkRepository } from './walk.js';

export interface BenchCommandOptions {
  readonly maxBytes: number;
  readonly rounds: number;
  readonly json?: boolean;
}

/** One phase's result: median milliseconds of each path and the median of per-round ratios. */
export interface PhaseResult {
  readonly phase: string;
  readonly items: number;
  readonly unit: string;
  readonly jsMs: number;
  readonly wasmMs: number;
  /** js ÷ wasm: above 1 means the engine is faster. */
  readonly ratio: number;
}

export interface BenchReport {
  readonly directory: string;
  readonly files: number;
  readonly directories: number;
  readonly ignored: number;
  readonly instructionFiles: number;
  readonly ruleFiles: number;
  readonly globs: number;
  readonly composed: number;
  readonly shared: { readonly walkMs: number; readonly discoverMs: number };
  readonly phases: readonly PhaseResult[];
  readonly whole: { readonly jsMs: number; readonly wasmMs: number; readonly ratio: number };
  readonly rounds: number;
  readonly node: string;
}

const CANDIDATES = [...DEFAULT_INSTRUCTION_FILE_CANDIDATES, ...DEFAULT_LOCAL_INSTRUCTION_FILE_CANDIDATES];
const RULE_DIRS = ['.claude/rules/', '.dsh/rules/'];

/** Buffer's byte count and the encode–slice–decode cut DSH's loader uses (the compose baseline). */
export const bufferBudget: ByteBudget = {
  utf8Length: (text) => Buffer.byteLength(text, 'utf8'),
  truncateUtf8(text, maxBytes) {
    let cut = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8');
    while (Buffer.byteLength(cut, 'utf8') > maxBytes) cut = cut.slice(0, -1);
    return { text: cut, bytes: Buffer.byteLength(cut, 'utf8') };
  },
};

/**
 * DSH's bounded read (the read+digest baseline): a running `Buffer.byteLength` over the streamed
 * chunks, then `createHash('sha1')` of the text and of its trim.
 */
export async function readWithNodeCrypto(fs: FileSystem, probe: Extract<Probe, { kind: 'present' }>, maxBytes: number) {
  if (probe.size !== undefined && probe.size > maxBytes) return { kind: 'oversize' as const };
  const parts: string[] = [];
  let bytes = 0;
  for await (const chunk of await fs.streamText(probe.target)) {
    bytes += Buffer.byteLength(chunk, 'utf8');
    if (bytes > maxBytes) return { kind: 'oversize' as const };
    parts.push(chunk);
  }
  const text = parts.join('');
  return { kind: 'loaded' as const, text, digest: createHash('sha1').update(text).digest('hex'), trimmedDigest: createHash('sha1').update(text.trim()).digest('hex') };
}

const median = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function time(work: () => unknown): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

interface Loaded {
  readonly path: string;
  readonly text: string;
  readonly trimmedDigest: string;
}

/** Runs the bench on `dir` and prints the report. */
export async function benchCommand(dir: string, options: BenchCommandOptions, print: (text: string) => void): Promise<BenchReport> {
  const showProgress = options.json !== true;
  let bar = progress(0, 'walk', showProgress);
  const walkStart = performance.now();
  const walk = walkRepository(dir, (n) => bar.update(n));
  const walkMs = performance.now() - walkStart;
  bar.stop();

  const discoverStart = performance.now();
  const instructionPaths = walk.files.filter((f) => CANDIDATES.includes(basename(f)));
  // Project rules live in the root's rule directories (AM-31), as the plugin reads them.
  const rulePaths = walk.files.filter((f) => f.endsWith('.md') && RULE_DIRS.some((d) => f.startsWith(d)));
  const fs = createNodeFileSystem({ cwd: dir });
  const probes: { path: string; probe: Extract<Probe, { kind: 'present' }> }[] = [];
  for (const path of instructionPaths) {
    const target = await fs.resolve(join(dir, path));
    const info = await fs.stat(target);
    if (info?.type === 'file') probes.push({ path, probe: { kind: 'present', target, version: info.version, ...(info.size !== undefined ? { size: info.size } : {}) } });
  }
  const rules: Rule[] = [];
  for (const path of rulePaths) {
    try {
      rules.push(parseRule('project', path, await fs.readText(await fs.resolve(join(dir, path)))));
    } catch {
      // an unreadable rule file is skipped, as the plugin skips it
    }
  }
  const globs = rules.flatMap((r) => r.paths);
  const sourceDirs = [...new Set(walk.files.filter((f) => !CANDIDATES.includes(basename(f))).map((f) => (dirname(f) === '.' ? '' : dirname(f))))];
  const discoverMs = performance.now() - discoverStart;

  // --- the two paths of each phase ---------------------------------------------------------------
  const readWasm = async (): Promise<Loaded[]> => {
    const out: Loaded[] = [];
    for (const { path, probe } of probes) {
      const read = await readCandidate(fs, probe, DEFAULT_MAX_SOURCE_BYTES, undefined);
      if (read.kind === 'loaded') out.push({ path, text: read.text, trimmedDigest: read.trimmedDigest });
    }
    return out;
  };
  const readJs = async (): Promise<Loaded[]> => {
    const out: Loaded[] = [];
    for (const { path, probe } of probes) {
      const read = await readWithNodeCrypto(fs, probe, DEFAULT_MAX_SOURCE_BYTES);
      if (read.kind === 'loaded') out.push({ path, text: read.text, trimmedDigest: read.trimmedDigest });
    }
    return out;
  };
  const loaded = await readWasm();
  const byDir = new Map<string, Loaded[]>();
  for (const file of loaded) {
    const d = dirname(file.path) === '.' ? '' : dirname(file.path);
    byDir.set(d, [...(byDir.get(d) ?? []), file]);
  }
  for (const list of byDir.values()) list.sort((a, b) => CANDIDATES.indexOf(basename(a.path)) - CANDIDATES.indexOf(basename(b.path)));
  const chainItems = (d: string): RenderItem[] => {
    const parts = d === '' ? [] : d.split('/');
    const items: RenderItem[] = [];
    for (let i = 0; i <= parts.length; i++) {
      const key = parts.slice(0, i).join('/');
      const seen = new Set<string>();
      for (const file of byDir.get(key) ?? []) {
        if (seen.has(file.trimmedDigest)) continue;
        seen.add(file.trimmedDigest);
        items.push({ kind: 'baseline', path: file.path, directory: key === '' ? '.' : key, content: file.text });
      }
    }
    return items;
  };
  const chains = sourceDirs.map(chainItems).filter((items) => items.length > 0);
  // Timed runs keep only the sizes: holding tens of thousands of baselines at once would time the
  // garbage collector, not the budget. The check pass below compares the texts themselves.
  const compose = (budget: ByteBudget | undefined) => {
    let total = 0;
    for (const items of chains) total += renderBlock(items, INTRO, options.maxBytes, budget).text.length;
    return total;
  };
  const composeDigests = (budget: ByteBudget | undefined) => chains.map((items) => sha1Hex(renderBlock(items, INTRO, options.maxBytes, budget).text));
  const paths = walk.files;
  const globWasm = () => (globs.length === 0 ? paths.map(() => [] as number[]) : compileGlobs(globs).matchAll(paths));
  const globJs = () => {
    const matchers = globs.map((g) => picomatch(g));
    return paths.map((p) => {
      const hits: number[] = [];
      for (let i = 0; i < matchers.length; i++) if (matchers[i]!(p)) hits.push(i);
      return hits;
    });
  };

  // The answers must agree before anything is timed.
  const digestOf = (value: unknown) => sha1Hex(JSON.stringify(value));
  const checks: [string, unknown, unknown][] = [
    ['read+digest', loaded.map((f) => [f.path, f.trimmedDigest]), (await readJs()).map((f) => [f.path, f.trimmedDigest])],
    ['compose', composeDigests(undefined), composeDigests(bufferBudget)],
    ['glob', globWasm(), globJs()],
  ];
  for (const [phase, ours, theirs] of checks) {
    if (digestOf(ours) !== digestOf(theirs)) throw new Error(`bench: the ${phase} phase gives different answers through the engine and through JavaScript; this is a bug, please report it`);
  }

  const phases = [
    { phase: 'read+digest', items: probes.length, unit: 'files', wasm: readWasm, js: readJs },
    { phase: 'compose', items: chains.length, unit: 'baselines', wasm: () => compose(undefined), js: () => compose(bufferBudget) },
    { phase: 'glob', items: paths.length * globs.length, unit: 'path × glob', wasm: globWasm, js: globJs },
  ];
  bar = progress(options.rounds * phases.length, 'timing', showProgress);
  const results: PhaseResult[] = [];
  let done = 0;
  for (const p of phases) {
    const wasm: number[] = [];
    const js: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      // Alternate the order so that neither path always runs on a warmer machine.
      if (round % 2 === 0) {
        wasm.push(await time(p.wasm));
        js.push(await time(p.js));
      } else {
        js.push(await time(p.js));
        wasm.push(await time(p.wasm));
      }
      bar.update(++done, p.phase);
    }
    results.push({ phase: p.phase, items: p.items, unit: p.unit, jsMs: median(js), wasmMs: median(wasm), ratio: median(js.map((j, i) => j / wasm[i]!)) });
  }
  bar.stop();
  const shared = walkMs + discoverMs;
  const jsMs = shared + results.reduce((n, r) => n + r.jsMs, 0);
  const wasmMs = shared + results.reduce((n, r) => n + r.wasmMs, 0);
  const report: BenchReport = {
    directory: dir, files: walk.files.length, directories: walk.directories, ignored: walk.ignored,
    instructionFiles: probes.length, ruleFiles: rules.length, globs: globs.length, composed: chains.length,
    shared: { walkMs, discoverMs }, phases: results, whole: { jsMs, wasmMs, ratio: jsMs / wasmMs }, rounds: options.rounds, node: process.version,
  };
  print(options.json ? JSON.stringify(report, null, 2) : renderBench(report));
  return report;
}

/** The human form of a bench report. */
export function renderBench(r: BenchReport): string {
  const rate = (items: number, ms: number) => `${Math.round(items / (ms / 1000)).toLocaleString('en-US')}/s`;
  return [
    `dsh-context bench: ${r.directory}`,
    `  ${r.files.toLocaleString('en-US')} files in ${r.directories.toLocaleString('en-US')} directories (${r.ignored.toLocaleString('en-US')} entries ignored by .gitignore), ${r.instructionFiles} instruction files, ${r.ruleFiles} rule files with ${r.globs} globs, ${r.composed.toLocaleString('en-US')} baselines`,
    `  walk ${formatMs(r.shared.walkMs)} and discover ${formatMs(r.shared.discoverMs)}: the same code on both paths`,
    '',
    ...table([
      ['phase', 'work', 'JavaScript', 'WASM engine', 'ratio', 'WASM rate'],
      ...r.phases.map((p) => [p.phase, `${p.items.toLocaleString('en-US')} ${p.unit}`, formatMs(p.jsMs), formatMs(p.wasmMs), `${p.ratio.toFixed(2)}×`, rate(p.items, p.wasmMs)]),
      ['whole run', '', formatMs(r.whole.jsMs), formatMs(r.whole.wasmMs), `${r.whole.ratio.toFixed(2)}×`, ''],
    ]),
    '',
    `median of ${r.rounds} rounds per phase; ratio = JavaScript time ÷ WASM time (above 1: the engine is faster); Node ${r.node}`,
  ].join('\n');
}
