// Helpers for fs provider tests (the node:fs one and the in-memory one).

import { FsError, type FsErrorCode } from '../../src/host/index.js';

/** The FsError code a promise rejects with, or 'ok' when it resolves; other errors propagate. */
export const code = async (promise: Promise<unknown>): Promise<FsErrorCode | 'ok'> => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof FsError) return error.code;
    throw error;
  }
};

/** Every chunk of a text stream, in order. */
export const drain = async (iterable: AsyncIterable<string>): Promise<string[]> => {
  const chunks: string[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
};
