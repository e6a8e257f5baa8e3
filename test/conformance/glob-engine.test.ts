// The engine against picomatch's own test expectations: every row whose pattern the
// engine accepts must agree; a row may only be rejected for syntax outside X-07's list, and the
// rejected set is pinned so a change in what we accept shows up here.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileGlobs } from '../../src/engine/index.js';

interface Row {
  readonly pattern: string;
  readonly path: string;
  readonly dot?: boolean;
  readonly expected: boolean;
  readonly source: string;
}

const rows = JSON.parse(readFileSync(new URL('./picomatch-cases.json', import.meta.url), 'utf8')) as Row[];

/** The reasons a pattern may be outside the supported syntax (from the engine's error messages). */
const OUT_OF_SCOPE = [
  'extglobs are not supported',
  'extglobs and regex groups are not supported',
  'quoted text is not supported',
  'a backslash may only escape a glob character',
  'is a regex quantifier in picomatch',
];

describe("picomatch's test suite, as data", () => {
  const accepted: Row[] = [];
  const rejected = new Map<string, number>();
  for (const row of rows) {
    try {
      compileGlobs([row.pattern], { dot: row.dot === true });
      accepted.push(row);
    } catch (error) {
      const reason = OUT_OF_SCOPE.find((r) => (error as Error).message.includes(r)) ?? (error as Error).message;
      rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
    }
  }

  it('X-07 zero disagreements on every accepted row', () => {
    const failures: string[] = [];
    for (const row of accepted) {
      const got = compileGlobs([row.pattern], { dot: row.dot === true }).test(row.path);
      if (got !== row.expected) failures.push(`${JSON.stringify(row.pattern)} ${JSON.stringify(row.path)} dot=${row.dot === true}: got ${got}`);
    }
    expect(failures).toEqual([]);
    expect(accepted.length).toBe(4243);
  });

  it('X-07 rows are rejected only for syntax outside the supported list (extglobs, groups, quotes, regex escapes)', () => {
    expect(Object.fromEntries(rejected)).toEqual({
      'extglobs are not supported': 764,
      'extglobs and regex groups are not supported': 339,
      'quoted text is not supported': 73,
      'a backslash may only escape a glob character': 135,
      'is a regex quantifier in picomatch': 47,
    });
  });

  it('X-07 the matchAll of all accepted rows of one pattern agrees in one call', () => {
    const byPattern = new Map<string, Row[]>();
    for (const row of accepted) {
      const key = `${row.dot === true ? 1 : 0}${row.pattern}`;
      byPattern.set(key, [...(byPattern.get(key) ?? []), row]);
    }
    let checked = 0;
    for (const [key, group] of byPattern) {
      const got = compileGlobs([key.slice(1)], { dot: key[0] === '1' }).matchAll(group.map((r) => r.path));
      expect(got.map((hits) => hits.length > 0)).toEqual(group.map((r) => r.expected));
      checked += group.length;
    }
    expect(checked).toBe(accepted.length);
  });
});
