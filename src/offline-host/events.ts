// Cordis-like dispatch for the offline host (contract §1.3, §1.4, §12.1): listeners run in
// registration order (`prepend` puts one first), `waterfall` makes the first registered listener
// outermost with the dispatcher's last argument as the innermost `next`, and every listener belongs
// to a fiber whose disposal removes it.

import type { Logger } from '../host/cordis.js';

/** Who owns registrations: a plugin or an agent. Disposing it undoes everything it registered. */
export class Fiber {
  readonly #disposables: (() => unknown)[] = [];
  #disposed = false;

  constructor(readonly label: string) {}

  get disposed(): boolean {
    return this.#disposed;
  }

  /** Registers teardown; returns a function that runs it early (once). */
  add(dispose: () => unknown): () => void {
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      const i = this.#disposables.indexOf(run);
      if (i >= 0) this.#disposables.splice(i, 1);
      dispose();
    };
    if (this.#disposed) {
      run();
      return run;
    }
    this.#disposables.push(run);
    return run;
  }

  /** Runs every teardown, newest first, as Cordis unwinds a fiber. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const run of this.#disposables.slice().reverse()) run();
  }
}

/**
 * Which listeners a dispatch reaches. `null`: every listener (DSH's deliberately unfiltered
 * `tools/change`, `system-prompt/change`, and raw `ctx.emit`). `undefined`: only listeners not tied
 * to an agent (an event with no subject agent). An object: unscoped listeners plus those registered
 * through that agent's `agent.ctx`.
 */
export type DispatchScope = object | null | undefined;

interface ListenerRecord {
  readonly fn: (...args: any[]) => any;
  readonly scope: object | undefined;
  readonly logger: Logger;
}

/** The event bus every context of one offline host shares. */
export class EventBus {
  readonly #listeners = new Map<string, ListenerRecord[]>();

  /** Adds a listener owned by `fiber`; returns its disposer (true when it was still registered). */
  on(name: string, fn: (...args: any[]) => any, opts: { prepend?: boolean; scope?: object; fiber: Fiber; logger: Logger }): () => boolean {
    const record: ListenerRecord = { fn, scope: opts.scope, logger: opts.logger };
    const list = this.#listeners.get(name) ?? [];
    if (opts.prepend) list.unshift(record);
    else list.push(record);
    this.#listeners.set(name, list);
    let removed = false;
    const off = () => {
      if (removed) return false;
      removed = true;
      const current = this.#listeners.get(name)!;
      current.splice(current.indexOf(record), 1);
      return true;
    };
    opts.fiber.add(off);
    return off;
  }

  /** How many listeners `name` has (for tests of disposal). */
  count(name: string): number {
    return this.#listeners.get(name)?.length ?? 0;
  }

  #select(name: string, scope: DispatchScope): ListenerRecord[] {
    const list = this.#listeners.get(name) ?? [];
    if (scope === null) return list.slice();
    return list.filter((r) => r.scope === undefined || r.scope === scope);
  }

  /** Synchronous, registration order, return values ignored; a throw propagates (raw Cordis emit). */
  emit(name: string, scope: DispatchScope, args: readonly unknown[]): void {
    for (const r of this.#select(name, scope)) r.fn(...args);
  }

  /**
   * Like `emit`, but a sync throw or an async rejection is logged with the listener's
   * `logger.warn` and contained, as DSH wraps its agent and tool notifications.
   */
  notify(name: string, scope: DispatchScope, args: readonly unknown[]): void {
    for (const r of this.#select(name, scope)) {
      try {
        const out = r.fn(...args);
        if (out instanceof Promise) out.catch((error: unknown) => r.logger.warn('%s listener failed: %o', name, error));
      } catch (error) {
        r.logger.warn('%s listener failed: %o', name, error);
      }
    }
  }

  /**
   * Like `notify`, except that a synchronous throw propagates (later listeners do not run): DSH
   * treats a sync throw in an `agent/created` listener as a veto of publication. Async rejections
   * are only logged.
   */
  vetoable(name: string, scope: DispatchScope, args: readonly unknown[]): void {
    for (const r of this.#select(name, scope)) {
      const out = r.fn(...args);
      if (out instanceof Promise) out.catch((error: unknown) => r.logger.warn('%s listener failed: %o', name, error));
    }
  }

  /** Awaited in order; stops at the first value that is not null, undefined or false. */
  async serial(name: string, scope: DispatchScope, args: readonly unknown[]): Promise<unknown> {
    for (const r of this.#select(name, scope)) {
      const out = await r.fn(...args);
      if (out !== null && out !== undefined && out !== false) return out;
    }
    return undefined;
  }

  /**
   * First registered = outermost. Each listener gets `args` plus `next`; `next()` runs the rest and
   * finally `innermost`; not calling it vetoes everything inside. Calling it twice throws.
   */
  waterfall<T>(name: string, scope: DispatchScope, args: readonly unknown[], innermost: () => T): T {
    const chain = this.#select(name, scope);
    const run = (i: number): T => {
      if (i === chain.length) return innermost();
      let called = false;
      const next = () => {
        if (called) throw new Error(`${name}: a listener called next() twice`);
        called = true;
        return run(i + 1);
      };
      return chain[i]!.fn(...args, next) as T;
    };
    return run(0);
  }
}
