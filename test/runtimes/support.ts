// What every runtime's example must print (examples/demo.js run through examples/engine.js), checked
// against references that do not share its code: the FIPS 180 example digests, node:crypto,
// picomatch, and the code-point references of test/support/reference.ts. The inputs are listed here
// again, on purpose: the test states what the example must cover.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { oracle } from '../support/glob.js';
import { nodeHash, referenceCap, referenceTruncate } from '../support/reference.js';
import { referenceDecode, referenceEncode } from '../support/tokenizer.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const FIPS_ABC = 'abc';
const FIPS_448 = 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq';
const MILLION_A = 'a'.repeat(1_000_000);

/** FIPS 180-2 appendix answers, as published (not computed). */
const FIPS: Record<string, { sha1: string; sha256: string }> = {
  '': { sha1: 'da39a3ee5e6b4b0d3255bfef95601890afd80709', sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
  [FIPS_ABC]: { sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d', sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
  [FIPS_448]: { sha1: '84983e441c3bd26ebaae4aa1f95129e5e54670f1', sha256: '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1' },
  [MILLION_A]: { sha1: '34aa973cd4c4daa4f61eeb2bdbad27316534016f', sha256: 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0' },
};
const DIGEST_TEXTS = ['', FIPS_ABC, FIPS_448, MILLION_A, 'héllo, 世界 🌍', 'lone \uD800 surrogate'];

const CUT_TEXT = 'aé世🌍b';
const LONE_TEXT = 'x\uD83Dy';
/** Exact cuts of CUT_TEXT by byte budget, written out by hand (1 + 2 + 3 + 4 + 1 bytes). */
const CUTS_BY_HAND = ['', 'a', 'a', 'aé', 'aé', 'aé', 'aé世', 'aé世', 'aé世', 'aé世', 'aé世🌍', 'aé世🌍b'];

const GLOB_PATTERNS = ['**/*.ts', 'src/*.js', '*.{md,txt}', 'docs/**', '**/.env', '!**/*.test.ts', 'src/[a-c]*.ts', '?.md', 'lib/**/index.{js,d.ts}', '{a..c}/*.ts'];
const GLOB_PATHS = ['src/a.ts', 'src/deep/b.ts', 'src/a.js', 'src/x.test.ts', 'README.md', 'notes.txt', 'a.md', 'docs/guide/intro.md', '.env', 'config/.env', 'b/y.ts', 'lib/index.js', 'lib/x/index.d.ts', './src/c.ts', '.hidden/z.ts'];

/** The tokenizer's texts: code, Markdown with CJK, emoji, combining marks, whitespace, a lone surrogate, added tokens. */
const TOKEN_TEXTS = [
  'Hello, my dog is cute',
  'function add(a, b) {\n  return a + b; // 12345\n}\n',
  '# 标题\n\n中文字符串，日本語のテキスト。한국어',
  'emoji 😀👍🏽👨‍👩‍👧 and e\u0301 combining',
  '   spaces\t\ttabs\r\n\r\nlines   ',
  'lone \uD800 surrogate',
  '<｜User｜>hi<｜Assistant｜>',
];

interface Demo {
  digests: { input: string; length: number; sha1Bytes: string; sha256Bytes: string; sha1String: string; sha256String: string; sha256Streamed: string }[];
  cuts: { text: string; maxBytes: number; prefix: string; bytes: number }[];
  caps: { text: string; count: number; max: number; prefix: string }[];
  globs: { pattern: string; dot: boolean; path: string; match: boolean }[];
  refused: { pattern: string; error: string | null }[];
  tokens: { text: string; count: number; ids: number[]; decoded: string }[];
}

/** Checks the SHA-1 and SHA-256 results: one-shot over UTF-8 bytes and over the string's UTF-16 units, and streamed (init, update, final). */
export function expectDigests(demo: Demo): void {
  expect(demo.digests.map((d) => d.length)).toEqual(DIGEST_TEXTS.map((t) => t.length));
  demo.digests.forEach((d, i) => {
    const text = DIGEST_TEXTS[i]!;
    const sha1 = FIPS[text]?.sha1 ?? nodeHash('sha1', text);
    const sha256 = FIPS[text]?.sha256 ?? nodeHash('sha256', text);
    expect(d, d.input).toEqual({ input: d.input, length: text.length, sha1Bytes: sha1, sha256Bytes: sha256, sha1String: sha1, sha256String: sha256, sha256Streamed: sha256 });
  });
}

/** Checks every UTF-8 cut and code-point cap of both texts, for every budget from 0 to the whole. */
export function expectCutsAndCaps(demo: Demo): void {
  const cuts = [CUT_TEXT, LONE_TEXT].flatMap((text) => {
    const total = referenceTruncate(text, Infinity).bytes;
    return Array.from({ length: total + 1 }, (_, maxBytes) => {
      const cut = referenceTruncate(text, maxBytes);
      return { text, maxBytes, prefix: cut.text, bytes: cut.bytes };
    });
  });
  expect(cuts.slice(0, CUTS_BY_HAND.length).map((c) => c.prefix)).toEqual(CUTS_BY_HAND); // the reference agrees with the hand table
  expect(demo.cuts).toEqual(cuts);
  const caps = [CUT_TEXT, LONE_TEXT].flatMap((text) => {
    const count = Array.from(text).length;
    return Array.from({ length: count + 1 }, (_, max) => ({ text, count, max, prefix: referenceCap(text, max) }));
  });
  expect(demo.caps).toEqual(caps);
}

/** Checks every glob answer against picomatch 4 (without and with `dot`) and the refused patterns. */
export function expectGlobs(demo: Demo): void {
  // oracle(): picomatch on the path as the ABI normalizes it (a leading `./` removed).
  const expected = [false, true].flatMap((dot) => GLOB_PATTERNS.flatMap((pattern) =>
    GLOB_PATHS.map((path) => ({ pattern, dot, path, match: oracle(pattern, path, dot) }))));
  expect(expected.filter((g) => g.match).length).toBeGreaterThan(20); // the cases are not all "no"
  expect(demo.globs).toEqual(expected);
  expect(demo.refused).toEqual([
    { pattern: '@(a|b)', error: 'glob "@(a|b)": unsupported syntax at index 0' },
    { pattern: '', error: 'glob "": empty pattern' },
  ]);
}

/** Checks the DeepSeek V3 ids, counts and decoded texts against the reference tokenizer. */
export function expectTokens(demo: Demo): void {
  expect(demo.tokens.map((t) => t.text)).toEqual(TOKEN_TEXTS);
  for (const t of demo.tokens) {
    const ids = referenceEncode(t.text);
    expect(t, t.text).toEqual({ text: t.text, count: ids.length, ids, decoded: referenceDecode(ids) });
  }
  expect(demo.tokens[0]!.ids).toEqual([19923, 14, 1026, 6397, 344, 33125]);
}

/** Runs `file` with `args` from the repository root; fails with its output unless it exits 0. */
export function runExample(file: string, args: readonly string[], env: Record<string, string> = {}): string {
  const result = spawnSync(file, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000, maxBuffer: 16 << 20, env: { ...process.env, ...env } });
  if (result.status !== 0) {
    throw new Error(`${file} ${args.join(' ')} exited with ${result.status ?? result.signal}: ${result.error ?? ''}\n${result.stderr}\n${result.stdout}`);
  }
  return result.stdout;
}

/** The human-readable output must show the answers too, not only --json. */
export function expectReadableOutput(stdout: string): void {
  expect(stdout).toContain(`sha256("abc") = ${FIPS[FIPS_ABC]!.sha256}\n`);
  expect(stdout).toContain(`cut "aé世🌍b" to 9 B → "aé世" (6 B)\n`);
  expect(stdout).toContain('glob !**/*.test.ts matches src/a.ts\n');
  expect(stdout).toContain('6 DeepSeek V3 tokens in "Hello, my dog is cute": 19923 14 1026 6397 344 33125');
}

export type { Demo };

/** What one run of a runtime's example gave: its --json results and its human-readable output. */
export interface ExampleRun {
  readonly demo: Demo;
  readonly text: string;
}

/**
 * The tests every runtime's example must pass. `run` starts the example in its runtime (and throws,
 * failing every test here with the reason, when the runtime is missing or the example fails).
 */
export function describeRuntime(runtime: string, run: () => Promise<ExampleRun>): void {
  describe(`examples/ in ${runtime}, on build/engine.wasm alone`, () => {
    let result: ExampleRun | Error;
    beforeAll(async () => {
      try {
        result = await run();
      } catch (error) {
        result = error instanceof Error ? error : new Error(String(error));
      }
    }, 120_000);
    const get = (): ExampleRun => {
      if (result instanceof Error) throw result;
      return result;
    };
    it(`X-14 X-01 ${runtime}: SHA-1 and SHA-256 over UTF-8 bytes and over JS strings equal the FIPS 180 vectors and node:crypto`, () => {
      expectDigests(get().demo);
    });
    it(`X-14 X-05 X-06 ${runtime}: UTF-8 cuts and code-point caps of multibyte text at every budget`, () => {
      expectCutsAndCaps(get().demo);
    });
    it(`X-14 X-07 ${runtime}: compiled globs answer as picomatch 4, with and without dot; extglobs and empty patterns are refused`, () => {
      expectGlobs(get().demo);
    });
    it(`X-14 ${runtime}: DeepSeek V3 token ids, counts and decoded text from the raw .wasm and the tokenizer table equal the reference tokenizer`, () => {
      expectTokens(get().demo);
    });
    it(`X-14 ${runtime}: the example prints its answers for a person`, () => {
      expectReadableOutput(get().text);
    });
  });
}
