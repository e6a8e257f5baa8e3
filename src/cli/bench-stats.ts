// Figures of `dsh-context bench` (issue 33): per-path samples (each the mean of enough runs of the
// phase to lie well above the timer's and the scheduler's noise), their median and range, and the
// ratio of the two paths taken round by round (both paths run back to back in each round, in
// alternating order), with a distribution-free confidence interval of its median; with the rounds
// split over fresh processes, the median and interval of the processes' own ratios. When the interval
// holds 1, the two paths cannot be told apart on this machine at this moment, and the report says so
// instead of printing a ratio.

/** The samples of one path of one phase, in milliseconds per run, with their median and range. */
export interface Samples {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** One per round, in round order: the mean time of one run over the round's runs. */
  readonly samples: readonly number[];
}

/** What the two paths' ratio says ('too few rounds': an interval of under 90% coverage, under 5 rounds). */
export type Verdict = 'engine faster' | 'JavaScript faster' | 'within the spread' | 'too few rounds';

/** A confidence interval of the median per-round ratio. */
export interface RatioInterval {
  readonly low: number;
  readonly high: number;
  /** Its coverage, from the rounds' count (0.95 or just above from 6 rounds on; less below). */
  readonly confidence: number;
}

/** One measured phase (or the whole run). */
export interface PhaseFigures {
  readonly phase: string;
  readonly items: number;
  /** What one item is, singular (`file`, `baseline`, `path × glob pair`). */
  readonly unit: string;
  /** Runs of the phase timed together for one sample of one path; `undefined` when nothing was measured. */
  readonly runsPerSample?: number;
  /** `undefined` when the phase had nothing to measure (no instruction files, no globs). */
  readonly js?: Samples;
  readonly wasm?: Samples;
  /** The median of the per-round ratios JavaScript ÷ WASM: above 1, the engine is faster; `null` when nothing was measured. */
  readonly ratio: number | null;
  /** Where that median lies, with the stated confidence; `null` when nothing was measured. */
  readonly interval: RatioInterval | null;
  readonly verdict: Verdict | null;
  /** The lowest and highest per-round ratio. */
  readonly roundRatios: { readonly min: number; readonly max: number } | null;
  /**
   * When the rounds ran in several processes: each process's own ratio (the median of its rounds'),
   * in process order; `ratio` is their median and `interval` is taken over them.
   */
  readonly processRatios?: readonly number[];
}

/**
 * The median of `values` (the mean of the two middle values for an even count).
 * @param values samples
 * @returns the median, `NaN` for none
 */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/**
 * Median and range of a list of samples.
 * @param samples one per round
 * @returns median, min, max and the samples
 */
export function summarize(samples: readonly number[]): Samples {
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), samples };
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomialCdf(n: number, k: number): number {
  let term = 0.5 ** n; // C(n, 0) / 2^n
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

/** The target coverage of the interval. */
const CONFIDENCE = 0.95;
/** Below this coverage (fewer than 5 rounds) the interval decides nothing. */
const LEAST_CONFIDENCE = 0.9;

/**
 * A distribution-free confidence interval of the median of `values`: the k-th smallest and k-th
 * largest value, k the largest rank whose coverage 1 − 2·P(Binomial(n, ½) ≤ k − 1) is still at least
 * 95% (at least the range when no rank reaches it: fewer than 6 values).
 * @param values at least one value
 * @returns the interval and its coverage
 */
export function medianInterval(values: readonly number[]): RatioInterval {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  let k = 1;
  while (k + 1 <= (n + 1) / 2 && 1 - 2 * binomialCdf(n, k) >= CONFIDENCE) k++;
  return { low: s[k - 1]!, high: s[n - k]!, confidence: 1 - 2 * binomialCdf(n, k - 1) };
}

/**
 * What an interval of JavaScript ÷ WASM says.
 * @param interval the ratio's interval
 * @returns the engine faster (all above 1), JavaScript faster (all below 1), within the spread, or too few rounds to say
 */
export function verdictOf(interval: RatioInterval): Verdict {
  if (interval.confidence < LEAST_CONFIDENCE) return 'too few rounds';
  if (interval.low > 1) return 'engine faster';
  if (interval.high < 1) return 'JavaScript faster';
  return 'within the spread';
}

/**
 * The figures of a phase from its samples: the median per-round ratio, its interval and the verdict.
 * @param phase the phase's name
 * @param items work items in one run
 * @param unit what an item is
 * @param runsPerSample runs timed together per sample
 * @param js JavaScript samples (ms per run), one per round; empty when nothing was measured
 * @param wasm WASM engine samples (ms per run), same rounds
 * @returns the figures
 */
export function phaseFigures(phase: string, items: number, unit: string, runsPerSample: number, js: readonly number[], wasm: readonly number[]): PhaseFigures {
  if (js.length === 0 || wasm.length === 0) return { phase, items, unit, ratio: null, interval: null, verdict: null, roundRatios: null };
  const perRound = js.map((t, i) => t / wasm[i]!);
  const interval = medianInterval(perRound);
  return {
    phase, items, unit, runsPerSample, js: summarize(js), wasm: summarize(wasm), ratio: median(perRound), interval, verdict: verdictOf(interval),
    roundRatios: { min: Math.min(...perRound), max: Math.max(...perRound) },
  };
}

/**
 * How many runs one sample takes so that it lasts at least `sampleMs`, from a pilot time of one run
 * (the faster path's, so that its samples are long enough too).
 * @param pilotMs one run's time
 * @param sampleMs the shortest sample wanted
 * @param maxRuns the most runs per sample
 * @returns runs per sample, at least 1
 */
export function runsFor(pilotMs: number, sampleMs: number, maxRuns: number): number {
  if (!(pilotMs > 0)) return maxRuns;
  return Math.max(1, Math.min(maxRuns, Math.ceil(sampleMs / pilotMs)));
}

/**
 * The figures of a phase measured in several fresh processes, from each process's own figures. A
 * process keeps its JIT's choices, its heap and its memory layout for its whole life, and they move
 * a phase's ratio by a few percent from one process to the next (bench/README.md): rounds in one
 * process share that offset, so an interval over them describes that process, not a rerun. Here each
 * process gives one ratio, the median of its rounds' ratios; the phase's ratio is the median of
 * those, and its interval the distribution-free interval of their median (medianInterval: with 6
 * processes their lowest to their highest, 96.9%), so process-to-process variation is inside it.
 * Samples are every round of every process; runs per sample the median of the processes' own.
 * @param parts the phase's figures from each process (phaseFigures), in process order
 * @returns the pooled figures
 */
export function pooledFigures(parts: readonly PhaseFigures[]): PhaseFigures {
  const first = parts[0]!;
  const measured = parts.filter((p) => p.js !== undefined && p.wasm !== undefined);
  if (measured.length === 0) return { phase: first.phase, items: first.items, unit: first.unit, ratio: null, interval: null, verdict: null, roundRatios: null };
  const js = measured.flatMap((p) => p.js!.samples);
  const wasm = measured.flatMap((p) => p.wasm!.samples);
  const perRound = js.map((t, i) => t / wasm[i]!);
  const processRatios = measured.map((p) => median(p.js!.samples.map((t, i) => t / p.wasm!.samples[i]!)));
  const interval = medianInterval(processRatios);
  return {
    phase: first.phase, items: first.items, unit: first.unit, runsPerSample: Math.round(median(measured.map((p) => p.runsPerSample ?? 1))),
    js: summarize(js), wasm: summarize(wasm), ratio: median(processRatios), interval, verdict: verdictOf(interval),
    roundRatios: { min: Math.min(...perRound), max: Math.max(...perRound) }, processRatios,
  };
}
