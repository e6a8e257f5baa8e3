// HTTP route registration and model completion (spec X-12): the two host services the
// context-profiles panel and API need. DSH serves plugin routes behind its connection trust fence
// (Host, Origin and browser-session checks, as its open-in-app route does) and lets a plugin ask the
// profile's default model for a completion. [uncertain: the contract does not spell either service;
// the shapes are the least a plugin needs, and the names live in names.ts.]

import type { IncomingMessage, ServerResponse } from 'node:http';

/** How a DSH web route matches: `exact` the pathname verbatim, `prefix` p matches p and p/<anything>. */
export type WebRouteKind = 'exact' | 'prefix';

/** One route of DSH's `webServer` service (rc.8, `@deepseek-ai/dsh-host-webserver`). */
export interface WebRoute {
  readonly kind: WebRouteKind;
  /** Absolute pathname, no trailing slash. */
  readonly path: string;
  /** Owns the whole response. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
}

/** DSH's `webServer` service (the part plugins use). A duplicate (kind, path) throws. */
export interface WebServer {
  register(route: WebRoute): () => void;
  /** The listening port. */
  readonly port: number;
}

/** A plain node:http request handler; resolves false when the request is not for it. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean> | boolean;

/** The host's HTTP service. */
export interface HttpService {
  /** Serves requests whose path starts with `prefix` through `handler`; returns the unmount. */
  route(prefix: string, handler: RequestHandler): () => void;
  /** The connection trust fence; absent when the host has none (callers fall back to loopback). */
  trusted?(req: IncomingMessage): boolean;
}

/** One completion request to the current profile's default model. */
export interface CompletionRequest {
  readonly system?: string;
  readonly prompt: string;
  readonly signal?: AbortSignal;
}

/** The host's model completion service (never recorded in a session). */
export interface ModelCompletion {
  complete(request: CompletionRequest): Promise<string>;
}
