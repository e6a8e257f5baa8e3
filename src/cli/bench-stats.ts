// Figures of `dsh-context bench`: per-path samples and their median and spread, and the ratio of the
// medians, so the ratio printed is the one the printed medians give.

/** The samples of one path of one phase, in milliseconds, with their median and range. */
export interface Samples {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** One per round, in round order. */
  readonly samples: readonly number[];
}

/** One measured phase (or the whole run). */
export interface PhaseFigures {
  readonly phase: string;
  readonly items: number;
  /** What one item is, singular (`file`, `baseline`, `path × glob pair`). */
  readonly unit: string;
  /** `undefined` when the phase had nothing to measure (no instruction files, no globs). */
  readonly js?: Samples;
  readonly wasm?: Samples;
  /** `js.median / wasm.median`: above 1 means the engine is faster; `null` when nothing was measured. */
  readonly ratio: number | null;
  /** The lowest and highest per-round ratio (the same round's JavaScript ÷ WASM), a measure of spread. */
  readonly roundRatios: { readonly min: number; readonly max: number } | null;
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

/**
 * The figures of a phase from its samples: the ratio of the medians and the range of per-round ratios.
 * @param phase the phase's name
 * @param items work items in one run
 * @param unit what an item is
 * @param js JavaScript samples (ms), one per round; empty when nothing was measured
 * @param wasm WASM engine samples (ms), same rounds
 * @returns the figures
 */
export function phaseFigures(phase: string, items: number, unit: string, js: readonly number[], wasm: readonly number[]): PhaseFigures {
  if (js.length === 0 || wasm.length === 0) return { phase, items, unit, ratio: null, roundRatios: null };
  const j = summarize(js);
  const w = summarize(wasm);
  const perRound = js.map((t, i) => t / wasm[i]!);
  return { phase, items, unit, js: j, wasm: w, ratio: j.median / w.median, roundRatios: { min: Math.min(...perRound), max: Math.max(...perRound) } };
}
