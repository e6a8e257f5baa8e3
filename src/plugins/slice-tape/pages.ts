// Pages of a recalled result (issue 30): DSH spills any tool result over SPILL_INLINE_BYTES, so an
// `expand_result` answer bigger than that would reach the model as a preview, and the recall would
// need more steps. A result over one page is served in pages of at most PAGE_BYTES, cut after a line
// where one ends within the page (else at a character boundary), whose texts joined are the original
// byte for byte; every locator of such a result names each page, so a model asks for all of them in
// one step.

import { truncateUtf8, utf8Length } from '../../engine/index.js';
import { SESSION_FORMAT_VERSION, SPILL_INLINE_BYTES } from '../../host/names.js';

/** Bytes of a page's text: DSH's spill limit, less room for the page's header line. */
export const PAGE_BYTES = SPILL_INLINE_BYTES - 2_000;

/** One page: its UTF-16 range in the text and its UTF-8 byte range. */
export interface Page {
  readonly start: number;
  readonly end: number;
  readonly fromByte: number;
  readonly toByte: number;
}

/**
 * The pages of `text`: one page when it fits PAGE_BYTES, else consecutive slices of at most
 * PAGE_BYTES bytes, each ending after a newline when one falls inside it.
 * @param text - the result's text.
 * @param pageBytes - the page budget (PAGE_BYTES unless a test says otherwise).
 * @returns the pages, in order; their slices joined are `text`.
 */
export function paginate(text: string, pageBytes = PAGE_BYTES): Page[] {
  const pages: Page[] = [];
  let at = 0;
  let bytes = 0;
  for (;;) {
    const rest = text.slice(at);
    const cut = truncateUtf8(rest, pageBytes);
    if (!cut.truncated) {
      pages.push({ start: at, end: text.length, fromByte: bytes, toByte: bytes + cut.bytes });
      return pages;
    }
    const newline = cut.text.lastIndexOf('\n');
    const piece = newline >= 0 ? cut.text.slice(0, newline + 1) : cut.text;
    const size = newline >= 0 ? utf8Length(piece) : cut.bytes;
    pages.push({ start: at, end: at + piece.length, fromByte: bytes, toByte: bytes + size });
    at += piece.length;
    bytes += size;
  }
}

/** The selection and filters a locator carries besides the page. */
export interface LocatorArgs {
  readonly seq: number;
  readonly block?: number;
  readonly lines?: string;
  readonly grep?: string;
}

/** `expand_result({"seq":Q,"formatVersion":3[,"block":B][,"lines":…][,"grep":…][,"page":P]})`. */
export function expandCall(args: LocatorArgs, page?: number): string {
  const json = JSON.stringify({
    seq: args.seq, formatVersion: SESSION_FORMAT_VERSION,
    ...(args.block !== undefined ? { block: args.block } : {}),
    ...(args.lines !== undefined ? { lines: args.lines } : {}),
    ...(args.grep !== undefined ? { grep: args.grep } : {}),
    ...(page !== undefined ? { page } : {}),
  });
  return `expand_result(${json})`;
}

/**
 * The locator of a logged result: one call, or, over a page, each page's call
 * (`2 pages: expand_result({…,"page":1}) expand_result({…,"page":2})`).
 * @param args - the result's seq (and block).
 * @param text - the result's logged text.
 * @returns the locator text.
 */
export function resultLocator(args: LocatorArgs, text: string): string {
  const count = paginate(text).length;
  if (count === 1) return expandCall(args);
  return `${count} pages: ${Array.from({ length: count }, (_, i) => expandCall(args, i + 1)).join(' ')}`;
}

/**
 * One page of an answer, with the header line that says which page of how many it is, its byte
 * range, and the exact call for the next page.
 * @param args - what was selected.
 * @param text - the whole selected text.
 * @param page - the 1-based page.
 * @returns the answer: header, newline, the page's text verbatim.
 * @throws Error naming the page count when `page` is past the last page.
 */
export function pageAnswer(args: LocatorArgs, text: string, page: number): string {
  const pages = paginate(text);
  const at = pages[page - 1];
  if (at === undefined) throw new Error(`expand_result: page ${page} does not exist; the result has ${pages.length} page(s) of at most ${PAGE_BYTES} bytes`);
  const total = pages.at(-1)!.toByte;
  const next = page < pages.length ? ` · next: ${expandCall(args, page + 1)}` : ' · last page';
  return `[${expandCall(args, page)} · page ${page} of ${pages.length} · bytes ${at.fromByte}-${at.toByte} of ${total}${next}]\n${text.slice(at.start, at.end)}`;
}
