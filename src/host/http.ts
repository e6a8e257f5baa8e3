// DSH's web server (spec X-12): rc.8's `webServer` service (`@deepseek-ai/dsh-host-webserver`), which
// plugins register HTTP routes on. It is mounted only by profiles with a browser surface (`web`),
// possibly after a plugin that wants it loaded, and it has no trust fence of its own: DSH's `/api`
// fence belongs to its connection plugin and is not a service, so a plugin guards its own routes.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** How a DSH web route matches: `exact` the pathname verbatim, `prefix` p matches p and p/<anything>. */
export type WebRouteKind = 'exact' | 'prefix';

/** One route of DSH's `webServer` service. */
export interface WebRoute {
  readonly kind: WebRouteKind;
  /** Absolute pathname, no trailing slash. */
  readonly path: string;
  /** Owns the whole response. A throw is logged and answered 400 by the server. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
}

/**
 * DSH's `webServer` service (the part plugins use). Requests match an exact route first, then the
 * longest prefix, then the fallback seat; nothing matching answers 404. A duplicate (kind, path)
 * throws `webserver: duplicate <kind> route "<path>"`.
 */
export interface WebServer {
  /** Adds a route; returns its removal. */
  register(route: WebRoute): () => void;
  /** The listening port (the OS-assigned one when configured as 0). */
  readonly port: number;
}

/** A plain node:http request handler; resolves false when the request is not for it. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean> | boolean;
