// What the model is sent, found the only way that cannot drift from the plugins: mount them, as the
// bundle patch does (workspace-context, auto-memory, slice-tape, context-profiles), on the offline
// host (src/offline-host) over the real filesystem, start a session at the cwd, and read the first model
// request. context-profiles keeps its state in a temporary home made for the run (holding only which
// built-in profile applies), and auto-memory claims no memory folder, so inspecting never writes to
// the user's DSH home.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context, HomeEnvironment, Message, ToolSchema } from '../host/index.js';
import { createNodeFileSystem } from '../fs/index.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import * as contextProfiles from '../plugins/context-profiles/index.js';
import { defaultState, NONE } from '../plugins/context-profiles/model.js';
import { STATE_FILE } from '../plugins/context-profiles/store.js';
import * as sliceTape from '../plugins/slice-tape/index.js';
import * as workspaceContext from '../plugins/workspace-context/index.js';
import { createOfflineHost } from '../offline-host/index.js';
import { PROBE_PROMPT } from './defaults.js';

export { PROBE_PROMPT };

/** The context profiles `--profile` accepts: the built-in ones (CP-05), and `none`. */
export const PROFILE_IDS: readonly string[] = [NONE, ...contextProfiles.builtinProfiles().map((p) => p.id)];

export interface SessionOptions {
  readonly cwd: string;
  readonly environment: HomeEnvironment;
  readonly workspaceConfig: workspaceContext.WorkspaceContextConfig;
  readonly memoryConfig: Record<string, unknown>;
  /** The context profile the session starts with (one of PROFILE_IDS); `none` leaves it alone. */
  readonly profile?: string;
  /** The user's first message (default PROBE_PROMPT). */
  readonly prompt?: string;
}

/** One message of the first request, as the model receives it. */
export interface SeenMessage {
  readonly role: Message['role'];
  /** The source kind (`user` for the prompt), plus the auto-memory channel. */
  readonly kind: string;
  /** The text blocks, verbatim (a message with a new baseline and dynamic changes has two). */
  readonly blocks: readonly string[];
  readonly source: Message['source'];
}

/** Request 1 as the model receives it: its system prompt's sections, its tools, its messages. */
export interface FirstRequest {
  readonly sections: readonly { readonly name: string; readonly text: string }[];
  readonly tools: readonly ToolSchema[];
  readonly messages: SeenMessage[];
  /** What the plugins logged. */
  readonly logs: string[];
}

/**
 * A plugin's log line as the report's warnings show it (after `warning: `): most messages name their
 * plugin already (`auto-memory: …`, `slice tape: …`), so the logger's name is added only to those that
 * do not, and the level only when it is not a warning (issue 32 item 15: no more
 * `warning: warn auto-memory: auto-memory: …`).
 * @param entry the recorded line
 * @returns the line
 */
export function logLine(entry: { readonly level: string; readonly name: string; readonly message: string }): string {
  const named = [entry.name, entry.name.replaceAll('-', ' ')].some((name) => entry.message.startsWith(`${name}:`));
  return `${entry.level === 'warn' ? '' : `${entry.level}: `}${named ? '' : `${entry.name}: `}${entry.message}`;
}

/** Runs one turn and returns request 1: its sections, tools and messages, and anything the plugins logged. */
export async function firstRequest(options: SessionOptions): Promise<FirstRequest> {
  const { environment } = options;
  const profileHome = mkdtempSync(join(tmpdir(), 'dsh-context-profiles-'));
  try {
    writeFileSync(join(profileHome, STATE_FILE), JSON.stringify({ ...defaultState(), lastUsedId: options.profile ?? NONE }));
    const host = createOfflineHost({
      cwd: options.cwd,
      fs: createNodeFileSystem({ cwd: options.cwd }),
      homedir: environment.homedir,
      processCwd: environment.processCwd,
      env: environment.env,
    });
    host.use(workspaceContext, options.workspaceConfig);
    // Looking only: the plugin claims an unclaimed memory folder for its project (folder.ts), a write
    // into the user's DSH home that inspect never makes.
    host.use({ ...autoMemory, apply: (ctx: Context, config: autoMemory.Config) => autoMemory.apply(ctx, config, autoMemory.LOOK_ONLY_FOLDERS) }, options.memoryConfig);
    host.use(sliceTape, {});
    host.use(contextProfiles, { dshHome: profileHome });
    await host.run(options.prompt ?? PROBE_PROMPT, [{ text: '' }]);
    host.dispose();
    const request = host.requests[0]!;
    const messages = request.messages.map((m) => {
      const channel = (m.source as { channel?: unknown }).channel;
      return {
        role: m.role,
        kind: typeof channel === 'string' ? `${m.source.kind}/${channel}` : m.source.kind,
        blocks: m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])),
        source: m.source,
      };
    });
    return { sections: request.sections, tools: request.tools, messages, logs: host.logs.map(logLine) };
  } finally {
    rmSync(profileHome, { recursive: true, force: true });
  }
}
