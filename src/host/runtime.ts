// The process facts plugins need (environment, OS home, process cwd, fresh ids, a monotonic clock),
// behind one seam.
// Under DSH nothing provides the service and the real process is used. The simulated host provides
// it so a test never depends on the machine it runs on, and message ids are deterministic.

import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { Context } from './cordis.js';

/** Service name under which a host may provide a `HostRuntime`. Not a DSH name: DSH never sets it. */
export const HOST_RUNTIME_SERVICE = 'dsh-context-engine:runtime';

/** Process facts and the id source. */
export interface HostRuntime {
  /** Environment variables (`DSH_HOME`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The OS home directory `~` expands to. */
  readonly homedir: string;
  /** The process working directory: relative config paths and a missing session cwd resolve here. */
  readonly processCwd: string;
  /** A fresh message id. */
  newId(): string;
  /**
   * Milliseconds on a monotonic clock (`performance.now()` under DSH). Only caches read it, to tell
   * how long ago they saw something; nothing a plugin emits depends on it.
   */
  now(): number;
}

const processRuntime: HostRuntime = {
  get env() {
    return process.env;
  },
  get homedir() {
    return homedir();
  },
  get processCwd() {
    return process.cwd();
  },
  newId: () => randomUUID(),
  now: () => performance.now(),
};

/**
 * The runtime a plugin should use for environment, home, process cwd and ids: the one the host
 * provides under `HOST_RUNTIME_SERVICE`, else the real process (what happens under DSH).
 */
export function hostRuntime(ctx: Pick<Context, 'get'>): HostRuntime {
  const provided = ctx.get(HOST_RUNTIME_SERVICE) as HostRuntime | undefined;
  return provided ?? processRuntime;
}
