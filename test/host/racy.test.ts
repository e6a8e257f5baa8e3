// src/host/racy.ts: when a version seen before can answer for what was seen under it.

import { describe, expect, it } from 'vitest';
import { observeVersion, RACY_WINDOW_MS } from '../../src/host/index.js';

describe('observeVersion (racy versions)', () => {
  it('a new version starts unsettled at the time it was seen', () => {
    expect(observeVersion(undefined, 'v1', 100, 105)).toEqual({ version: 'v1', since: 105, settled: false });
    const seen = { version: 'v1', since: 105, settled: true };
    expect(observeVersion(seen, 'v2', 5000, 5003)).toEqual({ version: 'v2', since: 5003, settled: false });
  });

  it('the same version settles only at a look that began a whole window after it was first seen', () => {
    const first = observeVersion(undefined, 'v1', 0, 10);
    const early = observeVersion(first, 'v1', 10 + RACY_WINDOW_MS - 1, 10 + RACY_WINDOW_MS + 5);
    expect(early).toEqual({ version: 'v1', since: 10, settled: false });
    const late = observeVersion(early, 'v1', 10 + RACY_WINDOW_MS, 10 + RACY_WINDOW_MS + 5);
    expect(late).toEqual({ version: 'v1', since: 10, settled: true });
    expect(observeVersion(late, 'v1', 11, 12)).toEqual(late);
  });
});
