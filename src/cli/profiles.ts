// `dsh-context profiles serve`: the context-profiles panel and its API on loopback, for the user's
// $DSH_HOME, outside DSH (for users whose DSH profile has no web server). The plugins are mounted, as
// the bundle mounts them, on the package's simulated host over the real filesystem, and the panel
// route is registered on that host's web server exactly as on DSH's, so the panel lists the tools
// they register and the host's first-party file tools; the profiles it edits are the real state
// file, which running DSH processes read and write too (every write merges with what is on disk).

import { join } from 'node:path';
import { createNodeFileSystem } from '../fs/index.js';
import { HostService, type HomeEnvironment } from '../host/index.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import * as contextProfiles from '../plugins/context-profiles/index.js';
import * as sliceTape from '../plugins/slice-tape/index.js';
import * as workspaceContext from '../plugins/workspace-context/index.js';
import { DSH_DEPLOYED_MAX_BYTES } from '../plugins/workspace-context/config.js';
import { createTestHost, TestWebServer } from '../testing/index.js';
import { resolveConfig } from '../plugins/context-profiles/config.js';
import { CliError } from './env.js';

export interface ServeOptions {
  readonly port: number;
  readonly environment: HomeEnvironment;
  readonly dshHome?: string;
}

/** Starts the server; resolves with its address once it listens. */
export async function serveProfiles(options: ServeOptions): Promise<{ url: string; stateFile: string; close(): Promise<void> }> {
  const { environment } = options;
  const config = options.dshHome !== undefined ? { dshHome: options.dshHome } : {};
  const host = createTestHost({ cwd: environment.processCwd, fs: createNodeFileSystem(), homedir: environment.homedir, processCwd: environment.processCwd, env: environment.env });
  const handles = [
    host.use(workspaceContext, { maxBytes: DSH_DEPLOYED_MAX_BYTES, ...config }),
    host.use(autoMemory, {}),
    host.use(sliceTape, {}),
    host.use(contextProfiles, config),
  ];
  // No session is started: context-profiles records a session's first profile in the state file,
  // and a simulated one must not leave a record in the user's real file.
  await Promise.all(handles.map((h) => h.ready));
  const web = new TestWebServer(host.ctx.logger);
  try {
    await web.listen(options.port);
  } catch (error) {
    host.dispose();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`port ${options.port} is in use`, 'pass another --port, or --port 0 for any free one');
    throw error;
  }
  host.provide(HostService.webServer, web);
  const home = resolveConfig(config, environment).dshHome.path;
  return {
    url: `${web.url}${contextProfiles.PREFIX}/`,
    stateFile: join(home, 'session-context-config.json'),
    close: async () => {
      host.dispose();
      await web.close();
    },
  };
}
