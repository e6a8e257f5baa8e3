// Issue 33: the bench's figures hold still. A ratio is the median of paired rounds with a
// distribution-free interval; the report says "within the spread" instead of a ratio when the
// interval holds 1; a sample is as many runs as make it last --sample-ms.

import { describe, expect, it } from 'vitest';
import { renderBench } from '../../src/cli/bench-report.js';
import { medianInterval, phaseFigures, pooledFigures, runsFor, verdictOf } from '../../src/cli/bench-stats.js';
import type { BenchReport } from '../../src/cli/bench.js';

/** P(X ≤ k), X ~ Binomial(n, 1/2), written out from the binomial coefficients. */
function cdf(n: number, k: number): number {
  let c = 1;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += c;
    c = (c * (n - i)) / (i + 1);
  }
  return sum / 2 ** n;
}

describe('issue 33: the interval of the median ratio', () => {
  it('15 rounds: the 4th smallest to the 4th largest, 96.5% (the widest rank with at least 95%)', () => {
    const values = [1.31, 0.9, 1.2, 1.05, 1.12, 0.97, 1.4, 1.01, 1.08, 1.15, 0.99, 1.22, 1.03, 1.1, 1.07];
    const sorted = [...values].sort((a, b) => a - b);
    expect(medianInterval(values)).toEqual({ low: sorted[3], high: sorted[11], confidence: 1 - 2 * cdf(15, 3) });
    expect(1 - 2 * cdf(15, 4)).toBeLessThan(0.95); // rank 5 would fall short
    expect(1 - 2 * cdf(15, 3)).toBeCloseTo(0.9648, 4);
  });

  it('fewer than 6 rounds give the range, with the coverage it has; one round has none', () => {
    expect(medianInterval([3, 1, 2, 5, 4])).toEqual({ low: 1, high: 5, confidence: 1 - 2 / 32 });
    expect(medianInterval([1.2])).toEqual({ low: 1.2, high: 1.2, confidence: 0 });
    expect(medianInterval([6, 1, 2, 5, 4, 3]).confidence).toBeCloseTo(1 - 2 / 64, 10);
  });

  it('the verdict: above 1, below 1, holding 1, or too few rounds to say (under 90% coverage)', () => {
    expect(verdictOf({ low: 1.02, high: 1.3, confidence: 0.96 })).toBe('engine faster');
    expect(verdictOf({ low: 0.7, high: 0.98, confidence: 0.96 })).toBe('JavaScript faster');
    expect(verdictOf({ low: 0.97, high: 1.04, confidence: 0.96 })).toBe('within the spread');
    expect(verdictOf({ low: 1.5, high: 1.6, confidence: 0.75 })).toBe('too few rounds');
  });

  it('phaseFigures pairs the rounds: the ratio is the median of each round\'s JavaScript ÷ WASM, not of the medians', () => {
    // Round 2 is slow for both paths (the machine was busy): it is one round's ratio, the interval's low end with 7 rounds.
    const f = phaseFigures('glob', 10, 'pair', 4, [10, 40, 12, 11, 10, 12, 11], [5, 38, 6, 5.5, 5, 6, 5.5]);
    expect(f.ratio).toBe(2);
    expect(f.runsPerSample).toBe(4);
    expect(f.interval).toEqual({ low: 40 / 38, high: 2, confidence: 1 - 2 / 128 });
    expect(f.verdict).toBe('engine faster');
    expect(f.js!.median / f.wasm!.median).toBe(2);
  });

  it('runsFor: enough runs for a sample of at least sampleMs, one at least, at most maxRuns', () => {
    expect(runsFor(0.3, 50, 20_000)).toBe(167);
    expect(runsFor(80, 50, 20_000)).toBe(1);
    expect(runsFor(0.000_1, 50, 20_000)).toBe(20_000);
    expect(runsFor(0, 50, 20_000)).toBe(20_000);
    expect(runsFor(3, 0, 20_000)).toBe(1);
  });
});

describe('issue 33: rounds split over fresh processes, the interval taken over the processes', () => {
  it('each process gives the median of its rounds\' ratios; the ratio is their median, the interval theirs (6 processes: lowest to highest, 96.9%)', () => {
    // Three rounds a process; each process sits at its own level (2.0, 2.2, 1.8, …), as a JIT's choices put it.
    const levels = [2.0, 2.2, 1.8, 2.1, 1.9, 2.4];
    const parts = levels.map((level, i) => phaseFigures('compose', 10, 'baseline', 5 + i, [level * 10, level * 10.2, level * 9.9], [10, 10, 10]));
    const f = pooledFigures(parts);
    const own = parts.map((p) => p.ratio!);
    own.forEach((r, i) => expect(r).toBeCloseTo(levels[i]!, 12));
    expect(f.processRatios).toEqual(own);
    expect(f.ratio).toBe((own[0]! + own[3]!) / 2);
    expect(f.interval).toEqual({ low: own[2], high: own[5], confidence: 1 - 2 / 64 });
    expect(f.verdict).toBe('engine faster');
    expect(f.js!.samples).toHaveLength(18);
    expect(f.wasm!.samples).toEqual(Array.from({ length: 18 }, () => 10));
    expect(f.roundRatios!.min).toBeCloseTo(1.8 * 0.99, 12);
    expect(f.roundRatios!.max).toBeCloseTo(2.4 * 1.02, 12);
    expect(f.runsPerSample).toBe(8); // the median of 5…10 runs, rounded
  });

  it('a within-process interval that excludes the next process\'s ratio: over the processes it holds every one of them', () => {
    // Rounds in a process agree to 0.5%; processes differ by 4%: the rounds' interval of process 1 misses process 2.
    const parts = [1.0, 0.96, 1.03, 0.98, 1.01, 0.97].map((level) => phaseFigures('compose', 10, 'baseline', 1, [level * 10, level * 10.05, level * 9.95], [10, 10, 10]));
    const one = parts[0]!.interval!;
    expect(parts[1]!.ratio! < one.low || parts[1]!.ratio! > one.high).toBe(true);
    const f = pooledFigures(parts);
    for (const p of parts) expect(p.ratio! >= f.interval!.low && p.ratio! <= f.interval!.high).toBe(true);
    expect(f.verdict).toBe('within the spread');
  });

  it('a phase no process measured has no figures', () => {
    const none = phaseFigures('glob', 0, 'path × glob pair', 0, [], []);
    expect(pooledFigures([none, none])).toEqual(none);
  });
});

describe('issue 33: the text report says "within the spread" instead of a ratio', () => {
  const phase = (name: string, js: number[], wasm: number[]) => phaseFigures(name, 100, 'file', 2, js, wasm);
  const rounds = (ratio: (i: number) => number) => Array.from({ length: 15 }, (_, i) => ratio(i));
  const wasm = rounds(() => 10);
  const report: BenchReport = {
    schemaVersion: 4, date: '2026-12-03T12:00:00.000Z', node: 'v20.20.2', v8: '11.3',
    machine: { platform: 'linux', arch: 'x64', cpu: 'CPU', cores: 2, memoryBytes: 2 ** 34, freeMemoryBytes: 2 ** 33, loadAverage: [0.5, 0.4, 0.3] },
    options: { rounds: 15, processes: 1, sampleMs: 50, maxBytes: 65536, rulesFrom: null, globs: [], exclude: [] },
    directory: '/repo', cwd: '.', projectRoot: '.', projectRootMarker: '.git',
    files: { source: 'git', listed: 100, excluded: 0 }, candidatesProbed: 4, instructionFiles: [{ path: 'AGENTS.md', reach: 'baseline' }],
    ruleFiles: 1, globs: 2, baselines: 10, skipped: [], warnings: [],
    phases: [
      phase('read+digest', rounds((i) => 10 * (0.96 + (i % 9) * 0.01)), wasm),
      phase('compose', rounds((i) => 10 * (1.45 + (i % 5) * 0.03)), wasm),
      phase('glob', rounds((i) => 10 * (0.8 + (i % 3) * 0.02)), wasm),
    ],
    whole: { ...phase('whole run', rounds(() => 10), wasm), runsPerSample: 1, steps: { js: { list: 5, discover: 2, read: 1, compose: 1, glob: 1 }, wasm: { list: 5, discover: 2, read: 1, compose: 1, glob: 0.5 } } },
  };

  it('a ratio with its interval when it is clear, words when it is not', () => {
    const text = renderBench(report);
    expect(text).toMatch(/\n {2}read\+digest +100 files +2 +.* +no difference beyond the spread \(0\.97–1\.01×\)\n/);
    expect(text).toMatch(/\n {2}compose +100 files +2 +.* +1\.51× \(1\.48–1\.54×\)\n/);
    expect(text).toMatch(/\n {2}glob +100 files +2 +.* +0\.82× \(0\.80–0\.84×\): JavaScript faster\n/);
    expect(text).toContain('time per run: median (min–max) of 15 rounds, each sample at least 50 ms of runs; ratio: the median of the rounds\' JavaScript ÷ WASM (96.5% interval), above 1 the engine is faster');
    expect(text).toContain('whole run, median per step: WASM listing 5.00 ms, discovery 2.00 ms, read 1.00 ms, compose 1.00 ms, glob 500 µs; JavaScript listing 5.00 ms');
  });
});
