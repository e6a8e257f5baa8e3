// `dsh-context profiles serve`: the context-profiles panel and its API on loopback, for the user's
// $DSH_HOME, outside DSH. The plugins are mounted, as the bundle mounts them, on the package's
// simulated host over the real filesystem, so the panel lists the tools they register and the
// host's first-party file tools; the profiles it edits are the real state file, which DSH reads.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createNodeFileSystem } from '../fs/index.js';
import type { HomeEnvironment } from '../host/index.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import * as contextProfiles from '../plugins/context-profiles/index.js';
import * as sliceTape from '../plugins/slice-tape/index.js';
import * as workspaceContext from '../plugins/workspace-context/index.js';
import { DSH_DEPLOYED_MAX_BYTES } from '../plugins/workspace-context/config.js';
import { createTestHost } from '../testing/index.js';
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
  const server = createServer((req, res) => {
    host.http.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new CliError(`port ${options.port} is in use`, 'pass another --port, or --port 0 for any free one') : error));
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const home = resolveConfig(config, environment).dshHome.path;
  return {
    url: `http://127.0.0.1:${port}${contextProfiles.PREFIX}/`,
    stateFile: join(home, 'session-context-config.json'),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      host.dispose();
    }),
  };
}
