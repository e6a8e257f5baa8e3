// Deterministic bench inputs (a fixed-seed xorshift generator): the same bytes and texts every run.

export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

export function bytes(length: number, seed = 1): Uint8Array {
  const next = random(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (next() * 256) | 0;
  return out;
}

const ASCII_WORDS = ['context', 'agent', 'rules', 'the', 'workspace', 'instructions', 'AGENTS.md', 'npm', 'test', 'build', 'and', 'of'];
const CJK_WORDS = ['上下文', '工作区', '指令', '文件', '规则', '测试', '构建', '模型', '会话', '内存'];

/** Mixed CJK/ASCII prose of at least `utf8Bytes` UTF-8 bytes (about a third CJK by characters). */
export function mixedText(utf8Bytes: number, seed = 7): string {
  const next = random(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < utf8Bytes) {
    const cjk = next() < 0.35;
    const list = cjk ? CJK_WORDS : ASCII_WORDS;
    const word = list[(next() * list.length) | 0]!;
    const sep = next() < 0.08 ? '\n' : cjk ? '' : ' ';
    parts.push(word + sep);
    size += Buffer.byteLength(word + sep);
  }
  return parts.join('');
}

/**
 * An instruction file: Markdown-ish lines of about `utf8Bytes` bytes ending in a newline; about one
 * word in twenty is CJK unless `asciiOnly` (then V8 stores the string one byte per unit).
 */
export function instructionText(utf8Bytes: number, asciiOnly = false, seed = 11): string {
  const next = random(seed);
  const lines = ['# Project instructions', ''];
  let size = 0;
  while (size < utf8Bytes) {
    const words: string[] = [];
    const n = 6 + ((next() * 10) | 0);
    for (let i = 0; i < n; i++) words.push(!asciiOnly && next() < 0.05 ? CJK_WORDS[(next() * CJK_WORDS.length) | 0]! : ASCII_WORDS[(next() * ASCII_WORDS.length) | 0]!);
    const line = `- ${words.join(' ')}.`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  let text = lines.join('\n') + '\n';
  while (Buffer.byteLength(text) > utf8Bytes) text = text.slice(0, -2) + '\n';
  return text;
}

const EMOJI = ['😀', '🚀', '✅', '📦', '🔧', '👍'];

/**
 * Text of about `utf8Bytes` UTF-8 bytes in lines of 40–100 characters: two lines in three are ASCII
 * prose, the third mixes CJK words and an emoji into it (what notes and chat logs of a team that
 * writes in Chinese and English look like).
 */
export function linesWithCjkAndEmoji(utf8Bytes: number, seed = 23): string {
  const next = random(seed);
  const lines: string[] = [];
  let size = 0;
  for (let n = 0; size < utf8Bytes; n++) {
    const words: string[] = [];
    const target = 40 + ((next() * 60) | 0);
    let length = 0;
    while (length < target) {
      const word = n % 3 === 2 && next() < 0.4 ? CJK_WORDS[(next() * CJK_WORDS.length) | 0]! : ASCII_WORDS[(next() * ASCII_WORDS.length) | 0]!;
      words.push(word);
      length += word.length + 1;
    }
    if (n % 3 === 2) words.splice((next() * words.length) | 0, 0, EMOJI[(next() * EMOJI.length) | 0]!);
    const line = words.join(' ');
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}

const MD_HEADINGS = ['## Build', '## Tests', '## Code style', '## Commits', '## Layout', '## Review'];
const MD_CODE = ['`npm test`', '`pnpm -r build`', '`src/`', '`AGENTS.md`', '`--frozen-lockfile`', '`tsc --noEmit`'];

/**
 * A Markdown instruction file (an AGENTS.md) of `utf8Bytes` UTF-8 bytes: headings, bullet lists
 * with inline code, now and then a fenced command; mostly ASCII, with a CJK word in about one line
 * of ten (a project whose instructions name a few things in Chinese). One CJK word is enough for V8
 * to keep the whole string two bytes per code unit. Without `cjk`, ASCII only (English instructions).
 */
export function markdownInstructions(utf8Bytes: number, seed = 31, cjk = true): string {
  const next = random(seed);
  const lines = ['# Agent instructions', ''];
  let size = Buffer.byteLength(lines.join('\n')) + 1;
  for (let n = 0; size < utf8Bytes; n++) {
    let line: string;
    if (n % 12 === 0) line = `\n${MD_HEADINGS[(next() * MD_HEADINGS.length) | 0]!}\n`;
    else if (n % 17 === 5) line = '```sh\nnpm ci && npm test\n```';
    else {
      const words: string[] = [];
      const count = 6 + ((next() * 10) | 0);
      for (let i = 0; i < count; i++) {
        const r = next();
        words.push(r < 0.1 ? MD_CODE[(next() * MD_CODE.length) | 0]! : ASCII_WORDS[(next() * ASCII_WORDS.length) | 0]!);
      }
      // The first bullet always has one, so that even a small file has a CJK word.
      if (cjk && (n === 1 || next() < 0.1)) words.splice(1 + ((next() * (words.length - 1)) | 0), 0, CJK_WORDS[(next() * CJK_WORDS.length) | 0]!);
      line = `- ${words.join(' ')}.`;
    }
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  let text = lines.join('\n') + '\n';
  while (Buffer.byteLength(text) > utf8Bytes) text = text.slice(0, -2) + '\n';
  return text;
}

/** `count` message sizes from `min` to `max` bytes (uniform, fixed seed), and messages of those sizes. */
export function variedMessages(count: number, min: number, max: number, seed = 1000): Uint8Array[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => bytes(min + ((next() * (max - min + 1)) | 0), seed + 1 + i));
}

const CODE = `export async function load(path: string): Promise<Config> {
  const text = await readFile(path, 'utf8');
  const parsed = JSON.parse(text) as Partial<Config>;
  if (parsed.maxBytes !== undefined && parsed.maxBytes < 0) throw new RangeError(\`maxBytes is \${parsed.maxBytes}\`);
  return { maxBytes: 65_536, ...parsed };
}
`;

/**
 * Text of `utf8Bytes` UTF-8 bytes shaped like what a session's context holds: blocks of Markdown
 * instructions (a CJK word in one line of ten), notes where one line in three mixes CJK words and an
 * emoji into English, and TypeScript.
 */
export function contextText(utf8Bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < utf8Bytes; i++) {
    const block = [markdownInstructions(3000, 31 + i), linesWithCjkAndEmoji(1500, 23 + i), CODE][i % 3]!;
    parts.push(block);
    size += Buffer.byteLength(block) + 1;
  }
  let text = parts.join('\n');
  while (Buffer.byteLength(text) > utf8Bytes) text = text.slice(0, Math.max(0, text.length - Math.ceil((Buffer.byteLength(text) - utf8Bytes) / 3)));
  return text;
}
