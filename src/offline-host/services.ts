// Services that come and go while plugins run (Cordis's service table, as far as the offline host
// needs it): a test provides one after plugins loaded (DSH's `webServer` may be mounted after ours)
// or removes it, and every `ctx.inject` waiting on it loads or unloads its child context.

/** The host's optional services, by name. */
export class ServiceTable {
  readonly #values = new Map<string, unknown>();
  readonly #watchers = new Set<() => void>();

  /**
   * The service under `name`, if provided.
   * @param name - the service name.
   * @returns the value, or undefined.
   */
  get(name: string): unknown {
    return this.#values.get(name);
  }

  /**
   * Provides `value` under `name` and tells every watcher.
   * @param name - the service name.
   * @param value - the service.
   * @returns the removal (a no-op once another value replaced it).
   * @throws Error when `name` is already provided (Cordis refuses a second provider in one realm).
   */
  provide(name: string, value: unknown): () => void {
    if (value === undefined) throw new TypeError(`provide("${name}"): the value is undefined`);
    if (this.#values.has(name)) throw new Error(`service "${name}" is already provided`);
    this.#values.set(name, value);
    this.#notify();
    return () => {
      if (this.#values.get(name) !== value) return;
      this.#values.delete(name);
      this.#notify();
    };
  }

  /**
   * Calls `watcher` after every change.
   * @param watcher - the callback.
   * @returns its removal.
   */
  watch(watcher: () => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  #notify(): void {
    for (const watcher of [...this.#watchers]) watcher();
  }
}
