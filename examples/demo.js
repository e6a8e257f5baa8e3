// What every runtime's example runs: each primitive of the engine on a few inputs chosen to show its
// edge cases (FIPS 180 messages, multibyte text, lone surrogates, glob corner cases). The answers
// are computed here and printed by the runtime's example; test/runtimes checks them against
// references (published SHA vectors, node:crypto, picomatch).

/** The FIPS 180 example messages, plus text that exercises the UTF-16 → UTF-8 path. */
export const DIGEST_INPUTS = [
  '',
  'abc',
  'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
  'a'.repeat(1_000_000),
  'héllo, 世界 🌍',
  'lone \uD800 surrogate',
];

/** Text mixing 1-, 2-, 3- and 4-byte UTF-8 characters: "a" "é" "世" "🌍" (a surrogate pair) "b". */
export const CUT_TEXT = 'aé世🌍b';
/** The same with a lone high surrogate, which UTF-8 encodes as U+FFFD (3 bytes). */
export const LONE_TEXT = 'x\uD83Dy';

export const GLOB_PATTERNS = [
  '**/*.ts',
  'src/*.js',
  '*.{md,txt}',
  'docs/**',
  '**/.env',
  '!**/*.test.ts',
  'src/[a-c]*.ts',
  '?.md',
  'lib/**/index.{js,d.ts}',
  '{a..c}/*.ts',
];

export const GLOB_PATHS = [
  'src/a.ts',
  'src/deep/b.ts',
  'src/a.js',
  'src/x.test.ts',
  'README.md',
  'notes.txt',
  'a.md',
  'docs/guide/intro.md',
  '.env',
  'config/.env',
  'b/y.ts',
  'lib/index.js',
  'lib/x/index.d.ts',
  './src/c.ts',
  '.hidden/z.ts',
];

/** Text for the DeepSeek V3 tokenizer: code, Markdown, CJK, emoji, combining marks, spaces, a lone surrogate, an added token. */
export const TOKEN_TEXTS = [
  'Hello, my dog is cute',
  'function add(a, b) {\n  return a + b; // 12345\n}\n',
  '# 标题\n\n中文字符串，日本語のテキスト。한국어',
  'emoji 😀👍🏽👨‍👩‍👧 and e\u0301 combining',
  '   spaces\t\ttabs\r\n\r\nlines   ',
  'lone \uD800 surrogate',
  '<｜User｜>hi<｜Assistant｜>',
];

/** Patterns the ABI refuses (extglobs, an empty pattern): the example shows the status it reports. */
export const REFUSED_PATTERNS = ['@(a|b)', ''];

function label(text) {
  return text.length > 80 ? `${JSON.stringify(text.slice(0, 10))} × ${text.length / 10}` : JSON.stringify(text);
}

/**
 * Runs every primitive and returns plain data (JSON-serializable), one array per primitive.
 * @param {import('./engine.js').WasmEngine} engine
 */
export function runDemo(engine) {
  const encoder = new TextEncoder();
  const digests = DIGEST_INPUTS.map((text) => ({
    input: label(text),
    length: text.length,
    sha1Bytes: engine.sha1(encoder.encode(text)),
    sha256Bytes: engine.sha256(encoder.encode(text)),
    sha1String: engine.sha1OfString(text),
    sha256String: engine.sha256OfString(text),
    sha256Streamed: Array.from(engine.sha256Digest(encoder.encode(text)), (b) => b.toString(16).padStart(2, '0')).join(''),
  }));
  const cuts = [];
  for (const text of [CUT_TEXT, LONE_TEXT]) {
    for (let maxBytes = 0; maxBytes <= engine.utf8Length(text); maxBytes++) {
      const cut = engine.cutUtf8(text, maxBytes);
      cuts.push({ text, maxBytes, prefix: cut.text, bytes: cut.bytes });
    }
  }
  const caps = [];
  for (const text of [CUT_TEXT, LONE_TEXT]) {
    const count = engine.codePoints(text);
    for (let max = 0; max <= count; max++) caps.push({ text, count, max, prefix: engine.capCodePoints(text, max) });
  }
  const globs = [];
  for (const dot of [false, true]) {
    for (const pattern of GLOB_PATTERNS) {
      const program = engine.compileGlob(pattern, { dot });
      for (const path of GLOB_PATHS) globs.push({ pattern, dot, path, match: engine.matchGlob(program, path) });
    }
  }
  const refused = REFUSED_PATTERNS.map((pattern) => {
    try {
      engine.compileGlob(pattern);
      return { pattern, error: null };
    } catch (error) {
      return { pattern, error: String(error instanceof Error ? error.message : error) };
    }
  });
  // The tokenizer only when the runtime's example loaded its table.
  const tokens = engine.tok === undefined ? [] : TOKEN_TEXTS.map((text) => {
    const ids = engine.encodeTokens(text);
    return { text, count: engine.countTokens(text), ids, decoded: engine.decodeTokens(ids) };
  });
  return { digests, cuts, caps, globs, refused, tokens };
}

/** The demo's results as lines a person reads (the examples print these without --json). */
export function formatDemo(results) {
  const lines = [];
  for (const d of results.digests) {
    lines.push(`sha1(${d.input})   = ${d.sha1Bytes}`, `sha256(${d.input}) = ${d.sha256Bytes}`);
    if (d.sha1String !== d.sha1Bytes || d.sha256String !== d.sha256Bytes || d.sha256Streamed !== d.sha256Bytes) lines.push('  (!) the UTF-16 or streaming path disagrees');
  }
  for (const c of results.cuts) lines.push(`cut ${JSON.stringify(c.text)} to ${c.maxBytes} B → ${JSON.stringify(c.prefix)} (${c.bytes} B)`);
  for (const c of results.caps) lines.push(`first ${c.max} of ${c.count} code points of ${JSON.stringify(c.text)} → ${JSON.stringify(c.prefix)}`);
  for (const g of results.globs) if (g.match) lines.push(`glob ${g.pattern}${g.dot ? ' (dot)' : ''} matches ${g.path}`);
  for (const r of results.refused) lines.push(`glob ${JSON.stringify(r.pattern)} refused: ${r.error}`);
  for (const t of results.tokens) lines.push(`${t.count} DeepSeek V3 tokens in ${JSON.stringify(t.text)}: ${t.ids.join(' ')}`);
  return lines.join('\n');
}
