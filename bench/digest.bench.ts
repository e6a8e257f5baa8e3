// Digests: ours against node:crypto (crypto.hash and createHash) and hash-wasm (a reused hasher, hex
// out), on byte inputs of 64 B to 1 MiB, and a batch of 10,000 messages of varied sizes (1,800 to
// 2,300 bytes, uniform, fixed seed: what a tape of tool outputs or a folder of files looks like)
// through digestMany. Under Node the facade hashes through node:crypto (issue 33: it is faster at
// every size here); the WASM kernel, which runtimes without node:crypto use, is timed beside it.

import { createHash, hash } from 'node:crypto';
import { createSHA1, createSHA256, type IHasher } from 'hash-wasm';
import { digestMany, sha1Hex, sha256Hex } from 'dsh-context-engine/engine';
import { hashHex, hashManyHex } from '#lib/wasm/hash.js';
import type { Comparison } from './harness.js';
import { bytes, variedMessages } from './inputs.js';

const SIZES: ReadonlyArray<[string, number]> = [['64 B', 64], ['1 KiB', 1024], ['16 KiB', 16384], ['1 MiB', 1 << 20]];

function label(n: number): string {
  return SIZES.find(([, size]) => size === n)?.[0] ?? `${n} B`;
}

export async function digestComparisons(): Promise<Comparison[]> {
  const hashers: Record<'sha1' | 'sha256', IHasher> = { sha1: await createSHA1(), sha256: await createSHA256() };
  const ours = { sha1: sha1Hex, sha256: sha256Hex };
  const comparisons: Comparison[] = [];
  for (const algorithm of ['sha1', 'sha256'] as const) {
    for (const [, size] of SIZES) {
      const input = bytes(size, size);
      const hw = hashers[algorithm];
      const targets: Record<string, number> = {};
      if (size !== 16384) targets['hash-wasm'] = 1.1;
      if (algorithm === 'sha1' && size === 64) targets['crypto.hash'] = 0.7;
      comparisons.push({
        group: `${algorithm} ${label(size)}`,
        ours: { name: `${algorithm}Hex`, fn: () => ours[algorithm](input) },
        baselines: [
          { name: 'hash-wasm', fn: () => hw.init().update(input).digest('hex') },
          { name: 'crypto.hash', fn: () => hash(algorithm, input, 'hex') },
          { name: 'createHash', fn: () => createHash(algorithm).update(input).digest('hex') },
          { name: 'the WASM kernel (runtimes without node:crypto)', fn: () => hashHex(algorithm, input) },
        ],
        targets,
      });
    }
    const batch = variedMessages(10_000, 1800, 2300);
    const hw = hashers[algorithm];
    comparisons.push({
      group: `${algorithm} batch of 10,000 × 1,800–2,300 B`,
      ours: { name: 'digestMany', fn: () => digestMany(algorithm, batch) },
      baselines: [
        { name: 'hash-wasm', fn: () => batch.map((b) => hw.init().update(b).digest('hex')) },
        { name: 'crypto.hash', fn: () => batch.map((b) => hash(algorithm, b, 'hex')) },
        { name: 'createHash', fn: () => batch.map((b) => createHash(algorithm).update(b).digest('hex')) },
        { name: 'the WASM kernel (runtimes without node:crypto)', fn: () => hashManyHex(algorithm, batch) },
      ],
      targets: algorithm === 'sha256' ? { 'hash-wasm': 1.8 } : {},
    });
  }
  return comparisons;
}
