// Issue 33: before a phase of short runs is timed, each path warms up until its mean run stops
// falling (the paths taking turns), so that a process's first timed samples are not still warming up.

import { describe, expect, it } from 'vitest';
import type { BenchPath } from '../../src/cli/bench-paths.js';
import { warmPaths } from '../../src/cli/bench.js';

/** A scripted stretch: each path's next mean run from its list (the last repeats), and the turns taken. */
function script(means: Record<BenchPath, number[]>) {
  const taken: string[] = [];
  const next = { wasm: 0, js: 0 };
  const stretch = async (path: BenchPath) => {
    taken.push(path);
    const list = means[path];
    return list[Math.min(next[path]++, list.length - 1)]!;
  };
  return { taken, stretch };
}

describe('issue 33: warming both paths up until their mean runs stop falling', () => {
  it('two stretches each when nothing falls; the paths take turns in the order given', async () => {
    const { taken, stretch } = script({ wasm: [2, 2], js: [3, 3] });
    expect(await warmPaths(['js', 'wasm'], stretch)).toEqual({ wasm: 2, js: 3 });
    expect(taken).toEqual(['js', 'wasm', 'js', 'wasm']);
  });

  it('a path whose mean run is still falling by 5% or more keeps warming; the other stops; the fastest stretch is returned', async () => {
    // WASM: 2.4 → 2.2 (−8%) → 1.5 (−32%) → 1.46 (−3%: warm). JS: 1.8 → 1.9 (not faster: warm).
    const { taken, stretch } = script({ wasm: [2.4, 2.2, 1.5, 1.46, 1], js: [1.8, 1.9] });
    expect(await warmPaths(['wasm', 'js'], stretch)).toEqual({ wasm: 1.46, js: 1.8 });
    expect(taken).toEqual(['wasm', 'js', 'wasm', 'js', 'wasm', 'wasm']);
  });

  it('a noisy stretch slower than the fastest so far ends the warm-up (it is not falling any more)', async () => {
    const { stretch } = script({ wasm: [2, 1.5, 1.8, 1], js: [1, 1] });
    expect(await warmPaths(['wasm', 'js'], stretch)).toEqual({ wasm: 1.5, js: 1 });
  });

  it('six stretches at most, even when every one is faster', async () => {
    const { taken, stretch } = script({ wasm: [64, 32, 16, 8, 4, 2, 1], js: [1, 1] });
    expect(await warmPaths(['wasm', 'js'], stretch)).toEqual({ wasm: 2, js: 1 });
    expect(taken.filter((p) => p === 'wasm')).toHaveLength(6);
  });
});
