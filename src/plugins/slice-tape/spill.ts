// Original text of logged results (spec ST-30, ST-31): a text part that ends in the host's spill
// notice is a preview, and its original comes from the spill store when one is available.

import type { ContentBlock } from '../../host/message.js';
import { parseSpillNotice, type SpillNotice, type SpillStore } from '../../host/spill.js';

/** One text part of a logged result: restored, or a preview with why it could not be restored. */
export interface ResultPart {
  readonly text: string;
  /** Set when `text` is still the preview. */
  readonly preview?: { readonly notice: SpillNotice; readonly reason: string };
}

/**
 * The text parts of a result block, each spilled one replaced by its stored original (each spill
 * separately). Without a store, or when the store cannot serve one, the part stays a preview and
 * says why; it is never passed off as the whole output.
 */
export async function restoreParts(content: readonly ContentBlock[], store: SpillStore | undefined, signal?: AbortSignal): Promise<ResultPart[]> {
  const parts: ResultPart[] = [];
  for (const block of content) {
    if (block.type !== 'text') continue;
    const notice = parseSpillNotice(block.text);
    if (notice === undefined) {
      parts.push({ text: block.text });
      continue;
    }
    if (store === undefined) {
      parts.push({ text: block.text, preview: { notice, reason: 'no spill store is available' } });
      continue;
    }
    try {
      parts.push({ text: await store.read(notice.locator, signal) });
    } catch (error) {
      signal?.throwIfAborted();
      parts.push({ text: block.text, preview: { notice, reason: `the spill store could not read it (${error instanceof Error ? error.message : String(error)})` } });
    }
  }
  return parts;
}
