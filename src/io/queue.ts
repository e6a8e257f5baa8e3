// The project's one in-process queue: tasks with the same key run one after another, in the order
// they were queued, whatever the earlier ones did (a failure does not stop the queue). A key is
// forgotten as soon as its queue is empty, so keys may be objects (an agent) without leaking them.

/** Runs tasks one at a time per key. */
export class KeyedQueue<K = unknown> {
  readonly #tails = new Map<K, Promise<void>>();

  /**
   * Queues `task` behind every earlier task of `key`.
   * @param key what the task must not overlap on (a lock path, an agent)
   * @param task the work; it starts once every earlier task of `key` has settled
   * @returns the task's own result (or rejection)
   */
  run<T>(key: K, task: () => T | Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(() => undefined, () => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /**
   * Waits until `key`'s queue is empty, including tasks queued while waiting.
   * @param key the queue to wait for
   * @returns once no task of `key` is queued or running
   */
  async settled(key: K): Promise<void> {
    for (let tail = this.#tails.get(key); tail !== undefined; tail = this.#tails.get(key)) await tail;
  }

  /**
   * Whether a task of `key` is queued or running.
   * @param key the queue to look at
   * @returns true while `key` has work
   */
  busy(key: K): boolean {
    return this.#tails.has(key);
  }
}
