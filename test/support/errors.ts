// Exact error assertions: the class and the whole message (which names the function, the argument
// and the value).

import { expect } from 'vitest';

type ErrorClass = new (...args: never[]) => Error;

/** `run()` throws an instance of `type` whose message is exactly `message`. */
export function expectError(run: () => unknown, type: ErrorClass, message: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${type.name}: ${message}`).toBeInstanceOf(type);
  expect((caught as Error).message).toBe(message);
}

/** `promise` rejects with an instance of `type` whose message is exactly `message`. */
export async function expectRejection(promise: Promise<unknown>, type: ErrorClass, message: string): Promise<void> {
  const caught = await promise.then(() => undefined, (error: unknown) => error);
  expect(caught, `expected ${type.name}: ${message}`).toBeInstanceOf(type);
  expect((caught as Error).message).toBe(message);
}
