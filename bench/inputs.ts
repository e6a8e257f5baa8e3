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
