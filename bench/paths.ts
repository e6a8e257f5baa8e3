// Where each facade call's paths cross (issue 33): the WASM path against plain JavaScript, Buffer and
// node:crypto, per input size and per how V8 holds the string (one byte per unit: ASCII or Latin-1 as
// read from disk; two: text with CJK or emoji), timed paired and interleaved: every round times each
// path over the same inputs, in an order that rotates from round to round, and the ratio is the median
// of the rounds' ratios with its 95% interval (bench-stats.ts). The engine's thresholds
// (src/engine/paths.ts) are read off this table; the last column says which path the facade takes.
//
//   npm run build && npx tsc -p bench/tsconfig.json && node build/bench/paths.js [--quick] [--only NAME]

import { createHash, hash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { medianInterval } from '#lib/cli/bench-stats.js';
import { markdownInstructions } from './inputs.js';

// The modules behind the facade, not the bundle: the bench calls each path on its own.
import { hashHex, hashManyHex } from '#lib/wasm/hash.js';
import { codePointCount, utf8LengthOf } from '#lib/wasm/text.js';
import { smallCodePointLength, smallUtf8Length } from '#lib/engine/small.js';
import * as paths from '#lib/engine/paths.js';
import { NativeTextRead } from '#lib/engine/read.js';
import { ReadState } from '#lib/wasm/read.js';

type Kind = 'one-byte' | 'two-byte';

/** `count` distinct strings of `units` code units, held by V8 as `kind` says (Markdown instructions). */
function strings(kind: Kind, units: number, count: number): string[] {
  const source = markdownInstructions(Math.max(4 * units, 4096) + 64 * count, 31, kind === 'two-byte');
  // Buffer.toString makes a fresh flat string, one byte per unit when it is all Latin-1.
  const text = kind === 'one-byte' ? Buffer.from(source.replace(/[^\x00-\x7f]/g, 'x')).toString() : source;
  return Array.from({ length: count }, (_, i) => {
    const s = text.slice(i * 7, i * 7 + units);
    return kind === 'one-byte' ? Buffer.from(s).toString() : `${s.slice(0, -1)}中`.slice(0, units);
  });
}

interface Variant {
  readonly name: string;
  readonly run: (input: string) => unknown;
}

/** Per-call ns of each variant (medians), and the median per-round ratio of a ÷ b with its interval. */
async function paired(inputs: readonly string[], a: Variant, b: Variant, rounds: number, blockMs: number): Promise<{ a: number; b: number; ratio: number; low: number; high: number }> {
  const once = async (v: Variant, reps: number): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) for (const input of inputs) await v.run(input);
    return Number(process.hrtime.bigint() - start) / reps / inputs.length;
  };
  // Warm both, then size a block to about blockMs on the slower one.
  await once(a, 3);
  await once(b, 3);
  const pilot = Math.max(await once(a, 1), await once(b, 1));
  const reps = Math.max(1, Math.round((blockMs * 1e6) / (pilot * inputs.length)));
  const ta: number[] = [];
  const tb: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      ta.push(await once(a, reps));
      tb.push(await once(b, reps));
    } else {
      tb.push(await once(b, reps));
      ta.push(await once(a, reps));
    }
  }
  const ratios = ta.map((t, i) => t / tb[i]!);
  const sorted = [...ratios].sort((x, y) => x - y);
  const interval = medianInterval(ratios);
  const med = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1]!;
  return { a: med(ta), b: med(tb), ratio: sorted[sorted.length >> 1]!, low: interval.low, high: interval.high };
}

interface Case {
  readonly name: string;
  readonly sizes: readonly number[];
  readonly kinds: readonly Kind[];
  readonly wasm: (input: string) => unknown;
  readonly other: Variant;
  /** The path the facade takes for such an input. */
  readonly chosen: (input: string) => 'WASM' | string;
}

const CASES: readonly Case[] = [
  {
    name: 'utf8Length', sizes: [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 16384, 65536], kinds: ['one-byte', 'two-byte'],
    wasm: utf8LengthOf, other: { name: 'Buffer.byteLength', run: (s) => Buffer.byteLength(s, 'utf8') },
    chosen: (s) => (s.length <= paths.SMALL_UTF8_UNITS || paths.oneByteText(s) ? 'Buffer.byteLength' : 'WASM'),
  },
  {
    name: 'utf8Length, no Buffer', sizes: [8, 16, 32, 64, 128], kinds: ['one-byte', 'two-byte'],
    wasm: utf8LengthOf, other: { name: 'JavaScript loop', run: smallUtf8Length },
    chosen: (s) => (s.length <= paths.LOOP_UTF8_UNITS ? 'JavaScript loop' : 'WASM'),
  },
  {
    name: 'codePointLength', sizes: [8, 16, 32, 48, 64, 128, 256], kinds: ['one-byte', 'two-byte'],
    wasm: codePointCount, other: { name: 'JavaScript loop', run: smallCodePointLength },
    chosen: (s) => (s.length <= paths.SMALL_CODE_POINT_UNITS ? 'JavaScript loop' : 'WASM'),
  },
  {
    name: 'sha1Hex', sizes: [16, 64, 256, 1024, 4096, 16384, 65536, 1048576], kinds: ['one-byte', 'two-byte'],
    wasm: (s) => hashHex('sha1', s), other: { name: 'crypto.hash', run: (s) => hash('sha1', s, 'hex') }, chosen: () => 'crypto.hash',
  },
  {
    name: 'sha256Hex', sizes: [16, 64, 1024, 16384, 1048576], kinds: ['one-byte', 'two-byte'],
    wasm: (s) => hashHex('sha256', s), other: { name: 'crypto.hash', run: (s) => hash('sha256', s, 'hex') }, chosen: () => 'crypto.hash',
  },
  {
    name: 'digestMany sha256, batches of 64 inputs', sizes: [64, 2048], kinds: ['one-byte'],
    wasm: (s) => hashManyHex('sha256', Array.from({ length: 64 }, () => s)),
    other: { name: 'crypto.hash × 64', run: (s) => { for (let i = 0; i < 64; i++) hash('sha256', s, 'hex'); } }, chosen: () => 'crypto.hash × 64',
  },
  {
    name: 'readBounded (text, one chunk)', sizes: [100, 300, 1000, 3000, 10000, 15000, 65536], kinds: ['one-byte', 'two-byte'],
    // What readBounded does with one string chunk on each path, without the iteration both share.
    wasm: (s) => {
      const read = new ReadState(false);
      read.updateText(s, 1 << 20);
      const digests = read.finish();
      read.release();
      return digests;
    },
    // What readBounded's native path does for such a text (any text; the facade sends only one-byte text there).
    other: {
      name: 'Buffer + node:crypto',
      run: (s) => {
        const read = new NativeTextRead((t: string) => Buffer.byteLength(t, 'utf8'), { hash, createHash } as never);
        read.update(s, 1 << 20);
        return [read.total(), read.digests(s)];
      },
    },
    chosen: (s) => (paths.oneByteText(s) ? 'Buffer + node:crypto' : 'WASM'),
  },
];

if (process.argv[1]?.endsWith('paths.js')) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' } } });
  const rounds = values.quick ? 7 : 15;
  const blockMs = values.quick ? 5 : 20;
  console.log(`${new Date().toISOString()} · Node ${process.version} · ${rounds} paired rounds, blocks of ~${blockMs} ms; ratio = WASM ÷ the other path per round (above 1: the other is faster)\n`);
  console.log('| call | string | code units | WASM | other path | its time | WASM ÷ other (95% interval) | faster | the facade takes |');
  console.log('|---|---|---:|---:|---|---:|---|---|---|');
  for (const c of CASES.filter((k) => values.only === undefined || k.name.includes(values.only))) {
    for (const kind of c.kinds) {
      for (const size of c.sizes) {
        const inputs = strings(kind, size, size >= 65536 ? 4 : 32);
        if (c.name.startsWith('readBounded') && kind === 'one-byte' && !paths.oneByteText(inputs[0]!)) throw new Error('the one-byte inputs are not one-byte');
        const r = await paired(inputs, { name: 'WASM', run: c.wasm }, c.other, rounds, blockMs);
        const faster = r.low > 1 ? c.other.name : r.high < 1 ? 'WASM' : 'within the spread';
        const ns = (v: number) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} µs` : `${v.toFixed(0)} ns`);
        console.log(`| ${c.name} | ${kind} | ${size.toLocaleString('en-US')} | ${ns(r.a)} | ${c.other.name} | ${ns(r.b)} | ${r.ratio.toFixed(2)} (${r.low.toFixed(2)}–${r.high.toFixed(2)}) | ${faster} | ${c.chosen(inputs[0]!)} |`);
      }
    }
  }
}
