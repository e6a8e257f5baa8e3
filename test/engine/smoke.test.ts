import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1Hex } from '../../src/engine/index.js';

describe('X-01 smoke', () => {
  it('hashes abc', () => {
    expect(sha1Hex('abc')).toBe(createHash('sha1').update('abc').digest('hex'));
  });
});
