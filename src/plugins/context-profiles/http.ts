// The HTTP API under `/session-context-config/api` and the panel page (spec CP-37, CP-38): a plain
// node:http request handler, registered as a prefix route on DSH's web server (index.ts) or served by
// `dsh-context profiles serve`. Every request passes the trust fence first; a POST must be JSON.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger, RequestHandler, WebRoute } from '../../host/index.js';
import type { Profiles } from './controller.js';
import { ADDITIONAL_RULES, GROUPS, RULE_TEXTS } from './model.js';
import { StateError } from './normalize.js';
import { PANEL_HTML } from './panel.js';
import type { Translator } from './translate.js';
import { definitionTokens, TOOL_SEARCH_SCHEMA } from './placeholders.js';

/** The route prefix of the panel; the API lives under `${PREFIX}/api`. */
export const PREFIX = '/session-context-config';
export const API = `${PREFIX}/api`;
/** The largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 1 << 21;
/** The largest dotted-quad part. */
const MAX_OCTET = 255;

/** What the handler serves from. */
export interface ApiOptions {
  readonly profiles: Profiles;
  readonly translator: Translator;
  /** A trust fence; absent → `loopbackTrusted` (CP-38). */
  readonly trusted?: (req: IncomingMessage) => boolean;
  /** Where a route's unexpected failure is reported (it is answered 500). */
  readonly logger?: Pick<Logger, 'warn'>;
}

/** Whether a WHATWG-normalized hostname is loopback: `localhost`, `[::1]`, or an IPv4 address in 127/8. */
function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const parts = hostname.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= MAX_OCTET);
}

/**
 * CP-38: the trust fence. rc.8 exposes no fence as a service (its `/api` fence is internal to its
 * connection plugin, and its web server has none), so the routes apply the same rules as DSH's
 * fence does to its configuration plane, with no extra trusted hosts: the Host header must name a
 * loopback authority (DNS rebinding cannot forge it), a `sec-fetch-site: cross-site` marker is
 * refused, and an Origin, when sent, must be the Host's own authority. A page on another site cannot
 * drive the API from a browser.
 * @param req - the request.
 * @returns whether it may reach the API.
 */
export function loopbackTrusted(req: IncomingMessage): boolean {
  const host = req.headers.host;
  if (typeof host !== 'string' || host === '') return false;
  let authority: URL;
  try {
    authority = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (!isLoopbackHostname(authority.hostname)) return false;
  if (req.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === authority.host;
  } catch {
    return false;
  }
}

function send(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  return true;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new StateError(`request body exceeds ${MAX_BODY_BYTES} bytes`, 413);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    throw new StateError(`request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function param(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value === '') throw new StateError(`query parameter "${name}" is required`);
  return value;
}

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'string' || value === '') throw new StateError(`body field "${name}" must be a non-empty string, got ${JSON.stringify(value) ?? 'undefined'}`);
  return value;
}

/**
 * CP-37 GET /state: everything the panel renders, from the file as it is now, with the revision a
 * save names so that only what the panel changed is applied (store.ts), and what the last read of
 * the file found (`load`: a file kept aside, migrated or refused, for the panel to say).
 */
async function snapshot(profiles: Profiles, sessionId: string | null) {
  const { state, revision } = profiles.store.snapshot();
  return {
    version: state.version,
    revision,
    lastUsedId: state.lastUsedId,
    profiles: state.profiles,
    baseline: state.baseline,
    catalog: profiles.catalog(sessionId ?? undefined),
    // DeepSeek V3 tokens of tool_search's definition: sent once by a profile that defers anything.
    toolSearchTokens: definitionTokens(TOOL_SEARCH_SCHEMA),
    sections: await profiles.fullSections(sessionId ?? undefined),
    contexts: profiles.contextSwitches,
    groups: GROUPS.map(([id, label]) => ({ id, label })),
    rules: ADDITIONAL_RULES.map((r) => ({ ...r, text: r.key === 'custom' ? undefined : RULE_TEXTS[r.key] })),
    load: profiles.store.report,
  };
}

/**
 * The API and panel handler. Resolves false for paths outside the prefix, so a host can chain it.
 * Errors answer with JSON `{ error }`: 400 bad input, 403 trust fence, 404 unknown session, profile
 * or route, 405 wrong method, 413 body too large, 415 a POST that is not `application/json`.
 */
export function createApiHandler(options: ApiOptions): RequestHandler {
  const trusted = options.trusted ?? loopbackTrusted;
  const { profiles, translator } = options;
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return false;
    if (!trusted(req)) return send(res, 403, { error: 'request failed the connection trust check (Host/Origin)' });
    const method = req.method ?? 'GET';
    try {
      if (url.pathname === PREFIX || url.pathname === `${PREFIX}/`) {
        if (method !== 'GET') return send(res, 405, { error: `${method} is not allowed on ${url.pathname}` });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PANEL_HTML);
        return true;
      }
      if (method === 'POST') {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'application/json') return send(res, 415, { error: `POST needs content-type application/json, got ${JSON.stringify(req.headers['content-type'] ?? '')}` });
      }
      const route = `${method} ${url.pathname.slice(API.length)}`;
      // Other processes write the file too: answer from what it holds now.
      profiles.store.refresh();
      switch (route) {
        case 'GET /state':
          return send(res, 200, await snapshot(profiles, url.searchParams.get('id')));
        case 'POST /state': {
          const body = await readJson(req);
          const revision = (body as { revision?: unknown } | null)?.revision;
          profiles.store.save(body, typeof revision === 'string' ? revision : undefined);
          return send(res, 200, await snapshot(profiles, url.searchParams.get('id')));
        }
        case 'GET /session':
          return send(res, 200, profiles.session(param(url, 'id')));
        case 'POST /session': {
          const body = await readJson(req);
          const id = field(body, 'id');
          profiles.choose(id, field(body, 'profile'));
          return send(res, 200, profiles.session(id));
        }
        case 'GET /preview':
          return send(res, 200, profiles.preview(param(url, 'id'), param(url, 'profile')));
        case 'GET /assemble':
          return send(res, 200, await profiles.assemble(param(url, 'id')));
        case 'POST /translate':
          return send(res, 200, await translator.translate(field(await readJson(req), 'text')));
        default: {
          const known = ['/state', '/session', '/preview', '/assemble', '/translate'].includes(url.pathname.slice(API.length));
          return known ? send(res, 405, { error: `${method} is not allowed on ${url.pathname}` }) : send(res, 404, { error: `no route ${url.pathname}` });
        }
      }
    } catch (error) {
      if (error instanceof StateError) return send(res, error.status, { error: error.message });
      const message = error instanceof Error ? error.message : String(error);
      options.logger?.warn('context-profiles: %s %s failed: %s', method, url.pathname, message);
      if (res.headersSent) {
        res.destroy();
        return true;
      }
      return send(res, 500, { error: message });
    }
  };
}

/**
 * The API handler as one route of DSH's web server (`{ kind: 'prefix', path: PREFIX }`): DSH hands
 * it every path under the prefix, and it owns the response.
 * @param handler - from `createApiHandler`.
 * @returns the route.
 */
export function webRoute(handler: RequestHandler): WebRoute {
  return {
    kind: 'prefix',
    path: PREFIX,
    handler: async (req, res) => {
      if (!(await handler(req, res))) send(res, 404, { error: `no route ${new URL(req.url ?? '/', 'http://localhost').pathname}` });
    },
  };
}
