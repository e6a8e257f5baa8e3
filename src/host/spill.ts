// The spill store (spec X-12): when a tool result is too large, the host logs a preview that ends
// with a notice naming where the full formatted text was stored, and keeps the text in a store.
// Recall tools read the notice back from the log and ask the store for the original.

/** The store a host provides under `HostService.spill`. */
export interface SpillStore {
  /** The full text stored at `locator`; rejects when it cannot be read (gone, no access). */
  read(locator: string, signal?: AbortSignal): Promise<string>;
}

/** A spill notice parsed out of a logged preview. */
export interface SpillNotice {
  /** Where the full text is stored (a path under the host's spill directory). */
  readonly locator: string;
  /** The bytes the preview left out. */
  readonly omittedBytes: number;
}

const NOTICE_HEAD = '(Omitted ';
// DSH 0.1.x's notice; the fixed retrieval guidance at the end anchors the match, so a period inside
// the path cannot cut the locator short. Newer hosts add an image count, which is optional here.
const NOTICE = /(?:^|\n\n)\(Omitted (\d+) bytes\.(?: Omitted \d+ images\.)? Full formatted result stored at: ([^\n]+)\. Use read with offset\/limit, or grep this path to search within it\.\)$/;

/**
 * The notice the host appends to a spilled result's preview (after a blank line):
 * `(Omitted <n> bytes. Full formatted result stored at: <locator>. Use read with offset/limit, or grep this path to search within it.)`
 */
export function spillNotice(omittedBytes: number, locator: string): string {
  return `${NOTICE_HEAD}${omittedBytes} bytes. Full formatted result stored at: ${locator}. Use read with offset/limit, or grep this path to search within it.)`;
}

/** The notice at the end of a logged result text, or `undefined` when the text is not a spill preview. */
export function parseSpillNotice(logged: string): SpillNotice | undefined {
  if (!logged.includes(NOTICE_HEAD)) return undefined;
  const match = NOTICE.exec(logged);
  return match === null ? undefined : { omittedBytes: Number(match[1]), locator: match[2]! };
}
