// The glob oracle: picomatch 4 with default options or `dot: true`, applied to the path as
// our engine normalizes it (`\` → `/`, leading `./` removed), plus fast-check arbitraries built
// from the syntax the engine supports.

import fc from 'fast-check';
import picomatch from 'picomatch';

/** The engine's path normalization. */
export function normalizePath(path: string): string {
  let p = path.replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

/** picomatch's answer for a path as our engine sees it. */
export function oracle(pattern: string, path: string, dot: boolean): boolean {
  return picomatch(pattern, dot ? { dot: true } : {})(normalizePath(path));
}

/** picomatch's regex source (before anchoring) and negation for a pattern. */
export function oracleSource(pattern: string, dot: boolean): { source: string; negated: boolean } {
  const options = dot ? { dot: true } : {};
  const source = picomatch.makeRe(pattern, options, true) as unknown as string;
  const state = (picomatch.makeRe(pattern, options, false, true) as unknown as { state?: { negated?: boolean } }).state;
  return { source, negated: state?.negated === true };
}

/** Pattern pieces: every supported construct, the characters around them, and their quirks. */
const PATTERN_PIECES = [
  'a', 'b', 'c', 'x', '1', '.', '/', '-', '_', 'é', '😀', ' ', '*', '**', '***', '?', '??', '{', '}', ',', '[', ']',
  '!', '^', '$', '@', '+', '~', '#', '{a,b}', '{,a}', '{a,{b,c}}', '{a..c}', '{1..3}', '{1..10}', '{c..a}', '[abc]',
  '[a-c]', '[!a]', '[^b]', '[]', '[]a]', '[/]', '[.]', '[-a]', '[a-]', '\\*', '\\?', '\\[', '\\]', '\\{', '\\}', '\\.',
  '\\/', '\\,', '\\!', './', '../', '/**/', '**/', '/**', '*/', '.*', '*.', '..', '{.,a}',
];

/** Path pieces: names, dots, slashes, dot segments and the characters patterns treat specially. */
const PATH_PIECES = [
  'a', 'b', 'c', 'x', '1', 'ab', 'abc', '.', '..', '/', '-', '_', 'é', '😀', '\uD83D', ' ', '.a', 'a.', '*', '?', '[', ']',
  '{', '}', ',', '!', '^', '$', '@', '+', '\\', './', '../', '\n',
];

const joined = (pieces: readonly string[], maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength }).map((parts) => parts.join(''));

/** Random patterns from the supported syntax (a few will be outside it and must be rejected). */
export const globPattern = (maxPieces = 8): fc.Arbitrary<string> => joined(PATTERN_PIECES, maxPieces);

/** Random paths, including the empty path and paths with `\` and `./`. */
export const globPath = (maxPieces = 8): fc.Arbitrary<string> =>
  fc.oneof(fc.constant(''), joined(PATH_PIECES, maxPieces));

/** Paths derived from a pattern, so that a good share of pairs match. */
export function pathsNear(pattern: string): string[] {
  return [
    pattern,
    pattern.replace(/[*?]/g, 'a'),
    pattern.replace(/[*?{}[\],!^\\]/g, ''),
    pattern.replace(/\*\*/g, 'a/b').replace(/[*?]/g, 'x'),
    pattern.replace(/\{([^{},]*),[^{}]*\}/g, '$1').replace(/\[!?\^?([^\]])[^\]]*\]/g, '$1'),
    `./${pattern}`,
    `${pattern}/`,
    `.${pattern}`,
  ];
}
