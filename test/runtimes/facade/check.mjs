// Prints, as JSON, what the bundled engine facade (lib/engine/index.js, the module path given as the
// first argument) answers for a fixed set of calls: digests one-shot, streamed (a pair split across
// chunks) and batched, UTF-8 lengths and cuts of short, long, one-byte and two-byte text, code points,
// a bounded read, globs. test/runtimes/facade.test.ts runs it in Node, Deno and Bun and compares.
const e = await import(globalThis.Deno?.args[0] ?? process.argv[2]);
const out = {
  sha1: e.sha1Hex('abc'), sha1Lone: e.sha1Hex('a\uD800b'), sha256: e.sha256Hex('héllo 世界 😀'),
  streamed: e.createDigest('sha1').update('a\uD83D').update('\uDE00b').digestHex(),
  many: e.digestMany('sha256', ['a', 'b']),
  utf8: [e.utf8Length('héllo'), e.utf8Length('x'.repeat(300) + '世'), e.utf8Length('é'.repeat(2000))],
  cut: e.truncateUtf8('aé世🌍b', 6), cps: e.codePointLength('a😀'),
  read: await e.readBounded(['  hello world  \n'], { maxBytes: 100 }),
  glob: e.compileGlobs(['**/*.rs', 'src/**']).matchAll(['a/b.rs', 'src/x', '.a/b.rs']),
};
console.log(JSON.stringify(out));
