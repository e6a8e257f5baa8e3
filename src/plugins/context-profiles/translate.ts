// Panel-only translation of tool descriptions (spec CP-36, CP-37 POST /translate, CP-UI-06): a
// cache file keyed by the exact original text, one model request at a time, never recorded in a
// session and never seen by the model's tool schemas.

import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import type { ModelCompletion } from '../../host/index.js';
import { KeyedQueue, nodeFileOps, updateFile } from '../../io/index.js';

/** CP-36: the cache file under the DSH home. */
export const TRANSLATIONS_FILE = 'session-context-config-translations.json';

/** [P] The instruction sent with each text. */
export const TRANSLATE_SYSTEM = 'Translate the user text, a tool description for an AI agent, into Simplified Chinese. Keep code, identifiers, paths and quoted literals unchanged. Reply with the translation only.';

/** The outcome the API returns. */
export type TranslateResult = { ok: true; zh: string } | { ok: false; error: string };

/** The cache plus a queue that runs one model request at a time. */
export class Translator {
  readonly path: string;
  #cache: Record<string, string> | undefined;
  readonly #queue = new KeyedQueue<'model'>();

  constructor(readonly home: string, readonly model: () => ModelCompletion | undefined) {
    this.path = join(home, TRANSLATIONS_FILE);
  }

  #load(): Record<string, string> {
    if (this.#cache !== undefined) return this.#cache;
    try {
      const raw = JSON.parse(nodeFs.readFileSync(this.path, 'utf8')) as unknown;
      this.#cache = raw !== null && typeof raw === 'object' && !Array.isArray(raw)
        ? Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Record<string, string>
        : {};
    } catch {
      // A missing or unreadable cache only costs a re-translation; the file is rewritten whole.
      this.#cache = {};
    }
    return this.#cache;
  }

  /** A cache hit answers at once; otherwise the request joins the queue (CP-37: serialized). */
  translate(text: string): Promise<TranslateResult> {
    const hit = this.#load()[text];
    if (hit !== undefined) return Promise.resolve({ ok: true, zh: hit });
    return this.#queue.run('model', () => this.#translate(text));
  }

  async #translate(text: string): Promise<TranslateResult> {
    const cache = this.#load();
    if (cache[text] !== undefined) return { ok: true, zh: cache[text]! };
    const model = this.model();
    if (model === undefined) return { ok: false, error: 'the host offers no model completion' };
    let zh: string;
    try {
      zh = (await model.complete({ system: TRANSLATE_SYSTEM, prompt: text })).trim();
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (zh === '') return { ok: false, error: 'the model returned an empty translation' };
    cache[text] = zh;
    // The shared atomic write under the file's lock (mode 0666 less the umask, as before).
    const bytes = new TextEncoder().encode(`${JSON.stringify(cache, null, 2)}\n`);
    await updateFile(nodeFileOps, this.path, () => bytes, { mode: 0o666 });
    return { ok: true, zh };
  }
}
