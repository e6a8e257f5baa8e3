// A small tour of the engine on real files: `node lib/demo.js [file ...]` (default: this package's
// README.md). Each file is read through readBounded from a byte stream, exactly as a DSH plugin
// would read an instruction file. What the plugins give a model in a repository is the `dsh-context`
// command's job (`dsh-context inspect`, `rules`, `bench`); this tour shows the engine's functions alone.

import { createReadStream } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capCodePoints, codePointLength, compileGlobs, digestMany, readBounded, truncateUtf8 } from './engine/index.js';

const MAX_BYTES = 1 << 20;
const PREVIEW_CODE_POINTS = 60;
const PREVIEW_BYTES = 120;
/** Rule `paths:` globs of the kind auto-memory rules carry; the demo says which match each file. */
const RULE_GLOBS = ['**/*.md', 'src/**/*.ts', 'docs/**', '*.json', '**/README*'];

async function main(files: string[]): Promise<number> {
  const rules = compileGlobs(RULE_GLOBS);
  const texts: string[] = [];
  let failures = 0;
  for (const file of files) {
    const result = await readBounded(createReadStream(file), { maxBytes: MAX_BYTES });
    if (result.status !== 'ok') {
      const detail = result.status === 'unavailable' ? `: ${String((result.error as Error).message ?? result.error)}` : '';
      console.log(`${file}: ${result.status}${detail}`);
      failures += 1;
      continue;
    }
    texts.push(result.text);
    const firstLine = result.text.trim().split('\n')[0] ?? '';
    console.log(file);
    console.log(`  bytes          ${result.bytes} (UTF-8), ${codePointLength(result.text)} code points`);
    console.log(`  sha1           ${result.sha1}`);
    console.log(`  trimmed sha1   ${result.trimmedSha1}`);
    console.log(`  preview        ${JSON.stringify(capCodePoints(firstLine, PREVIEW_CODE_POINTS))} (first ${PREVIEW_CODE_POINTS} code points)`);
    const cut = truncateUtf8(result.text, PREVIEW_BYTES);
    console.log(`  first ${PREVIEW_BYTES} bytes ${cut.bytes} bytes kept, truncated: ${cut.truncated}`);
    const path = relative(process.cwd(), file);
    const matching = rules.which(path).map((i) => RULE_GLOBS[i]);
    console.log(`  rule globs     ${matching.length > 0 ? matching.join(', ') : 'none'} match ${JSON.stringify(path)}`);
  }
  if (texts.length > 0) {
    const digests = digestMany('sha256', texts);
    console.log(`sha256 of ${texts.length} file(s) in one batch call:`);
    for (const digest of digests) console.log(`  ${digest}`);
  }
  return failures === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
const files = args.length > 0 ? args : [fileURLToPath(new URL('../README.md', import.meta.url))];
process.exitCode = await main(files);
