// expand_result's `grep` filter (ST-31 [U]): a regular expression the model supplies, run over
// logged tool output, and both may come from a prompt injection. JavaScript's RegExp backtracks
// (`^(a+)+$` over 40 characters takes hours), so the pattern runs on RE2 (re2js, a linear-time
// port of Go's regexp): time proportional to the program's cost per character × the text, never
// exponential. Everything a grep spends is bounded so that one call stays near a second whatever
// the pattern (issue 32 item 3; the model can repeat the call): the pattern's length before it is
// parsed, the size of its program before and after it is compiled, and the work of the search,
// counted with each instruction weighted by what re2js spends on it (grep-cost.ts). JavaScript
// spellings are translated first (named groups, `\u{…}`, `[^]`); what RE2 cannot run in linear
// time (backreferences, lookaround) is refused with the reason. A pattern JavaScript itself
// rejects is malformed and, as ST-31 says, leaves the text whole.

import { RE2JS } from 're2js';
import { programBound, programCost } from './grep-cost.js';

/**
 * Most work one grep may do, in units of about one instruction visited for one character on re2js's
 * slowest path (`npm run bench:grep` measures up to 57 ns per unit on Node 22): about a second.
 */
export const GREP_MAX_WORK = 2 ** 24;
/** Longest pattern, in UTF-16 code units, checked before it is parsed (parsing `\p{L}` costs about 0.15 ms a time). */
export const GREP_MAX_PATTERN = 2000;
/** Largest program, in instructions, bounded from the text before compiling and checked after. */
export const GREP_MAX_PROGRAM = 5000;
/** Work units a line costs besides its characters: re2js's setup of each search (about 0.1–0.3 µs). */
export const GREP_LINE_WORK = 32;

/** A compiled grep: `test` tells whether a line matches. */
export interface Grep {
  readonly pattern: string;
  /** RE2's program size. */
  readonly size: number;
  /** Work units per character searched (grep-cost.ts). */
  readonly perChar: number;
  /** Work units spent once, before the first match. */
  readonly setup: number;
  test(line: string): boolean;
}

/**
 * Finds a backreference (`\1`…`\9`, `\k<…>`) outside a character class: RE2 has none, and
 * re2js's translation would silently turn `\k<x>` into the text `k<x>`.
 */
function backreference(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (next === 'k' || (next >= '1' && next <= '9'))) return `\\${next}`;
      i++;
    } else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
  }
  return undefined;
}

/**
 * Compiles the `grep` argument: `undefined` when there is no filter (absent, empty, or not a valid
 * JavaScript regular expression: ST-31 leaves the text whole); throws an Error naming the pattern
 * and the reason when it is valid JavaScript that RE2 cannot run.
 */
export function compileGrep(value: unknown): Grep | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    // Only to tell malformed from unsupported: the pattern is parsed here, never run.
    void new RegExp(value);
  } catch {
    return undefined;
  }
  if (value.length > GREP_MAX_PATTERN) throw new Error(`expand_result: grep is a pattern of ${value.length} characters; the limit is ${GREP_MAX_PATTERN}`);
  const shown = JSON.stringify(value);
  const reference = backreference(value);
  if (reference !== undefined) throw new Error(`expand_result: grep ${shown} uses the backreference ${reference}; grep runs in linear time (RE2 syntax), which has no backreferences`);
  const translated = RE2JS.translateRegExp(value);
  const bound = programBound(translated);
  if (bound > GREP_MAX_PROGRAM) throw tooLarge(shown, `would compile to as many as ${bound} instructions (its repetitions expanded)`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(translated);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new Error(`expand_result: grep ${shown} cannot run in linear time (RE2 syntax; lookaround and backreferences are not supported): ${reason}`);
  }
  const cost = programCost(re);
  if (cost.size > GREP_MAX_PROGRAM) throw tooLarge(shown, `compiles to ${cost.size} instructions`);
  return { pattern: value, size: cost.size, perChar: cost.perChar, setup: cost.setup, test: (line) => re.test(line) };
}

function tooLarge(shown: string, what: string): Error {
  return new Error(`expand_result: grep ${shown} ${what}; the limit is ${GREP_MAX_PROGRAM}: use a simpler pattern`);
}

/**
 * The work of searching `lines` lines of `chars` characters in all with `grep`: its cost per
 * character over every character and each line's end, each line's setup, and its one-time setup.
 * @param grep the compiled grep
 * @param chars the characters searched (UTF-16 code units)
 * @param lines the lines searched
 * @returns the work, in GREP_MAX_WORK's units
 */
export function grepWork(grep: Grep, chars: number, lines: number): number {
  return grep.perChar * (chars + lines) + GREP_LINE_WORK * lines + grep.setup;
}

/** Throws, naming the numbers, when searching `lines` lines of `chars` characters with `grep` would exceed GREP_MAX_WORK. */
export function checkGrepWork(grep: Grep, chars: number, lines: number): void {
  const work = grepWork(grep, chars, lines);
  if (work > GREP_MAX_WORK) {
    throw new Error(
      `expand_result: grep ${JSON.stringify(grep.pattern)} costs ${grep.perChar} per character (${grep.size} instructions, character classes weighted by their ranges) and the text is ${chars} characters in ${lines} lines; ` +
        `${grep.perChar} × (${chars} + ${lines}) + ${GREP_LINE_WORK} × ${lines} + ${grep.setup} = ${work} is over the limit of ${GREP_MAX_WORK}: use a simpler pattern, or select lines first`,
    );
  }
}
