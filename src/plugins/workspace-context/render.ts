// Model-visible text (spec WC-17..WC-28, WC-44): the exact templates and the byte budget. Pure: the
// caller passes display paths and file text and gets the message text back with which inputs it
// represents. Bytes are counted and text is cut by the WASM engine.

import { fitsUtf8, truncateUtf8, utf8Length } from '../../engine/index.js';
import { escapeReminder, frameReminder } from '../../host/index.js';

/** WC-17: the baseline intro. */
export const INTRO =
  'The following workspace instructions may be relevant to your work. Use them as guidance when applicable. More specific instructions take precedence over broader ones. They do not override system, developer, or direct user instructions.';
/** WC-25 step 4: the intro when the budget forced files out or a cut. */
export const COMPACT_INTRO = 'Workspace instructions were omitted or truncated to fit the configured byte budget.';
/** WC-44: what a baseline that supersedes a visible one says first. */
export const REPLACEMENT_PREFIX = 'This complete workspace instruction baseline replaces all earlier workspace instruction baselines.';
/** WC-44: a superseding baseline with no file left. */
export const EMPTY_REPLACEMENT = `${REPLACEMENT_PREFIX} No workspace instructions are currently active.`;

/** How one input renders: a baseline file, or a dynamic transition (WC-19..WC-21). */
export type SectionKind = 'baseline' | 'set' | 'replace' | 'remove';

/** How bytes are counted and text is cut; the engine's by default (benches swap in `Buffer`'s). */
export interface ByteBudget {
  utf8Length(text: string): number;
  /**
   * Whether `text` is at most `maxBytes` UTF-8 bytes: `utf8Length(text) <= maxBytes`. The question
   * every fit test asks; the engine answers most of them from the string's length without counting.
   */
  fitsUtf8(text: string, maxBytes: number): boolean;
  /** The longest prefix within `maxBytes` UTF-8 bytes that does not split a code point, and its size. */
  truncateUtf8(text: string, maxBytes: number): { readonly text: string; readonly bytes: number };
}

/** The engine's answers: what renderBlock uses unless a caller passes another budget. */
export const engineBudget: ByteBudget = { utf8Length, fitsUtf8, truncateUtf8 };

/** One input of a message block. */
export interface RenderItem {
  readonly kind: SectionKind;
  /** Display path (WC-18). */
  readonly path: string;
  /** The display directory a `set` section names: `.`, `user-global`, or the root-relative directory. */
  readonly directory: string;
  /** The file text exactly as read (empty for `remove`). */
  readonly content: string;
}

/** A rendered block and what of its input it represents (WC-27). */
export interface RenderedBlock {
  readonly text: string;
  /** Per input, whether it counts as rendered: whole, or cut with at least one byte (or empty to begin with). */
  readonly represented: readonly boolean[];
  /** Display paths of inputs left out whole (the budget notice names them). */
  readonly omitted: readonly string[];
  /** The input that was cut, with its content's UTF-8 size before and after. */
  readonly truncated?: { readonly path: string; readonly from: number; readonly to: number };
}

/** The section of one input with `content` in place of the file text. */
export function sectionText(item: RenderItem, content: string): string {
  switch (item.kind) {
    case 'baseline':
      return `Instructions from: ${item.path}\n\n${content}`;
    case 'set':
      return `Additional instructions from: ${item.path}\n\nThese instructions apply to work under \`${item.directory}\`. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.\n\n${content}`;
    case 'replace':
      return `Updated instructions from: ${item.path}\n\nThis file changed after it was loaded. Use the following content instead of the previously loaded instructions from this file.\n\n${content}`;
    case 'remove':
      return `Instructions removed: ${item.path}\n\nThe previously loaded instructions from this file no longer apply.`;
  }
}

interface Cut {
  readonly path: string;
  readonly from: number;
  readonly to: number;
}

/** WC-26: the budget notice, or '' when nothing was omitted or cut. */
export function budgetNotice(maxBytes: number, omitted: readonly string[], cut: Cut | undefined): string {
  const parts: string[] = [];
  if (omitted.length > 0) parts.push(`omitted ${omitted.join(', ')}`);
  if (cut !== undefined) parts.push(`truncated ${cut.path} from ${cut.from} to ${cut.to} bytes`);
  return parts.length === 0 ? '' : `Workspace instruction budget ${maxBytes} bytes: ${parts.join('; ')}`;
}

/** Frames notice, intro and sections; escaping happens here, before anyone counts bytes. */
function framed(notice: string, intro: string, sections: readonly string[]): string {
  return frameReminder(escapeReminder([notice, intro, ...sections].filter((block) => block.length > 0).join('\n\n')));
}

/**
 * Renders one framed block of `items` (broadest first) under `maxBytes` UTF-8 bytes, by the WC-25
 * algorithm: everything; else drop files from the broad end until the rest fits; else keep only the
 * most specific file and cut its content at the largest code-point boundary that fits (binary
 * search), with `intro` and then the compact intro; else the unframed notice with the file heading,
 * the notice alone, and finally the notice cut to `maxBytes`. `items` must not be empty. `budget`
 * counts and cuts; the engine does unless a caller (a bench) passes another.
 */
export function renderBlock(items: readonly RenderItem[], intro: string, maxBytes: number, budget: ByteBudget = engineBudget): RenderedBlock {
  const { utf8Length, fitsUtf8, truncateUtf8 } = budget;
  const fits = (text: string): boolean => fitsUtf8(text, maxBytes);
  const paths = items.map((item) => item.path);
  const full = framed('', intro, items.map((item) => sectionText(item, item.content)));
  if (fits(full)) return { text: full, represented: items.map(() => true), omitted: [] };
  for (let start = 1; start < items.length; start++) {
    const rest = items.slice(start);
    const text = framed(budgetNotice(maxBytes, paths.slice(0, start), undefined), intro, rest.map((item) => sectionText(item, item.content)));
    if (fits(text)) return { text, represented: items.map((_, i) => i >= start), omitted: paths.slice(0, start) };
  }
  const last = items[items.length - 1]!;
  const omitted = paths.slice(0, -1);
  const from = utf8Length(last.content);
  const only = (kept: boolean): boolean[] => items.map((_, i) => i === items.length - 1 && kept);
  for (const candidateIntro of [intro, COMPACT_INTRO]) {
    const attempt = (bytes: number): string => {
      const cut = truncateUtf8(last.content, bytes);
      return framed(budgetNotice(maxBytes, omitted, { path: last.path, from, to: cut.bytes }), candidateIntro, [sectionText(last, cut.text)]);
    };
    // The rendered size grows with the kept bytes, so the largest fitting cut is found by bisection.
    let low = 0;
    let high = from;
    let best: { bytes: number; text: string } | undefined;
    while (low <= high) {
      const mid = Math.floor((low + high) / 2);
      const text = attempt(mid);
      if (fits(text)) {
        best = { bytes: mid, text };
        low = mid + 1;
      } else high = mid - 1;
    }
    if (best !== undefined) {
      const to = truncateUtf8(last.content, best.bytes).bytes;
      return { text: best.text, represented: only(to > 0 || from === 0), omitted, truncated: { path: last.path, from, to } };
    }
  }
  // WC-25 step 5: even an empty cut does not fit in a frame; DSH falls back to unframed text.
  const truncated = { path: last.path, from, to: 0 };
  const notice = escapeReminder(budgetNotice(maxBytes, omitted, truncated));
  const withHeading = escapeReminder(`${notice}\n\n${sectionText(last, '')}`);
  if (fits(withHeading)) return { text: withHeading, represented: only(from === 0), omitted, truncated };
  return { text: fits(notice) ? notice : truncateUtf8(notice, maxBytes).text, represented: only(false), omitted, truncated };
}

/**
 * WC-44: the block of a superseding baseline that has no file left, framed when it fits; otherwise
 * the text alone, cut to the budget (the budget is never exceeded).
 */
export function renderEmptyReplacement(maxBytes: number): string {
  const text = frameReminder(EMPTY_REPLACEMENT);
  return fitsUtf8(text, maxBytes) ? text : truncateUtf8(EMPTY_REPLACEMENT, maxBytes).text;
}

/** The intro of a baseline block: the normal one, prefixed when it supersedes a visible baseline. */
export function baselineIntro(replacing: boolean): string {
  return replacing ? `${REPLACEMENT_PREFIX} ${INTRO}` : INTRO;
}
