// Progress bars on stderr, only for people: not when stderr is not a terminal (pipes, CI, tests)
// and not with --json, so machine output stays clean.

import { SingleBar, Presets } from 'cli-progress';

/** A bar for `total` steps named `label`, or a no-op when no one is watching. */
export interface Progress {
  update(done: number, label?: string): void;
  stop(): void;
}

const silent: Progress = { update: () => undefined, stop: () => undefined };

/**
 * Starts a bar when stderr is a TTY and `enabled`: `done/total` with a bar, or a plain running count
 * (`{label} 12,000 files`) while the total is not known yet (`total` undefined).
 * @param total steps in all, or `undefined` for a count
 * @param label what is being done
 * @param enabled false for machine output
 * @returns the bar
 */
export function progress(total: number | undefined, label: string, enabled: boolean): Progress {
  if (!enabled || !process.stderr.isTTY) return silent;
  const format = total === undefined ? '{label} {value} files' : '{label} [{bar}] {value}/{total}';
  const bar = new SingleBar({ format, stream: process.stderr, clearOnComplete: true, hideCursor: true }, Presets.shades_classic);
  bar.start(total ?? 0, 0, { label });
  return {
    update: (done, next) => bar.update(done, next === undefined ? {} : { label: next }),
    stop: () => bar.stop(),
  };
}
