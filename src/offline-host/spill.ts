// The offline host's spill policy and store (spec X-12): a tool result whose text is larger than
// the configured bytes is logged as a UTF-8-safe head plus DSH's spill notice, and the full text is
// kept in an in-memory store that plugins reach as `ctx.get('spill')`. As DSH rc.8's spill policy,
// it leaves `read` results (a spilled read would only be read again) and results with a non-text
// block alone. rc.8 itself has no readable spill service: its `spillStore` only saves.

import { truncateUtf8, utf8Length } from '../engine/index.js';
import type { ContentBlock } from '../host/message.js';
import { FileToolName } from '../host/names.js';
import { spillNotice, type SpillStore } from '../host/spill.js';

/** `OfflineHostOptions.spill`. */
export interface SpillOptions {
  /** Results whose text is larger than this many UTF-8 bytes are spilled. */
  readonly overBytes: number;
  /** Bytes of the head the preview keeps; default 256. */
  readonly previewBytes?: number;
  /** `false`: the host spills but provides no store (as a host whose store is gone). Default true. */
  readonly store?: boolean;
}

/** An in-memory spill store; `delete` simulates a spill file that has gone away. */
export class MemorySpillStore implements SpillStore {
  readonly #texts = new Map<string, string>();

  put(locator: string, text: string): void {
    this.#texts.set(locator, text);
  }

  delete(locator: string): boolean {
    return this.#texts.delete(locator);
  }

  async read(locator: string, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const text = this.#texts.get(locator);
    if (text === undefined) throw new Error(`spill store: nothing stored at ${locator}`);
    return text;
  }
}

/**
 * The content the host logs for a result of tool `name`: unchanged when its text fits, when it is a
 * `read`'s or when it has a non-text block; else one text block with the head and the notice (the
 * whole text stored at `/spill/<sessionId>/<callId>.txt`).
 */
export function spillContent(options: SpillOptions, store: MemorySpillStore, sessionId: string, callId: string, name: string, content: readonly ContentBlock[]): readonly ContentBlock[] {
  if (name === FileToolName.read || content.some((b) => b.type !== 'text')) return content;
  const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const bytes = utf8Length(text);
  if (bytes <= options.overBytes) return content;
  const locator = `/spill/${sessionId}/${callId}.txt`;
  store.put(locator, text);
  const head = truncateUtf8(text, options.previewBytes ?? 256).text;
  return [{ type: 'text', text: `${head}\n\n${spillNotice(bytes - utf8Length(head), locator)}` }];
}
