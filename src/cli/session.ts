// What the model is sent, found the only way that cannot drift from the plugins: mount them, as the
// bundle patch does, on the package's simulated DSH host over the real filesystem, start a session at
// the cwd, and read the first model request.

import type { HomeEnvironment, Message } from '../host/index.js';
import { createNodeFileSystem } from '../fs/index.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import * as workspaceContext from '../plugins/workspace-context/index.js';
import { createTestHost } from '../testing/index.js';

/** The prompt of the simulated first turn; the report shows where the plugins' messages go around it. */
export const PROBE_PROMPT = '(your first prompt)';

export interface SessionOptions {
  readonly cwd: string;
  readonly environment: HomeEnvironment;
  readonly workspaceConfig: workspaceContext.WorkspaceContextConfig;
  readonly memoryConfig: Record<string, unknown>;
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

/** Runs one turn and returns request 1's messages, and anything the plugins logged. */
export async function firstRequest(options: SessionOptions): Promise<{ messages: SeenMessage[]; logs: string[] }> {
  const { environment } = options;
  const host = createTestHost({
    cwd: options.cwd,
    fs: createNodeFileSystem({ cwd: options.cwd }),
    homedir: environment.homedir,
    processCwd: environment.processCwd,
    env: environment.env,
  });
  host.use(workspaceContext, options.workspaceConfig);
  host.use(autoMemory, options.memoryConfig);
  await host.run(PROBE_PROMPT, [{ text: '' }]);
  host.dispose();
  const messages = host.requests[0]!.messages.map((m) => {
    const channel = (m.source as { channel?: unknown }).channel;
    return {
      role: m.role,
      kind: typeof channel === 'string' ? `${m.source.kind}/${channel}` : m.source.kind,
      blocks: m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])),
      source: m.source,
    };
  });
  return { messages, logs: host.logs.map((l) => `${l.level} ${l.name}: ${l.message}`) };
}
