// Defaults of `dsh-context` options that the command line shows in its help, kept in a module that
// imports nothing, so that starting the command does not load the plugins.

/** The first user message of an inspected session when `--prompt` gives none. */
export const PROBE_PROMPT = '(your first prompt)';

/** DSH's profile when `--profile` gives none. DSH has no default (`dsh` refuses to boot without `--profile`); headless is the one-shot profile the README installs the bundle into. */
export const DEFAULT_DSH_PROFILE = 'headless';

/**
 * `bench`'s rounds per phase in each measuring process: two, one with each path first (the order
 * alternates), so that a process's ratio does not lean on which path ran first.
 */
export const DEFAULT_BENCH_ROUNDS = 2;

/** `bench`'s measuring processes: 6 is the fewest whose ratios give a 95% interval of their median (their lowest to their highest, 96.9%). */
export const DEFAULT_BENCH_PROCESSES = 6;

/** `bench`'s shortest sample, in ms: several of the scheduler's time slices, ten thousand times the timer's step. */
export const DEFAULT_SAMPLE_MS = 50;
