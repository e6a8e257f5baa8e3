// One algorithm, two ways to run it. The atomic write and the lock are written once, as generators
// that yield what each file operation returned; `runAsync` awaits a yielded promise and `runSync`
// takes a plain value, so the same steps serve the async memory store and the synchronous
// context-profiles state file. An operation that throws (or rejects) is thrown back into the
// generator at its `yield`, so the steps' own try/finally blocks clean up either way.

/** A value, or a promise of it: what a port operation returns (sync ports return plain values). */
export type Awaitable<T> = T | Promise<T>;

/** A sequence of file operations that ends with a `T`. */
export type Steps<T> = Generator<unknown, T, unknown>;

/**
 * Yields one operation's result to the driver and resumes with its settled value.
 * @param value what a port operation returned
 * @returns steps ending in the settled value (a rejection is thrown at the yield)
 */
export function* settle<T>(value: Awaitable<T>): Steps<T> {
  return (yield value) as T;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs `steps` to the end synchronously. A step that yields a promise is a programming error (an
 * async port passed to a synchronous caller) and throws a TypeError into the steps.
 * @param steps the generator to drive
 * @returns its result
 */
export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    next = isThenable(next.value)
      ? steps.throw(new TypeError('runSync: a file operation returned a promise; pass a synchronous port'))
      : steps.next(next.value);
  }
  return next.value;
}

/**
 * Runs `steps` to the end, awaiting every yielded promise (a rejection is thrown into the steps).
 * @param steps the generator to drive
 * @returns its result
 */
export async function runAsync<T>(steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = await next.value;
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(value);
  }
  return next.value;
}
