// The offline host's web server (spec X-12), shaped as DSH rc.8's `webServer` service
// (`@deepseek-ai/dsh-host-webserver`): named `exact` and `prefix` routes, exact over the whole table
// and then the longest prefix, 404 with an empty body when nothing matches, a duplicate (kind, path)
// refused in DSH's words, a handler's throw logged and answered 400. Like DSH's it has no trust fence:
// plugins guard their own routes. Tests provide it to a host (`host.provide('webServer', server)`,
// possibly after plugins loaded) and serve it on loopback.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../host/cordis.js';
import type { WebRoute, WebServer } from '../host/http.js';

/** A loopback web server with DSH's route table. */
export class OfflineWebServer implements WebServer {
  readonly #exact = new Map<string, WebRoute>();
  readonly #prefixes = new Map<string, WebRoute>();
  #server: Server | undefined;
  #port: number | undefined;

  /** @param logger - where a handler's throw is reported (DSH: the web server's `logger.warn`). */
  constructor(readonly logger?: Pick<Logger, 'warn'>) {}

  /** The listening port; throws before `listen`. */
  get port(): number {
    if (this.#port === undefined) throw new Error('test web server: not listening; call listen() first');
    return this.#port;
  }

  /** The loopback URL, once listening. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Adds a route, as DSH's `register`.
   * @param route - kind, absolute path without a trailing slash, handler.
   * @returns the removal.
   * @throws Error `webserver: duplicate <kind> route "<path>"` when the (kind, path) is taken.
   */
  register(route: WebRoute): () => void {
    const table = route.kind === 'exact' ? this.#exact : this.#prefixes;
    if (table.has(route.path)) throw new Error(`webserver: duplicate ${route.kind} route "${route.path}"`);
    table.set(route.path, route);
    return () => {
      if (table.get(route.path) === route) table.delete(route.path);
    };
  }

  /** Paths with a route now, exact ones first (for tests). */
  get routes(): string[] {
    return [...this.#exact.keys(), ...this.#prefixes.keys()];
  }

  /**
   * Answers one request as DSH's server does.
   * @param req - the request.
   * @param res - its response.
   */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const route = this.#match(new URL(req.url ?? '/', 'http://x').pathname);
      if (route === undefined) {
        res.writeHead(404).end();
        return;
      }
      await route.handler(req, res);
    } catch (error) {
      this.logger?.warn('%s', error instanceof Error ? (error.stack ?? error.message) : String(error));
      if (res.headersSent) res.destroy();
      else res.writeHead(400).end();
    }
  }

  /**
   * Listens on 127.0.0.1.
   * @param port - 0 (default) for a free port.
   * @returns the URL and the closer.
   */
  async listen(port = 0): Promise<{ readonly url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    this.#port = (server.address() as AddressInfo).port;
    return { url: this.url, close: () => this.close() };
  }

  /** Stops listening and drops open connections. */
  close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#port = undefined;
    if (server === undefined) return Promise.resolve();
    return new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }

  #match(pathname: string): WebRoute | undefined {
    const exact = this.#exact.get(pathname);
    if (exact !== undefined) return exact;
    let best: WebRoute | undefined;
    for (const [prefix, route] of this.#prefixes) {
      if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) continue;
      if (best === undefined || prefix.length > best.path.length) best = route;
    }
    return best;
  }
}
