// The simulated host's HTTP service and model completion (spec X-12): plugins mount plain request
// handlers under a prefix; tests serve them on loopback with node:http. The simulated host has no
// browser-session authentication, so it offers no trust fence and plugins use their loopback
// fallback, as under a DSH host without that service.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CompletionRequest, HttpService, ModelCompletion, RequestHandler } from '../host/http.js';

/** Mounted routes of one host. */
export class TestHttp implements HttpService {
  readonly #routes: { prefix: string; handler: RequestHandler }[] = [];

  route(prefix: string, handler: RequestHandler): () => void {
    const entry = { prefix, handler };
    this.#routes.push(entry);
    return () => {
      const i = this.#routes.indexOf(entry);
      if (i >= 0) this.#routes.splice(i, 1);
    };
  }

  /** Dispatches to the first route whose prefix matches and that handles the request; else 404. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    for (const { prefix, handler } of this.#routes.slice()) {
      if (path.startsWith(prefix) && (await handler(req, res))) return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`no route for ${path}`);
  }

  /** Serves the routes on 127.0.0.1 at a free port. */
  async listen(): Promise<{ readonly url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    };
  }
}

/** A completion service answering from a test function, recording each request. */
export class TestCompletion implements ModelCompletion {
  readonly requests: CompletionRequest[] = [];

  constructor(readonly answer: (request: CompletionRequest) => Promise<string> | string) {}

  async complete(request: CompletionRequest): Promise<string> {
    this.requests.push(request);
    return this.answer(request);
  }
}
