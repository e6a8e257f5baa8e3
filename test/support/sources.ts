// Scripted sources for readBounded: each records how often next() and return() were called, so a
// test can show that the reader stopped reading, never started, or closed the source.

/** One step of a script: yield a value, throw, or block forever; `before` runs first. */
export interface Step {
  readonly chunk?: unknown;
  readonly error?: unknown;
  readonly block?: boolean;
  readonly before?: () => void;
}

const chunkStep = (chunk: unknown): Step => ({ chunk });

/** Turns plain chunks into steps. */
export const steps = (chunks: readonly unknown[]): Step[] => chunks.map(chunkStep);

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An async iterator that plays `script`, optionally yielding to the event loop before each step. */
export class ScriptedSource implements AsyncIterableIterator<unknown> {
  nextCalls = 0;
  returnCalls = 0;
  iteratorCalls = 0;

  constructor(private readonly script: readonly Step[], private readonly options: { ticks?: number } = {}) {}

  [Symbol.asyncIterator](): this {
    this.iteratorCalls += 1;
    return this;
  }

  async next(): Promise<IteratorResult<unknown>> {
    const step = this.script[this.nextCalls++];
    for (let i = 0; i < (this.options.ticks ?? 0); i++) await tick();
    if (step === undefined) return { done: true, value: undefined };
    step.before?.();
    if (step.block) return new Promise<never>(() => {});
    if ('error' in step) throw step.error;
    return { done: false, value: step.chunk };
  }

  async return(): Promise<IteratorResult<unknown>> {
    this.returnCalls += 1;
    return { done: true, value: undefined };
  }
}

/** A synchronous iterator playing `script` (no blocking steps). */
export class SyncScriptedSource implements IterableIterator<unknown> {
  nextCalls = 0;
  returnCalls = 0;

  constructor(private readonly script: readonly Step[]) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<unknown> {
    const step = this.script[this.nextCalls++];
    if (step === undefined) return { done: true, value: undefined };
    step.before?.();
    if ('error' in step) throw step.error;
    return { done: false, value: step.chunk };
  }

  return(): IteratorResult<unknown> {
    this.returnCalls += 1;
    return { done: true, value: undefined };
  }
}

/** An endless lazy source: chunk i is `make(i)`; records next() and return() calls. */
export class EndlessSource implements AsyncIterableIterator<unknown> {
  nextCalls = 0;
  returnCalls = 0;

  constructor(private readonly make: (i: number) => unknown) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<unknown>> {
    return { done: false, value: this.make(this.nextCalls++) };
  }

  async return(): Promise<IteratorResult<unknown>> {
    this.returnCalls += 1;
    return { done: true, value: undefined };
  }
}

/** The chunks as a source whose awaits let other reads run between chunks. */
export async function* slowly<T>(chunks: readonly T[]): AsyncGenerator<T> {
  for (const chunk of chunks) {
    await tick();
    yield chunk;
  }
  await tick();
}
