// The HTTP API under `/session-context-config/api` and the panel page (spec CP-37, CP-38): a plain
// node:http request handler, registered as a prefix route on DSH's web server (index.ts) or served by
// `dsh-context profiles serve`. A request must come from loopback (or a configured peer), from this
// user where the OS tells (peer.ts), and pass the Host/Origin fence; an API request must also carry
// the server's access token (issue 32, item 4). A POST must be JSON, nested at most MAX_JSON_DEPTH
// levels. No response may be framed.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { codePointLength } from '../../engine/index.js';
import type { Logger, RequestHandler, WebRoute } from '../../host/index.js';
import type { Profiles } from './controller.js';
import { parseJson } from './json.js';
import { ADDITIONAL_RULES, GROUPS, RULE_TEXTS, STATE_LIMITS } from './model.js';
import { shown, StateError } from './normalize.js';
import { panelHtml, PANEL_CSP } from './panel.js';
import { isLoopbackAddress, peerUser, plainAddress } from './peer.js';
import type { Translator } from './translate.js';
import { definitionTokens, TOOL_SEARCH_SCHEMA } from './placeholders.js';

/** The route prefix of the panel; the API lives under `${PREFIX}/api`. */
export const PREFIX = '/session-context-config';
export const API = `${PREFIX}/api`;
/** The largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 1 << 21;
/** The request header that carries the server's access token. */
export const TOKEN_HEADER = 'x-context-profiles-token';
/** The largest dotted-quad part. */
const MAX_OCTET = 255;
/** Random bytes of an access token (base64url: 43 characters). */
const TOKEN_BYTES = 32;

/** What the handler serves from. */
export interface ApiOptions {
  readonly profiles: Profiles;
  readonly translator: Translator;
  /** A Host/Origin trust fence; absent → `trustFence(trustedHosts)` (CP-38). */
  readonly trusted?: (req: IncomingMessage) => boolean;
  /** Where a route's unexpected failure is reported (it is answered 500). */
  readonly logger?: Pick<Logger, 'warn'>;
  /** The server's access token, which every API request must carry in TOKEN_HEADER; absent → a fresh random one (`newToken`). */
  readonly token?: string;
  /**
   * Whether the panel page carries the token. DSH's own server: yes (its user opens the page with no
   * other channel; peers and other users are kept out before the page is served). `profiles serve`:
   * no, the link it prints carries it (`#token=` in the fragment, which no request sends).
   */
  readonly tokenInPage?: boolean;
  /** Peer addresses besides loopback allowed to connect (exact, as the socket reports them; IPv4-mapped forms match their IPv4). */
  readonly trustedPeers?: readonly string[];
  /** Host authorities (`host` or `host:port`) besides loopback the default fence accepts. */
  readonly trustedHosts?: readonly string[];
}

/**
 * A fresh access token for a panel server.
 * @returns 43 base64url characters (256 random bits).
 */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
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
  return trustFence()(req);
}

/**
 * The trust fence of `loopbackTrusted`, accepting besides loopback the Host authorities the user
 * configured (`host` for any port, or `host:port`), as DSH's `--trusted-host` does for its `/api`.
 * @param extraHosts - the configured authorities.
 * @returns the fence.
 */
export function trustFence(extraHosts: readonly string[] = []): (req: IncomingMessage) => boolean {
  const extra = new Set(extraHosts.map((h) => h.toLowerCase()));
  return (req) => {
    const host = req.headers.host;
    if (typeof host !== 'string' || host === '') return false;
    let authority: URL;
    try {
      authority = new URL(`http://${host}`);
    } catch {
      return false;
    }
    if (!isLoopbackHostname(authority.hostname) && !extra.has(authority.hostname) && !extra.has(authority.host)) return false;
    if (req.headers['sec-fetch-site'] === 'cross-site') return false;
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    try {
      return new URL(origin).host === authority.host;
    } catch {
      return false;
    }
  };
}

/** The headers every answer carries: never cached, never framed (clickjacking), never sniffed, no referrer. */
const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

function send(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" }).end(JSON.stringify(body));
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
    return parseJson(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new StateError(`request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function param(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value === '') throw new StateError(`query parameter "${name}" is required`);
  return value;
}

function field(body: unknown, name: string, maxChars: number): string {
  const value = body !== null && typeof body === 'object' && Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string' || value === '') throw new StateError(`body field "${name}" must be a non-empty string, got ${value === undefined ? 'nothing' : shown(value)}`);
  const length = codePointLength(value);
  if (length > maxChars) throw new StateError(`body field "${name}" is ${length} characters; the limit is ${maxChars}`);
  return value;
}

/** Whether `given` is `token`, compared in constant time. */
function tokenMatches(given: string | string[] | undefined, token: Buffer): boolean {
  if (typeof given !== 'string') return false;
  const bytes = Buffer.from(given);
  return bytes.length === token.length && timingSafeEqual(bytes, token);
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
 * Errors answer with JSON `{ error }`: 400 bad input, 401 a missing or wrong access token, 403 a
 * peer that is not loopback (or configured) or is another user, or the trust fence, 404 unknown
 * session, profile or route, 405 wrong method, 413 body too large, 415 a POST that is not
 * `application/json`, 503 the state file cannot be written now.
 * @param options - the controller, the translator, and the access rules (token, peers, hosts).
 * @returns a node:http handler that resolves false for paths outside PREFIX.
 */
export function createApiHandler(options: ApiOptions): RequestHandler {
  const trusted = options.trusted ?? trustFence(options.trustedHosts);
  const peers = new Set((options.trustedPeers ?? []).map(plainAddress));
  const token = Buffer.from(options.token ?? newToken());
  const page = panelHtml(options.tokenInPage === true ? token.toString() : undefined);
  const { profiles, translator } = options;
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return false;
    const peer = req.socket.remoteAddress ?? '';
    if (!isLoopbackAddress(peer) && !peers.has(plainAddress(peer))) {
      return send(res, 403, { error: `the panel answers this machine only: ${plainAddress(peer) || 'an unknown peer'} is not a loopback address (context-profiles' panelPeers config lists others)` });
    }
    if ((await peerUser(req.socket)) === 'other') return send(res, 403, { error: 'the panel answers its own user only: this connection comes from another user\'s process' });
    if (!trusted(req)) return send(res, 403, { error: 'request failed the connection trust check (Host/Origin)' });
    const method = req.method ?? 'GET';
    try {
      if (url.pathname === PREFIX || url.pathname === `${PREFIX}/`) {
        if (method !== 'GET') return send(res, 405, { error: `${method} is not allowed on ${url.pathname}` });
        res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PANEL_CSP }).end(page);
        return true;
      }
      if (!tokenMatches(req.headers[TOKEN_HEADER], token)) {
        return send(res, 401, { error: 'the panel\'s access token is missing or wrong: open the link `dsh-context profiles serve` printed, or reload the panel from DSH' });
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
          const revision = body !== null && typeof body === 'object' && Object.hasOwn(body, 'revision') ? (body as { revision?: unknown }).revision : undefined;
          profiles.store.save(body, typeof revision === 'string' ? revision : undefined);
          return send(res, 200, await snapshot(profiles, url.searchParams.get('id')));
        }
        case 'GET /session':
          return send(res, 200, profiles.session(param(url, 'id')));
        case 'POST /session': {
          const body = await readJson(req);
          const id = field(body, 'id', STATE_LIMITS.sessionIdChars);
          profiles.choose(id, field(body, 'profile', STATE_LIMITS.idChars));
          return send(res, 200, profiles.session(id));
        }
        case 'GET /preview':
          return send(res, 200, profiles.preview(param(url, 'id'), param(url, 'profile')));
        case 'GET /assemble':
          return send(res, 200, await profiles.assemble(param(url, 'id')));
        case 'POST /translate':
          return send(res, 200, await translator.translate(field(await readJson(req), 'text', Number.MAX_SAFE_INTEGER)));
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
