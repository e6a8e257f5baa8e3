// A deterministic generated monorepo on disk for the workspace-context bench: a chain of eight
// directories from the root to the session cwd, and below the cwd a tree of thousands of
// directories, some with AGENTS.md / CLAUDE.md / overlays (mixed ASCII and CJK prose), every one with
// source files. Same seed, same tree.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instructionText, random } from './inputs.js';

export interface MonorepoOptions {
  /** Directories from the root down to the cwd (the cwd is this many levels below the root). */
  readonly depth: number;
  /** Children per directory below the cwd. */
  readonly fanout: number;
  /** Levels of the tree below the cwd. */
  readonly levels: number;
  /** Share of directories below the cwd that have instruction files. */
  readonly instructionShare: number;
  /** Source files per directory. */
  readonly sourcesPerDir: number;
  readonly seed: number;
}

export interface Monorepo {
  readonly root: string;
  readonly cwd: string;
  readonly home: string;
  readonly directories: number;
  readonly instructionFiles: number;
  /** Every source file below the cwd, absolute. */
  readonly sources: readonly string[];
}

export const DEFAULT_MONOREPO: MonorepoOptions = { depth: 8, fanout: 5, levels: 5, instructionShare: 0.1, sourcesPerDir: 2, seed: 5 };

/** Writes the tree under a fresh temp directory and describes it. */
export function generateMonorepo(options: MonorepoOptions = DEFAULT_MONOREPO): Monorepo {
  const next = random(options.seed);
  const base = mkdtempSync(join(tmpdir(), 'dsh-monorepo-'));
  process.once('exit', () => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'AGENTS.md'), instructionText(2048, false, 1));
  let instructionFiles = 1;
  const write = (dir: string, name: string, bytes: number, seed: number) => {
    writeFileSync(join(dir, name), instructionText(bytes, next() < 0.5, seed));
    instructionFiles++;
  };
  // The chain: an instruction file every other level, both base names at the root and the cwd.
  let cwd = root;
  for (let level = 0; level <= options.depth; level++) {
    if (level > 0) cwd = join(cwd, `level${level}`);
    mkdirSync(cwd, { recursive: true });
    if (level % 2 === 0) write(cwd, 'AGENTS.md', 1024 + Math.floor(next() * 6144), level + 100);
    if (level === 0 || level === options.depth) write(cwd, 'CLAUDE.md', 2048, level + 200);
  }
  const sources: string[] = [];
  let directories = options.depth + 1;
  const grow = (dir: string, level: number): void => {
    for (let i = 0; i < options.sourcesPerDir; i++) {
      const file = join(dir, `file${i}.ts`);
      writeFileSync(file, `export const x${i} = ${i};\n`);
      sources.push(file);
    }
    if (next() < options.instructionShare) {
      write(dir, 'AGENTS.md', 512 + Math.floor(next() * 16384), directories);
      if (next() < 0.3) write(dir, 'CLAUDE.local.md', 256 + Math.floor(next() * 2048), directories + 7);
    }
    if (level === options.levels) return;
    for (let c = 0; c < options.fanout; c++) {
      const child = join(dir, `d${c}`);
      mkdirSync(child);
      directories++;
      grow(child, level + 1);
    }
  };
  grow(cwd, 0);
  return { root, cwd, home, directories, instructionFiles, sources };
}

/** `count` touched files picked with the seeded generator (repeats allowed, as a real session has). */
export function pickTouches(repo: Monorepo, count: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => repo.sources[Math.floor(next() * repo.sources.length)]!);
}
