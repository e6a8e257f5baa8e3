// `dsh-context profiles serve`: the context-profiles panel and its API on loopback, for the user's
// $DSH_HOME, outside DSH (for users whose DSH profile has no web server). The plugins are mounted, as
// the bundle mounts them, on the offline host (src/offline-host) over the real filesystem, so the panel
// lists the tools they register and the host's first-party file tools; the profiles it edits are the
// real state file, which running DSH processes read and write too (every write merges with what is
// on disk). The panel's handler is the plugin's own, with this server's access token: the link
// printed to the terminal carries it (in the fragment, which no request sends), the page does not,
// so another user of the machine who can reach the port cannot drive the panel (issue 32, item 4).

import { join } from 'node:path';
import { createNodeFileSystem } from '../fs/index.js';
import type { HomeEnvironment } from '../host/index.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import * as contextProfiles from '../plugins/context-profiles/index.js';
import * as sliceTape from '../plugins/slice-tape/index.js';
import * as workspaceContext from '../plugins/workspace-context/index.js';
import { DSH_DEPLOYED_MAX_BYTES } from '../plugins/workspace-context/config.js';
import { createOfflineHost, OfflineWebServer } from '../offline-host/index.js';
import { resolveConfig } from '../plugins/context-profiles/config.js';
import { createApiHandler, newToken, webRoute } from '../plugins/context-profiles/http.js';
import { llmTranslation, Translator } from '../plugins/context-profiles/translate.js';
import { CliError } from './env.js';

export interface ServeOptions {
  readonly port: number;
  readonly environment: HomeEnvironment;
  readonly dshHome?: string;
}

/**
 * Starts the server; resolves with its address once it listens.
 * @param options - port, environment and DSH home.
 * @returns the panel's link (with `#token=`), the token alone, the state file and the closer.
 */
export async function serveProfiles(options: ServeOptions): Promise<{ url: string; token: string; stateFile: string; close(): Promise<void> }> {
  const { environment } = options;
  const config = options.dshHome !== undefined ? { dshHome: options.dshHome } : {};
  const host = createOfflineHost({ cwd: environment.processCwd, fs: createNodeFileSystem(), homedir: environment.homedir, processCwd: environment.processCwd, env: environment.env });
  const profilesHandle = host.use(contextProfiles, config);
  const handles = [
    host.use(workspaceContext, { maxBytes: DSH_DEPLOYED_MAX_BYTES, ...config }),
    host.use(autoMemory, {}),
    host.use(sliceTape, {}),
    profilesHandle,
  ];
  // No session is started: context-profiles records a session's first profile in the state file,
  // and a simulated one must not leave a record in the user's real file.
  await Promise.all(handles.map((h) => h.ready));
  const profiles = contextProfiles.mounted.get(profilesHandle.ctx)!;
  const home = resolveConfig(config, environment).dshHome.path;
  const token = newToken();
  const web = new OfflineWebServer(host.ctx.logger);
  web.register(webRoute(createApiHandler({ profiles, translator: new Translator(home, llmTranslation(profilesHandle.ctx)), logger: host.ctx.logger, token, tokenInPage: false })));
  try {
    await web.listen(options.port);
  } catch (error) {
    host.dispose();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`port ${options.port} is in use`, 'pass another --port, or --port 0 for any free one');
    throw error;
  }
  return {
    url: `${web.url}${contextProfiles.PREFIX}/#token=${token}`,
    token,
    stateFile: join(home, 'session-context-config.json'),
    close: async () => {
      host.dispose();
      await web.close();
    },
  };
}
