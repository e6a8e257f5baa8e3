// npm run bench:grep: how long expand_result's grep runs at its work bound (issue 32 item 3), for
// patterns chosen to be re2js's worst cases, each over the text that keeps the most of its
// instructions busy: lines of matching characters with one `z` first (so a literal prefilter passes)
// and none where the pattern needs it. For each pattern the table gives the longest text the bound
// admits and how long the search of that text took (best of `--rounds`, default 3), beside the
// same for the bound before issue 32 (program size × characters ≤ 2^27). One unit of the bound should
// cost at most about 60 ns on any pattern, so that the bound's 2^24 units stay near a second.
// Options: --rounds N, --only <substring of a pattern>.

import { cpus, loadavg } from 'node:os';
import { checkGrepWork, compileGrep, grepWork, GREP_MAX_WORK, type Grep } from '#lib/plugins/slice-tape/grep.js';

/** The bound before issue 32: RE2 program size × characters searched. */
const OLD_MAX_WORK = 2 ** 27;

/** Pattern, the characters its lines repeat, and the line length (each line starts with `z`). */
const CASES: readonly (readonly [string, string, number])[] = [
  ['[a-z]{1000}z', 'abcdefghijklmnopqrstuvwxy', 2000],
  ['\\p{L}{1000}z', 'abcdefghijklmnopqrstuvwxy', 2000],
  ['[\\p{L}\\p{N}\\p{P}\\p{S}]{1000}z', 'abcdefghijklmnopqrstuvwxy', 2000],
  ['\\p{L}{1000}z', '漢字中文日本語', 2000],
  ['[ǄǅǆK]{1000}z', '\u01c4\u01c5\u01c6', 2000],
  ['[a-z]{1000}[a-z]{1000}z', 'abcdefghijklmnopqrstuvwxy', 4000],
  ['(?:a?){1000}a{1000}z', 'a', 3000],
  ['(?:[a-c]?){1000}[a-c]{1000}z', 'abc', 3000],
  ['(?:a|aa|aaa){300}z', 'a', 1000],
  ['(?:(a)|(b)|(c)){300}z', 'abc', 1000],
  ['(a|b)*a(a|b){12}z', 'abbabaababbbaab', 2000],
  ['\\w+\\s+\\w+z', 'abc def ', 200],
  ['error|warn', 'abcdefghijklmnopqrstuvwxy', 80],
  ['\\p{L}{10}z', 'abcdefghijklmnopqrstuvwxy', 20],
  ['x|y', '', 0],
];

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 3) || 3;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

/** Lines of `lineLength` characters (a `z`, then `alphabet` repeated) adding up to at most `chars` characters with their ends. */
function linesOf(alphabet: string, lineLength: number, fits: (chars: number, lines: number) => boolean): string[] {
  const letters = [...alphabet];
  const lines: string[] = [];
  let chars = 0;
  for (let n = 0; ; n++) {
    let line = lineLength === 0 ? '' : 'z';
    for (let i = 1; i < lineLength; i++) line += letters[(i + n) % letters.length];
    if (!fits(chars + line.length, lines.length + 1)) return lines;
    lines.push(line);
    chars += line.length;
  }
}

/** Best time of `rounds` searches of `lines`, in milliseconds. */
function time(grep: Grep, lines: readonly string[]): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const fresh = compileGrep(grep.pattern)!; // a fresh DFA each round, as each expand_result call has
    const start = performance.now();
    let kept = 0;
    for (const line of lines) if (fresh.test(line)) kept++;
    best = Math.min(best, performance.now() - start);
    if (kept < 0) throw new Error('unreachable');
  }
  return best;
}

const fmt = (n: number): string => n.toLocaleString('en-US');
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpus()[0]?.model ?? 'unknown CPU'} · ${cpus().length} cores · Node ${process.version} · load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`best of ${rounds}; the bound now: ${fmt(GREP_MAX_WORK)} units; before issue 32: program size × characters ≤ ${fmt(OLD_MAX_WORK)}\n`);
console.log('| pattern | lines of | size | units per character | now: characters | now: ms | ns per unit | before: characters | before: ms |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
let worst = 0;
for (const [pattern, alphabet, lineLength] of CASES) {
  if (only !== undefined && !pattern.includes(only)) continue;
  const grep = compileGrep(pattern)!;
  const now = linesOf(alphabet, lineLength, (chars, lines) => grepWork(grep, chars, lines) <= GREP_MAX_WORK);
  const chars = now.reduce((n, l) => n + l.length, 0);
  checkGrepWork(grep, chars, now.length);
  const before = linesOf(alphabet, lineLength, (c, lines) => grep.size * c <= OLD_MAX_WORK && lines <= 2_000_000);
  const beforeChars = before.reduce((n, l) => n + l.length, 0);
  const msNow = time(grep, now);
  const msBefore = before.length === now.length ? msNow : time(grep, before);
  const perUnit = (msNow * 1e6) / grepWork(grep, chars, now.length);
  worst = Math.max(worst, perUnit);
  const shape = lineLength === 0 ? `${fmt(now.length)} empty lines (before: ${fmt(before.length)})` : `${lineLength} × ${JSON.stringify(alphabet.slice(0, 6))}`;
  console.log(`| \`${pattern.replace(/\|/g, '\\|')}\` | ${shape.replace(/\|/g, '\\|')} | ${grep.size} | ${grep.perChar} | ${fmt(chars)} | ${msNow.toFixed(0)} | ${perUnit.toFixed(1)} | ${fmt(beforeChars)} | ${msBefore.toFixed(0)} |`);
}
console.log(`\nslowest unit: ${worst.toFixed(1)} ns, so the bound is ${((worst * GREP_MAX_WORK) / 1e6).toFixed(0)} ms at worst on this machine now`);
