// expand_result's `grep` filter (ST-31 [U]): a regular expression the model supplies, run over
// logged tool output, and both may come from a prompt injection. JavaScript's RegExp backtracks
// (`^(a+)+$` over 40 characters takes hours), so the pattern runs on RE2 (re2js, a linear-time
// port of Go's regexp): time proportional to program size × text length, never exponential. That
// product is bounded too (GREP_MAX_WORK), so a large program over a large result is refused with
// the numbers instead of running for seconds. JavaScript spellings are translated first (named
// groups, `\u{…}`, `[^]`); what RE2 cannot run in linear time (backreferences, lookaround) is
// refused with the reason. A pattern JavaScript itself rejects is malformed and, as ST-31 says,
// leaves the text whole.

import { RE2JS } from 're2js';

/** Most work one grep may do: RE2 program size × characters searched (about a second in the worst case). */
export const GREP_MAX_WORK = 2 ** 27;

/** A compiled grep: `test` tells whether a line matches. */
export interface Grep {
  readonly pattern: string;
  /** RE2's program size, the factor on the text length. */
  readonly size: number;
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
  const shown = JSON.stringify(value);
  const reference = backreference(value);
  if (reference !== undefined) throw new Error(`expand_result: grep ${shown} uses the backreference ${reference}; grep runs in linear time (RE2 syntax), which has no backreferences`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(value));
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new Error(`expand_result: grep ${shown} cannot run in linear time (RE2 syntax; lookaround and backreferences are not supported): ${reason}`);
  }
  return { pattern: value, size: re.programSize(), test: (line) => re.test(line) };
}

/** Throws when searching `chars` characters with `grep` would exceed GREP_MAX_WORK. */
export function checkGrepWork(grep: Grep, chars: number): void {
  const work = grep.size * chars;
  if (work > GREP_MAX_WORK) {
    throw new Error(
      `expand_result: grep ${JSON.stringify(grep.pattern)} is a program of size ${grep.size} and the text is ${chars} characters; ${grep.size} × ${chars} = ${work} is over the limit of ${GREP_MAX_WORK}: use a simpler pattern, or select lines first`,
    );
  }
}
