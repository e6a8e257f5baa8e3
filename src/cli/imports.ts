// Claude Code's `@path` imports in an instruction file, found by Claude Code's rule: an `@` at the
// start of a line or after whitespace, followed by the path (a run of characters other than
// whitespace and `\`, where `\ ` stands for a space), anywhere in the text (`See @AGENTS.md` counts)
// but not inside a fenced code block (``` or ~~~) or an inline code span. Claude Code reads the file
// an import names into its context (relative paths from the importing file's folder, `~/` from the
// home); DSH sends the text as written and reads nothing, which is what inspect tells the user.
//
// One pass over the text with single-character tests (no regular expression over it): linear in the
// text, as anything over untrusted text must be.

import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Most imports listed per file; the scan stops after one more. */
export const MAX_IMPORTS = 5;

/** One import of a file. */
export interface AtImport {
  /** As written, with its `@` (an escaped space stays `\ `). */
  readonly token: string;
  /** The path it names, escapes undone. */
  readonly path: string;
  /** Whether a regular file is there (Claude Code imports only those). */
  readonly exists: boolean;
}

const SPACE = 0x20;
const TAB = 0x09;
const BACKSLASH = 0x5c;
const AT = 0x40;
const BACKTICK = 0x60;
const TILDE = 0x7e;

const isWhitespace = (c: number): boolean => c === SPACE || c === TAB || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

/**
 * The `@path` tokens of `text` by Claude Code's rule (see the file comment), at most MAX_IMPORTS + 1.
 * @param text - an instruction file's text.
 * @returns the tokens as written and the paths they name.
 */
export function scanImports(text: string): { token: string; path: string }[] {
  const found: { token: string; path: string }[] = [];
  if (!text.includes('@')) return found;
  let fence: { char: number; length: number } | undefined;
  for (const line of text.split('\n')) {
    const opening = fenceRun(line);
    if (fence !== undefined) {
      if (opening !== undefined && opening.char === fence.char && opening.length >= fence.length && opening.rest.trim() === '') fence = undefined;
      continue;
    }
    if (opening !== undefined && (opening.char === TILDE || !opening.rest.includes('`'))) {
      fence = { char: opening.char, length: opening.length };
      continue;
    }
    scanLine(line, found);
    if (found.length > MAX_IMPORTS) break;
  }
  return found;
}

/** A fence (three or more backticks or tildes after at most three spaces), and what follows it. */
function fenceRun(line: string): { char: number; length: number; rest: string } | undefined {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === SPACE) i++;
  const char = line.charCodeAt(i);
  if (char !== BACKTICK && char !== TILDE) return undefined;
  let end = i;
  while (line.charCodeAt(end) === char) end++;
  return end - i >= 3 ? { char, length: end - i, rest: line.slice(end) } : undefined;
}

/** Adds the imports of one line outside a fence, skipping inline code spans. */
function scanLine(line: string, found: { token: string; path: string }[]): void {
  let i = 0;
  while (i < line.length && found.length <= MAX_IMPORTS) {
    const c = line.charCodeAt(i);
    if (c === BACKTICK) {
      // A run of N backticks opens a span that the next run of exactly N closes; without one it is text.
      let end = i;
      while (line.charCodeAt(end) === BACKTICK) end++;
      const close = closingRun(line, end, end - i);
      i = close < 0 ? end : close;
      continue;
    }
    if (c === AT && (i === 0 || isWhitespace(line.charCodeAt(i - 1)))) {
      let j = i + 1;
      let path = '';
      while (j < line.length) {
        const d = line.charCodeAt(j);
        if (d === BACKSLASH && line.charCodeAt(j + 1) === SPACE) {
          path += ' ';
          j += 2;
        } else if (d === BACKSLASH || isWhitespace(d)) break;
        else {
          path += line[j];
          j++;
        }
      }
      if (path !== '') found.push({ token: line.slice(i, j), path });
      i = Math.max(j, i + 1);
      continue;
    }
    i++;
  }
}

/** Where a run of exactly `length` backticks after `from` ends, or -1. */
function closingRun(line: string, from: number, length: number): number {
  let i = from;
  while (i < line.length) {
    if (line.charCodeAt(i) !== BACKTICK) {
      i++;
      continue;
    }
    let end = i;
    while (line.charCodeAt(end) === BACKTICK) end++;
    if (end - i === length) return end;
    i = end;
  }
  return -1;
}

/**
 * The imports of a file with whether each names a regular file, as Claude Code resolves them.
 * @param text - the file's text.
 * @param file - the file's absolute path.
 * @param homedir - the OS home (`~/`).
 * @returns at most MAX_IMPORTS + 1 imports.
 */
export function atImports(text: string | undefined, file: string, homedir: string): AtImport[] {
  if (text === undefined) return [];
  return scanImports(text).map(({ token, path }) => {
    const target = path === '~' || path.startsWith('~/') ? join(homedir, path.slice(1)) : isAbsolute(path) ? path : resolve(dirname(file), path);
    let exists = false;
    try {
      exists = statSync(target).isFile();
    } catch {
      // Absent, unreadable or not a path at all (an @mention): Claude Code imports nothing.
    }
    return { token, path, exists };
  });
}
