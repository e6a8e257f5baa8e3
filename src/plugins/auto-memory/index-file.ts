// The MEMORY.md index as text (spec AM-17..AM-23): parse entry lines, and rewrite only the parts the
// plugin generated. Pure functions from text to text; every line that is not an entry, or not the
// entry being maintained, is kept byte for byte, and a CRLF index stays CRLF.

import type { DerivedEntry } from './memory-file.js';

/** The standard header (AM-17 [P]). */
export const INDEX_HEADER = '# Memory index\n\n';
/** Between a title link and its description (AM-18): an em dash with single spaces. */
export const DESCRIPTION_SEPARATOR = ' — ';

/** An index entry: a list item that starts with `[title](target)` (AM-20). */
export interface IndexEntry {
  /** Indentation, list marker and the space after it, as written. */
  readonly prefix: string;
  /** The text between the title brackets, as written (escapes kept). */
  readonly rawTitle: string;
  /** The destination as written, including `<…>` when used. */
  readonly rawTarget: string;
  /** The destination decoded (`<>` and backslash escapes removed). */
  readonly target: string;
  /** Everything after the closing `)`. */
  readonly rest: string;
}

const LIST_PREFIX = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?=\[)/;

/**
 * Parses one line (without its line ending) as an index entry, or returns `undefined`: the line
 * must begin with a list marker followed immediately by `[title](target)`; the title's brackets nest;
 * a `<…>` target may contain spaces, a bare one may not; task items never parse, because `[ ]` and
 * `[x]` are not followed by `(`.
 */
export function parseEntry(line: string): IndexEntry | undefined {
  const prefix = LIST_PREFIX.exec(line)?.[0];
  if (prefix === undefined) return undefined;
  const titleEnd = closingBracket(line, prefix.length);
  if (titleEnd < 0 || line[titleEnd + 1] !== '(') return undefined;
  const targetStart = titleEnd + 2;
  const targetEnd = line[targetStart] === '<' ? angleTargetEnd(line, targetStart) : bareTargetEnd(line, targetStart);
  if (targetEnd < 0) return undefined;
  const rawTarget = line.slice(targetStart, targetEnd);
  if (rawTarget === '' || rawTarget === '<>') return undefined;
  const target = unescape(rawTarget.startsWith('<') ? rawTarget.slice(1, -1) : rawTarget);
  return { prefix, rawTitle: line.slice(prefix.length + 1, titleEnd), rawTarget, target, rest: line.slice(targetEnd + 1) };
}

/** Index of the `]` matching the `[` at `open`, honouring nesting and backslash escapes; -1 if none. */
function closingBracket(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `)` after a `<…>` destination starting at `start`; -1 if malformed. */
function angleTargetEnd(line: string, start: number): number {
  for (let i = start + 1; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (c === '<') return -1;
    else if (c === '>') return line[i + 1] === ')' ? i + 1 : -1;
  }
  return -1;
}

/** Index of the `)` closing a bare destination (balanced parentheses, no whitespace); -1 if malformed. */
function bareTargetEnd(line: string, start: number): number {
  let depth = 0;
  for (let i = start; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') i++;
    else if (/\s/.test(c)) return -1;
    else if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return i;
  }
  return -1;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** A title as written in a link: brackets and backslashes escaped so the link parses back. */
export function escapeTitle(title: string): string {
  return title.replace(/[\\[\]]/g, '\\$&');
}

/** A destination as written (AM-18): `<…>` when it has whitespace or characters a bare one cannot hold. */
export function encodeTarget(target: string): string {
  return /[\s()<>\\]/.test(target) ? `<${target.replace(/[<>\\]/g, '\\$&')}>` : target;
}

/** The part after `)` a description generates: ` — <description>`, or nothing (AM-18 [R]). */
export function describe(description: string | undefined): string {
  return description === undefined ? '' : `${DESCRIPTION_SEPARATOR}${description}`;
}

/** The full entry line for a memory (AM-18), without a line ending. */
export function entryLine(target: string, entry: DerivedEntry): string {
  return `- [${escapeTitle(entry.title)}](${encodeTarget(target)})${describe(entry.description)}`;
}

/** The line ending an index uses: CRLF if its first line ends so, else LF (AM-23). */
export function lineEnding(text: string): '\r\n' | '\n' {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}

interface Piece {
  readonly line: string;
  readonly eol: string;
}

function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  for (const match of text.matchAll(/([^\n]*?)(\r?\n|$)/g)) {
    if (match[0] === '' && match.index === text.length) break;
    out.push({ line: match[1]!, eol: match[2]! });
  }
  return out;
}

function join(list: readonly Piece[]): string {
  return list.map((p) => p.line + p.eol).join('');
}

/** Appends `line` at the end of the index in its line-ending style, ending the last line first if needed. */
export function appendEntry(text: string, line: string): string {
  const eol = lineEnding(text);
  if (text === '') return line + eol;
  return (text.endsWith('\n') ? text : text + eol) + line + eol;
}

/** Removes every entry line whose target is exactly `target` (AM-19). */
export function removeEntries(text: string, target: string): string {
  return join(pieces(text).filter((p) => parseEntry(p.line)?.target !== target));
}

/** How `syncEntries` rewrites the entries of one file. */
export interface EntrySync {
  /** The target the entries have now. */
  readonly target: string;
  /** A new target (rename), or `undefined` to keep it. */
  readonly newTarget?: string;
  /** What the file derived before the change and derives after it. */
  readonly before: DerivedEntry;
  readonly after: DerivedEntry;
  /** A legacy title that also counts as generated (AM-22). */
  readonly legacyTitle?: string;
}

/**
 * Rewrites every entry of `sync.target` part by part (AM-19, AM-21, AM-22): the target when it
 * changes; the title only if it still equals the previously derived title (or the legacy title);
 * the description only if it still equals the previously derived description. Hand-edited parts
 * and every other line stay as they are.
 */
export function syncEntries(text: string, sync: EntrySync): string {
  const generatedTitles = [sync.before.title, ...(sync.legacyTitle !== undefined ? [sync.legacyTitle] : [])];
  return join(pieces(text).map((piece) => {
    const entry = parseEntry(piece.line);
    if (entry === undefined || entry.target !== sync.target) return piece;
    const titleGenerated = generatedTitles.some((t) => entry.rawTitle === escapeTitle(t) || entry.rawTitle === t);
    const title = titleGenerated ? escapeTitle(sync.after.title) : entry.rawTitle;
    const target = sync.newTarget !== undefined ? encodeTarget(sync.newTarget) : entry.rawTarget;
    const rest = entry.rest === describe(sync.before.description) ? describe(sync.after.description) : entry.rest;
    return { line: `${entry.prefix}[${title}](${target})${rest}`, eol: piece.eol };
  }));
}
