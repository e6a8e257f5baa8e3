// Progress bars on stderr, only for people: not when stderr is not a terminal (pipes, CI, tests)
// and not with --json, so machine output stays clean.

import { SingleBar, Presets } from 'cli-progress';

/** A bar for `total` steps named `label`, or a no-op when no one is watching. */
export interface Progress {
  update(done: number, label?: string): void;
  stop(): void;
}

const silent: Progress = { update: () => undefined, stop: () => undefined };

/** Starts a bar when stderr is a TTY and `enabled`. */
export function progress(total: number, label: string, enabled: boolean): Progress {
  if (!enabled || !process.stderr.isTTY) return silent;
  const bar = new SingleBar({ format: '{label} [{bar}] {value}/{total}', stream: process.stderr, clearOnComplete: true, hideCursor: true }, Presets.shades_classic);
  bar.start(total, 0, { label });
  return {
    update: (done, next) => bar.update(done, next === undefined ? {} : { label: next }),
    stop: () => bar.stop(),
  };
}
