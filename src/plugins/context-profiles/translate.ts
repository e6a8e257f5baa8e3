// Panel-only translation of tool descriptions (spec CP-36, CP-37 POST /translate, CP-UI-06): a
// cache file keyed by the exact original text, one model request at a time through DSH's `llm`
// service on the agent's default model, never recorded in a session and never seen by the model's
// tool schemas.

import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { createUserMessage, HostService, SourceKind, type AgentDefaultModel, type Context, type LlmService } from '../../host/index.js';
import { KeyedQueue, nodeFileOps, nodeFileOpsSync, updateFile } from '../../io/index.js';

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

/** The cache plus a queue that runs one model request at a time. */
export class Translator {
  readonly path: string;
  #cache: Record<string, string> | undefined;
  readonly #queue = new KeyedQueue<'model'>();

  constructor(readonly home: string, readonly model: TranslationModel) {
    this.path = join(home, TRANSLATIONS_FILE);
  }

  #load(): Record<string, string> {
    if (this.#cache !== undefined) return this.#cache;
    this.#cache = this.#readDisk();
    return this.#cache;
  }

  /** The cache file's entries; a missing, unreadable or non-regular file (a FIFO would block) gives none. */
  #readDisk(current?: Uint8Array): Record<string, string> {
    try {
      let text: string;
      if (current !== undefined) text = new TextDecoder().decode(current);
      else {
        if (nodeFileOpsSync.lstat(this.path)?.type !== 'file') return {};
        text = nodeFs.readFileSync(this.path, 'utf8');
      }
      const raw = JSON.parse(text) as unknown;
      return raw !== null && typeof raw === 'object' && !Array.isArray(raw)
        ? Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Record<string, string>
        : {};
    } catch {
      // A missing or unreadable cache only costs a re-translation.
      return {};
    }
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
    let zh: string;
    try {
      zh = (await this.model(TRANSLATE_SYSTEM, text)).trim();
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (zh === '') return { ok: false, error: 'the model returned an empty translation' };
    cache[text] = zh;
    // Another process (DSH, `profiles serve`) may add entries too: under the file's lock, this one is
    // added to what the file holds now (the shared atomic write, mode 0666 less the umask). A path
    // that is not a regular file is left alone; the translation still answers from memory.
    if ((nodeFileOpsSync.lstat(this.path)?.type ?? 'file') === 'file') {
      await updateFile(nodeFileOps, this.path, (current) => {
        const merged = { ...(current === undefined ? {} : this.#readDisk(current)), [text]: zh };
        Object.assign(cache, merged);
        return new TextEncoder().encode(`${JSON.stringify(merged, null, 2)}\n`);
      }, { mode: 0o666 });
    }
    return { ok: true, zh };
  }
}
