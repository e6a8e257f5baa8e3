// workspace-context on a generated monorepo (issue 5): compose the baseline for a cwd eight levels
// deep and reconcile 1,000 touches below it, phase by phase, through the node:fs provider. Each phase
// runs the plugin's own code with the WASM engine, next to the same code with DSH's primitives:
// node:crypto for digests and Buffer for byte counts and cuts (what DSH's built-in loader uses).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createNodeFileSystem } from 'dsh-context-engine/fs';
import type { FileSystem } from 'dsh-context-engine/host';
import { baselineDirectories, directoryCandidates, probeCandidate, readCandidate, touchedDirectories, type Candidate, type Layout, type Probe } from '#lib/plugins/workspace-context/files.js';
import { resolveConfig } from '#lib/plugins/workspace-context/config.js';
import { INTRO, renderBlock, type ByteBudget, type RenderItem } from '#lib/plugins/workspace-context/render.js';
import { bufferBudget, readWithNodeCrypto } from '#lib/cli/bench-paths.js';
import type { Comparison, Row } from './harness.js';
import { generateMonorepo, pickTouches, type Monorepo } from './monorepo.js';

type Present = Extract<Probe, { kind: 'present' }>;
type Found = { candidate: Candidate; probe: Present };

interface Workload {
  readonly repo: Monorepo;
  readonly layout: Layout;
  /** Every probe the baseline and the touches make, in order (a touch probes each directory it reaches). */
  readonly probes: readonly Candidate[];
  /** Every file those probes find, once: the baseline's and each newly reached one. */
  readonly files: readonly Found[];
  /** The render inputs: the baseline, then each touch's batch of newly reached files. */
  readonly batches: readonly { items: RenderItem[]; intro: string }[];
}

const TOUCHES = 1000;

async function workload(): Promise<Workload> {
  const repo = generateMonorepo();
  const config = resolveConfig({ maxBytes: 65536, dshHome: repo.home }, { env: {}, homedir: '/nonexistent', processCwd: '/' });
  const layout: Layout = { cwd: repo.cwd, root: repo.root, config };
  const fs = createNodeFileSystem();
  const probes: Candidate[] = [];
  const files: Found[] = [];
  const batches: { items: RenderItem[]; intro: string }[] = [];
  const seen = new Set<string>();
  const visit = async (directories: readonly string[], kind: 'baseline' | 'set') => {
    const items: RenderItem[] = [];
    for (const directory of directories) {
      for (const candidate of directoryCandidates(layout, directory)) {
        probes.push(candidate);
        if (seen.has(candidate.absolute)) continue;
        const probe = await probeCandidate(fs, candidate, undefined);
        if (probe.kind !== 'present') continue;
        seen.add(candidate.absolute);
        files.push({ candidate, probe });
        const read = await readCandidate(fs, probe, config.maxSourceBytes, undefined);
        if (read.kind === 'loaded') items.push({ kind, path: candidate.path, directory: candidate.directory, content: read.text });
      }
    }
    if (items.length > 0) batches.push({ items, intro: kind === 'baseline' ? INTRO : '' });
  };
  await visit(baselineDirectories(layout), 'baseline');
  for (const touched of pickTouches(repo, TOUCHES, 9)) await visit(touchedDirectories(layout, touched), 'set');
  return { repo, layout, probes, files, batches };
}

/** Levels of the deep chain (issue 18 item 10). */
const DEEP_LEVELS = 200;

/** A chain of `levels` directories with an instruction file at the top and bottom, and the baseline's probes for its bottom. */
function deepChain(levels: number): { base: string; probes: Candidate[] } {
  const base = mkdtempSync(join(tmpdir(), 'wc-bench-deep-'));
  const root = join(base, 'repo');
  const cwd = join(root, ...Array<string>(levels).fill('d'));
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'AGENTS.md'), 'root');
  writeFileSync(join(cwd, 'AGENTS.md'), 'deep');
  const config = resolveConfig({ maxBytes: 65536, dshHome: join(base, 'home') }, { env: {}, homedir: '/nonexistent', processCwd: '/' });
  const layout: Layout = { cwd, root, config };
  return { base, probes: baselineDirectories(layout).flatMap((d) => directoryCandidates(layout, d)) };
}

/**
 * The provider with resolve as it was before issue 18: realpath(3) of the whole path (which reads
 * every component), and for an absent path the realpath of its nearest existing ancestor.
 */
function realpathProvider(fs: FileSystem): FileSystem {
  const resolveReal = async (absolute: string): Promise<string> => {
    try {
      return await realpath(absolute);
    } catch {
      const missing = [basename(absolute)];
      for (let dir = dirname(absolute); ; dir = dirname(dir)) {
        try {
          return join(await realpath(dir), ...missing);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw error;
          missing.unshift(basename(dir));
        }
      }
    }
  };
  // Only resolve differs; everything else is the provider's own (bound, as it has private state).
  const bound = Object.fromEntries((['processPath', 'fileUrl', 'contains', 'stat', 'lstat', 'readText', 'streamText', 'readBytes', 'listDir', 'writeText', 'editText'] as const)
    .map((name) => [name, (fs[name] as (...args: unknown[]) => unknown).bind(fs)]));
  return { ...bound, sandboxMode: fs.sandboxMode, resolve: async (path: string) => ({ targetKey: await resolveReal(path), displayPath: path }) } as unknown as FileSystem;
}

/** One row from whole runs of `ours` and `baseline`, alternating, medians compared. */
async function side(group: string, ours: () => Promise<unknown>, baseline: () => Promise<unknown>, runs: number): Promise<Row> {
  const oursTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    oursTimes.push(await timeRuns(ours, 1));
    baselineTimes.push(await timeRuns(baseline, 1));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  const oursNs = median(oursTimes);
  const baselineNs = median(baselineTimes);
  return { group, ours: 'probeCandidate, node:fs provider (remembered parent real paths)', oursNs, baseline: 'probeCandidate, realpath(3) per candidate (the provider before issue 18)', baselineNs, ratio: baselineNs / oursNs };
}

/** Median wall time of `runs` runs of `fn`, in nanoseconds. */
async function timeRuns(fn: () => Promise<unknown>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push((performance.now() - start) * 1e6);
  }
  return times.sort((a, b) => a - b)[times.length >> 1]!;
}

export async function workspaceContextComparisons(quick: boolean): Promise<{ comparisons: Comparison[]; rows: Row[]; notes: string[] }> {
  const w = await workload();
  const fs = createNodeFileSystem();
  const max = w.layout.config.maxSourceBytes;
  const probeAll = async () => {
    let present = 0;
    for (const candidate of w.probes) if ((await probeCandidate(fs, candidate, undefined)).kind === 'present') present++;
    return present;
  };
  const readAll = async (read: (found: Found) => Promise<{ kind: string; digest?: string; trimmedDigest?: string }>) => {
    const digests: string[] = [];
    for (const found of w.files) {
      const r = await read(found);
      digests.push(r.kind === 'loaded' ? `${r.digest}:${r.trimmedDigest}` : r.kind);
    }
    return digests;
  };
  const renderAll = (budget: ByteBudget | undefined, maxBytes: number) => w.batches.map((b) => renderBlock(b.items, b.intro, maxBytes, budget).text.length);
  const bytesRead = w.batches.reduce((n, b) => n + b.items.reduce((m, i) => m + Buffer.byteLength(i.content), 0), 0);
  const group = `workspace-context, cwd 8 deep, ${w.repo.directories} dirs, ${w.repo.instructionFiles} instruction files, baseline + ${TOUCHES} touches`;
  const comparisons: Comparison[] = [
    {
      group: `${group}: read + digest (${w.files.length} files, ${(bytesRead / 1024).toFixed(0)} KiB, node:fs provider)`,
      ours: { name: 'readCandidate (readBounded: count, SHA-1, trimmed SHA-1 in one pass)', fn: () => readAll(async (f) => readCandidate(fs, f.probe, max, undefined)) },
      baselines: [{ name: 'Buffer.byteLength per chunk + createHash(sha1) ×2', fn: () => readAll((f) => readWithNodeCrypto(fs, f.probe, max)) }],
    },
    {
      group: `${group}: render (${w.batches.length} messages, maxBytes 65536)`,
      ours: { name: 'renderBlock, engine utf8Length/truncateUtf8', fn: () => renderAll(undefined, 65536) },
      baselines: [{ name: 'renderBlock, Buffer.byteLength / Buffer cut', fn: () => renderAll(bufferBudget, 65536) }],
    },
    {
      group: `${group}: render under a tight budget (maxBytes 4096: drops and cuts)`,
      ours: { name: 'renderBlock, engine utf8Length/truncateUtf8', fn: () => renderAll(undefined, 4096) },
      baselines: [{ name: 'renderBlock, Buffer.byteLength / Buffer cut', fn: () => renderAll(bufferBudget, 4096) }],
    },
  ];
  // Probing is provider work with no engine in it: the same probeCandidate through the provider
  // (real paths built from remembered parent directories) and through a provider whose resolve is
  // realpath(3) per candidate, as it was before issue 18. Timed as whole runs (seconds), alternating.
  const realpathFs = realpathProvider(fs);
  const probeWith = (provider: FileSystem, probes: readonly Candidate[]) => async () => {
    let present = 0;
    for (const candidate of probes) if ((await probeCandidate(provider, candidate, undefined)).kind === 'present') present++;
    return present;
  };
  if ((await probeAll()) !== (await probeWith(realpathFs, w.probes)())) throw new Error('workspace-context bench: the two providers disagree on the probes');
  const runs = quick ? 3 : 5;
  const rows: Row[] = [await side(`${group}: probe (${w.probes.length} resolve + stat, node:fs provider)`, probeAll, probeWith(realpathFs, w.probes), runs)];
  const deep = deepChain(DEEP_LEVELS);
  try {
    const deepFs = createNodeFileSystem();
    const deepRealpath = realpathProvider(deepFs);
    rows.push(await side(`workspace-context, cwd ${DEEP_LEVELS} deep: probe the baseline chain (${deep.probes.length} resolve + stat)`, probeWith(deepFs, deep.probes), probeWith(deepRealpath, deep.probes), runs));
  } finally {
    rmSync(deep.base, { recursive: true, force: true });
  }
  const notes = [
    `workspace-context workload: ${w.repo.directories} directories, ${w.repo.instructionFiles} instruction files, ${w.repo.sources.length} source files; cwd 8 levels below the root; ${TOUCHES} touches of random source files below the cwd (seeded), each probing every candidate of every directory it reaches; every file found is read once (later touches hit the version cache).`,
  ];
  return { comparisons, rows, notes };
}
