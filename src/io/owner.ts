// Who holds a lock, and whether that process still runs (io/lock.ts). A pid means something only
// in the PID namespace of the kernel that gave it: a container that shares the hostname and the DSH
// home but has its own PID namespace writes pids this process cannot look up (issue 32, item 2).
// So a lock records, besides the pid and the host name, the kernel's boot id, the PID namespace and
// the process's start time (Linux: /proc); only a holder in this very namespace is judged by its
// pid (and a pid reused by a later process is told apart by its start time). Any other holder, on
// another host or in another namespace, is judged by whether it keeps refreshing its lock.

import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** What a lock file says about the process that holds it. */
export interface Owner {
  readonly pid: number;
  readonly host: string;
  /** The kernel's boot id (`/proc/sys/kernel/random/boot_id`); '' where the OS has none. */
  readonly boot: string;
  /** The PID namespace (`readlink /proc/self/ns/pid`, e.g. `pid:[4026531836]`); '' where the OS has none. */
  readonly pidns: string;
  /** The process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`); '' where unknown. */
  readonly start: string;
}

/** Whether the holder runs: `unknown` when its pid cannot be looked up from here. */
export type Liveness = 'alive' | 'dead' | 'unknown';

const quiet = <T>(read: () => T, fallback: T): T => {
  try {
    return read();
  } catch {
    return fallback;
  }
};

/** The start time field of a `/proc/<pid>/stat` line: the command name may hold spaces and `)`, so fields are counted after the last `)`. */
function startTime(stat: string): string {
  // Fields after the name start at field 3 (state); starttime is field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[22 - 3] ?? '';
}

const procStart = (pid: number | 'self'): string => quiet(() => startTime(readFileSync(`/proc/${pid}/stat`, 'latin1')), '');

let self: Owner | undefined;

/**
 * This process as a lock records it (read once: none of it changes while the process runs).
 * @returns pid, host name, boot id, PID namespace and start time
 */
export function thisProcess(): Owner {
  self ??= {
    pid: process.pid,
    host: hostname(),
    boot: quiet(() => readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim(), ''),
    pidns: quiet(() => readlinkSync('/proc/self/ns/pid'), ''),
    start: procStart('self'),
  };
  return self;
}

/**
 * Whether `owner`'s pid can be looked up here: the same kernel (boot id) and PID namespace, or,
 * where the OS has neither (macOS, Windows), the same host name and a holder that recorded neither.
 */
function sameNamespace(owner: Owner, me: Owner): boolean {
  if (me.boot !== '' || me.pidns !== '') return owner.boot === me.boot && owner.pidns === me.pidns;
  return owner.host === me.host && owner.boot === '' && owner.pidns === '';
}

/**
 * Whether the process that wrote `owner` still runs. A process that is stopped (Ctrl-Z) runs; one
 * whose pid now belongs to a later process (another start time) does not; one in another PID
 * namespace or on another host is `unknown`.
 * @param owner what the lock file says
 * @returns alive, dead, or unknown
 */
export function liveness(owner: Owner): Liveness {
  const me = thisProcess();
  if (!sameNamespace(owner, me)) return 'unknown';
  if (owner.pid === me.pid) return owner.start === me.start ? 'alive' : 'dead';
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return 'dead';
  }
  if (owner.start === '') return 'alive';
  const now = procStart(owner.pid);
  return now === '' || now === owner.start ? 'alive' : 'dead';
}

/**
 * Reads an owner's fields from a parsed lock file; a lock of an older package (pid, host only) reads
 * with empty boot id and namespace, which `liveness` judges `unknown` on Linux.
 * @param value the parsed JSON
 * @returns the owner, or undefined when the fields are missing or of the wrong type
 */
export function ownerOf(value: unknown): Owner | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.pid !== 'number' || typeof v.host !== 'string') return undefined;
  const text = (x: unknown): string => (typeof x === 'string' ? x : '');
  return { pid: v.pid, host: v.host, boot: text(v.boot), pidns: text(v.pidns), start: text(v.start) };
}
