// Panel-only translation of tool descriptions (spec CP-36, CP-37 POST /translate, CP-UI-06): a
// cache file keyed by the exact original text, one model request at a time through DSH's `llm`
// service on the agent's default model, never recorded in a session and never seen by the model's
// tool schemas.

import { join } from 'node:path';
import { codePointLength, utf8Length } from '../../engine/index.js';
import { createUserMessage, HostService, SourceKind, type AgentDefaultModel, type Context, type LlmService } from '../../host/index.js';
import { KeyedQueue, nodeFileOps, nodeFileOpsSync, updateFile } from '../../io/index.js';
import { fromEntries, parseJson } from './json.js';
import { StateError } from './normalize.js';

/** CP-36: the cache file under the DSH home. */
export const TRANSLATIONS_FILE = 'session-context-config-translations.json';

/** [P] The instruction sent with each text. */
export const TRANSLATE_SYSTEM = 'Translate the user text, a tool description for an AI agent, into Simplified Chinese. Keep code, identifiers, paths and quoted literals unchanged. Reply with the translation only.';

/** The outcome the API returns. */
export type TranslateResult = { ok: true; zh: string } | { ok: false; error: string };

/** How long one translation may take before it fails (a stuck model must not block the queue). */
export const TRANSLATE_TIMEOUT_MS = 60_000;

/** One model call: the instruction and the text in, the reply text out (a failure throws, naming why). */
export type TranslationModel = (system: string, text: string) => Promise<string>;

/**
 * CP-37 POST /translate's model call under DSH: `ctx.llm.stream` with the agent's default model
 * selection (`agentDefaultModel.currentSelection()`), one user message, no tools and no session id,
 * so nothing is written to a session. The reply is the text of the stream; any finish but `stop` is
 * a failure carrying DSH's message.
 * @param ctx - the plugin's context (services are looked up at each call: they may come later).
 * @returns the model call.
 */
export function llmTranslation(ctx: Context): TranslationModel {
  return async (system, text) => {
    const llm = ctx.get(HostService.llm) as LlmService | undefined;
    const defaults = ctx.get(HostService.agentDefaultModel) as AgentDefaultModel | undefined;
    if (llm?.stream === undefined) throw new Error('the host has no llm service to translate with');
    if (defaults === undefined) throw new Error('the host has no default model (agentDefaultModel) to translate with');
    const { provider, model, reasoningEffort } = defaults.currentSelection();
    const message = createUserMessage(ctx, text, { kind: SourceKind.plugin, plugin: 'context-profiles' });
    const chunks = llm.stream({
      provider, model, ...(reasoningEffort !== undefined ? { reasoningEffort } : {}),
      system, messages: [message], signal: AbortSignal.timeout(TRANSLATE_TIMEOUT_MS),
    });
    let reply = '';
    for await (const chunk of chunks) {
      if (chunk.type === 'text-delta') reply += chunk.text;
      else if (chunk.type === 'finish') {
        const reason = chunk.reason;
        if (reason.kind === 'stop') return reply;
        throw new Error('failure' in reason ? `${reason.failure.message} (${reason.failure.code})` : `the model stopped with "${reason.kind}"`);
      }
    }
    throw new Error('the model stream ended without a finish');
  };
}

/** The longest text POST /translate takes, in code points: a tool description, never a document (issue 32, item 4). */
export const TRANSLATE_TEXT_MAX = 20_000;
/** The cache file's size cap in bytes: a larger file is neither read nor written; adding a translation drops the oldest ones to stay under it. */
export const TRANSLATIONS_MAX_BYTES = 2 * 1024 * 1024;

/** Bytes a cache file line adds besides its key and value: indent, `: `, `,` and the line end. */
const ENTRY_OVERHEAD_BYTES = 6;

const encode = (cache: ReadonlyMap<string, string>): Uint8Array => new TextEncoder().encode(`${JSON.stringify(fromEntries(cache), null, 2)}\n`);

/** The cache plus a queue that runs one model request at a time. */
export class Translator {
  readonly path: string;
  /** Keyed by text, which is untrusted: a Map, so `constructor` or `__proto__` is never a hit (item 13). */
  #cache: Map<string, string> | undefined;
  readonly #queue = new KeyedQueue<'model'>();

  constructor(readonly home: string, readonly model: TranslationModel) {
    this.path = join(home, TRANSLATIONS_FILE);
  }

  #load(): Map<string, string> {
    this.#cache ??= this.#parse(this.#readFile()) ?? new Map();
    return this.#cache;
  }

  /** The cache file's bytes; undefined when it is missing, not a regular file (a FIFO would block), unreadable or over the cap. */
  #readFile(): Uint8Array | undefined {
    try {
      if (nodeFileOpsSync.lstat(this.path)?.type !== 'file') return undefined;
      const { bytes, size } = nodeFileOpsSync.readPrefix(this.path, TRANSLATIONS_MAX_BYTES + 1);
      return size > TRANSLATIONS_MAX_BYTES ? undefined : bytes;
    } catch {
      // A missing or unreadable cache only costs a re-translation.
      return undefined;
    }
  }

  /** The entries of cache bytes; undefined when they are over the cap or not a JSON object. */
  #parse(bytes: Uint8Array | undefined): Map<string, string> | undefined {
    if (bytes === undefined || bytes.length > TRANSLATIONS_MAX_BYTES) return undefined;
    try {
      const raw = parseJson(new TextDecoder().decode(bytes));
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
      return new Map(Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    } catch {
      return undefined;
    }
  }

  /**
   * CP-37 POST /translate: a cache hit answers at once; otherwise the request joins the queue (serialized).
   * @param text - the original text.
   * @returns the translation, or why there is none.
   * @throws StateError 400 for a text over TRANSLATE_TEXT_MAX.
   */
  translate(text: string): Promise<TranslateResult> {
    const length = codePointLength(text);
    if (length > TRANSLATE_TEXT_MAX) throw new StateError(`text is ${length} characters; the limit is ${TRANSLATE_TEXT_MAX}`);
    const hit = this.#load().get(text);
    if (hit !== undefined) return Promise.resolve({ ok: true, zh: hit });
    return this.#queue.run('model', () => this.#translate(text));
  }

  async #translate(text: string): Promise<TranslateResult> {
    const cache = this.#load();
    const cached = cache.get(text);
    if (cached !== undefined) return { ok: true, zh: cached };
    let zh: string;
    try {
      zh = (await this.model(TRANSLATE_SYSTEM, text)).trim();
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (zh === '') return { ok: false, error: 'the model returned an empty translation' };
    cache.set(text, zh);
    // Another process (DSH, `profiles serve`) may add entries too: under the file's lock, this one is
    // added to what the file holds now (the shared atomic write, mode 0666 less the umask), the
    // oldest dropped to stay under the cap. A path that is not a regular file, or a file over the
    // cap, is left alone; the translation still answers from memory.
    if ((nodeFileOpsSync.lstat(this.path)?.type ?? 'file') === 'file') {
      await updateFile(nodeFileOps, this.path, (current) => {
        const merged = current === undefined ? new Map<string, string>() : this.#parse(current);
        if (merged === undefined) return undefined;
        merged.delete(text);
        merged.set(text, zh);
        let bytes = encode(merged);
        while (bytes.length > TRANSLATIONS_MAX_BYTES && merged.size > 1) {
          // Drop the oldest entries whose lines (`  "key": "value",`) add up to the excess, then measure again.
          let excess = bytes.length - TRANSLATIONS_MAX_BYTES;
          for (const [k, v] of merged) {
            if (excess <= 0 || merged.size === 1) break;
            merged.delete(k);
            excess -= utf8Length(JSON.stringify(k)) + utf8Length(JSON.stringify(v)) + ENTRY_OVERHEAD_BYTES;
          }
          bytes = encode(merged);
        }
        for (const [k, v] of merged) if (!cache.has(k)) cache.set(k, v);
        return bytes.length > TRANSLATIONS_MAX_BYTES ? undefined : bytes;
      }, { mode: 0o666 });
    }
    return { ok: true, zh };
  }
}
