// Virtual `/memories/...` paths (spec AM-08, AM-24). Validation is purely lexical and runs before any
// disk access: a path that passes can only name something below the project memory dir, because
// no segment can climb (`..`), hide (`.x`), switch drive or stream (`:`), or smuggle a separator
// (`\`, NUL). Nor can it carry a control character or a line separator, which would let a name
// write a line of its own into MEMORY.md (an index entry is one line, injected into every later
// session), or a lone surrogate, which the file system would store as U+FFFD, so two different
// names would share one file. Encoded forms (`%2e%2e`) are never decoded, so they stay literal
// names. The on-disk half of AM-24 (symlinks, real path) is in disk.ts.

import { utf8Length } from '../../engine/index.js';

/** The virtual root every memory path starts with. */
export const VIRTUAL_ROOT = '/memories';
/** The index file name, at the top of the memory dir. */
export const INDEX_FILE = 'MEMORY.md';
/** Memory files end with this. */
export const MARKDOWN_SUFFIX = '.md';
/** Longest segment in UTF-8 bytes: the common file-name limit of Linux, macOS and Windows file systems. */
export const MAX_SEGMENT_BYTES = 255;

/** A validated virtual path: the root, or segments below it (joined with `/` in `relative`). */
export interface VirtualPath {
  /** Segments below `/memories`; empty for the root. */
  readonly segments: readonly string[];
  /** `segments.join('/')`; `''` for the root. */
  readonly relative: string;
  /** The canonical virtual form, e.g. `/memories/notes/x.md`. */
  readonly virtual: string;
}

/** Why a path was refused, with the message the model sees. */
export interface PathProblem {
  readonly code: 'INVALID_PATH' | 'NOT_MARKDOWN';
  readonly message: string;
}

const FORBIDDEN_CHARS: readonly [string, string][] = [['\\', 'a backslash'], ['\0', 'a NUL character'], [':', 'a colon']];

/** The virtual form of a relative path (`''` is the root). */
export function virtualPath(relative: string): string {
  return relative === '' ? VIRTUAL_ROOT : `${VIRTUAL_ROOT}/${relative}`;
}

/**
 * Parses and validates a virtual path (AM-24): it must be exactly `/memories` or start with
 * `/memories/`, and every segment after that must be non-empty, not `.` or `..`, not start with `.`,
 * contain no `\`, NUL or `:`, no control character (U+0000–U+001F, U+007F–U+009F), no line or
 * paragraph separator (U+2028, U+2029) and no lone surrogate, and be at most MAX_SEGMENT_BYTES UTF-8
 * bytes. Returns the parsed path or the problem (always `INVALID_PATH` here; the `.md` rule is
 * `requireMarkdown`).
 */
export function parseVirtualPath(input: unknown): VirtualPath | PathProblem {
  if (typeof input !== 'string') return invalid(`path must be a string starting with ${VIRTUAL_ROOT}, got ${input === undefined ? 'nothing' : typeof input}`);
  const shown = quote(input);
  if (input === VIRTUAL_ROOT) return { segments: [], relative: '', virtual: VIRTUAL_ROOT };
  if (!input.startsWith(`${VIRTUAL_ROOT}/`)) return invalid(`${shown} is outside ${VIRTUAL_ROOT}; every path must be ${VIRTUAL_ROOT} or start with ${VIRTUAL_ROOT}/`);
  const segments = input.slice(VIRTUAL_ROOT.length + 1).split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem !== undefined) return invalid(`${shown} is not allowed: ${problem}`);
  }
  const relative = segments.join('/');
  return { segments, relative, virtual: virtualPath(relative) };
}

function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'it has an empty segment (a doubled or trailing /)';
  if (segment === '.' || segment === '..') return `the segment ${quote(segment)} is a relative step`;
  if (segment.startsWith('.')) return `the segment ${quote(segment)} is hidden (starts with .)`;
  for (const [char, name] of FORBIDDEN_CHARS) if (segment.includes(char)) return `the segment ${quote(segment)} contains ${name}`;
  const unsafe = unsafeCharacter(segment);
  if (unsafe !== undefined) return `the segment ${quote(segment)} contains ${unsafe}`;
  const bytes = utf8Length(segment);
  if (bytes > MAX_SEGMENT_BYTES) return `a segment is ${bytes} bytes; the limit is ${MAX_SEGMENT_BYTES}`;
  return undefined;
}

/** `text` as a JSON string literal with U+2028 and U+2029 escaped too, so a message stays one line. */
export function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The first character of `text` no memory path may hold, described for the message: a C0 or C1
 * control character or DEL, a line or paragraph separator, or a lone surrogate.
 */
export function unsafeCharacter(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `the control character ${hex(code)}`;
    if (code === 0x2028 || code === 0x2029) return `the ${code === 0x2028 ? 'line' : 'paragraph'} separator ${hex(code)}`;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      i++;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) return `the lone surrogate ${hex(code)}`;
  }
  return undefined;
}

/** A format character: invisible (U+200B, U+FEFF, U+2060…) or reordering text (U+202A–U+202E, U+2066–U+2069). One class, linear. */
const FORMAT_CHARACTER = /\p{Cf}/u;

/**
 * Why `path` may not be given to a new memory (create, rename's destination), or `undefined`. A new
 * name must be in Unicode normalization form C, so that `café` cannot be created twice (composed and
 * decomposed, which Linux stores as two files that look the same, and macOS as one), and must hold no
 * format character, so that a name cannot look like another (a zero-width space) or show its
 * characters in another order (U+202E). Existing names are not checked: a file that has such a name
 * can still be read, changed, renamed away and deleted.
 * @param path a parsed virtual path
 * @returns the `INVALID_PATH` problem, or `undefined`
 */
export function newNameProblem(path: VirtualPath): PathProblem | undefined {
  for (const segment of path.segments) {
    const normal = segment.normalize('NFC');
    if (normal !== segment) return invalid(`${quote(path.virtual)} is not allowed: the segment ${quote(segment)} is not in Unicode normalization form C; write it as ${quote(normal)}, which looks the same`);
    const format = FORMAT_CHARACTER.exec(segment);
    if (format !== null) return invalid(`${quote(path.virtual)} is not allowed: the segment ${quote(segment)} contains the invisible format character ${hex(format[0].codePointAt(0)!)}, which hides or reorders what a name shows`);
  }
  return undefined;
}

/** Whether parsing failed. */
export function isPathProblem(value: VirtualPath | PathProblem): value is PathProblem {
  return 'code' in value;
}

/** `NOT_MARKDOWN` unless the path names a `.md` file (the root never does). */
export function requireMarkdown(path: VirtualPath): PathProblem | undefined {
  if (path.relative !== '' && path.relative.endsWith(MARKDOWN_SUFFIX)) return undefined;
  return { code: 'NOT_MARKDOWN', message: `${path.virtual} is not a .md file; the memory tool reads and writes only .md files` };
}

/** Whether the path is the top-level index `/memories/MEMORY.md`. */
export function isIndexPath(path: VirtualPath): boolean {
  return path.relative === INDEX_FILE;
}

/**
 * Whether the path may name the index on a case-insensitive file system (macOS, Windows), where
 * `/memories/memory.md` is the same file as `/memories/MEMORY.md`. Rename refuses these too, so the
 * index cannot be moved away under another spelling.
 */
export function mayBeIndexPath(path: VirtualPath): boolean {
  return path.relative.toLowerCase() === INDEX_FILE.toLowerCase();
}

function invalid(message: string): PathProblem {
  return { code: 'INVALID_PATH', message };
}
