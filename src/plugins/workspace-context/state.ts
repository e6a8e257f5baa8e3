// State (spec WC-29..WC-32, WC-39, WC-47): everything the loader knows about what the model has seen
// comes from typed `source` objects of visible session messages (plus claimed and pending ones), never
// from parsed text and never from memory alone. The version cache only chooses and speeds up reads.

import { isDeepStrictEqual } from 'node:util';
import type { FsVersion, Session, UserMessage } from '../../host/index.js';
import { visibleUserMessages } from '../../host/index.js';

/** The source kind this loader emits (DSH rc.8) and the older kind it also reads (WC-29). */
export const INSTRUCTIONS_KIND = 'agent-instructions';
export const LEGACY_INSTRUCTIONS_KIND = 'workspace-instructions';
export const INSTRUCTION_KINDS: readonly string[] = [INSTRUCTIONS_KIND, LEGACY_INSTRUCTIONS_KIND];

/** One transition of one scope (WC-29). */
export interface Change {
  readonly action: 'set' | 'replace' | 'remove';
  readonly scope: string;
  readonly path: string;
  readonly digest?: string;
}

/** The typed source of every message this loader injects. */
export type InstructionSource = {
  readonly kind: typeof INSTRUCTIONS_KIND;
  readonly form: 'instructions';
  readonly baseline?: true;
  readonly baselineIdentity?: string;
  readonly changes: readonly Change[];
};

/** What the cache keeps per scope (WC-32); never instruction text. */
export interface VersionState {
  readonly path: string;
  readonly version: FsVersion;
  readonly digest: string;
  readonly trimmedDigest: string;
}

/** Per-session caches: a resumed loop has a new session object and so starts empty (WC-32). */
export type VersionCache = WeakMap<Session, Map<string, VersionState>>;

/** Whether a message is workspace instruction context of either kind. */
export function isInstructionMessage(message: UserMessage): boolean {
  return INSTRUCTION_KINDS.includes(message.source.kind);
}

/** The well-formed changes of an instruction source; anything malformed is skipped, not trusted. */
export function sourceChanges(source: unknown): Change[] {
  const changes = (source as { changes?: unknown } | null)?.changes;
  if (!Array.isArray(changes)) return [];
  const valid: Change[] = [];
  for (const c of changes as unknown[]) {
    if (c === null || typeof c !== 'object') continue;
    const { action, scope, path, digest } = c as Record<string, unknown>;
    if (action !== 'set' && action !== 'replace' && action !== 'remove') continue;
    if (typeof scope !== 'string' || typeof path !== 'string' || (digest !== undefined && typeof digest !== 'string')) continue;
    valid.push({ action, scope, path, ...(digest !== undefined ? { digest } : {}) });
  }
  return valid;
}

/** The visible instruction messages of the session (either kind), in surface order. */
export function visibleInstructions(session: Pick<Session, 'surface' | 'events'>): UserMessage[] {
  return visibleUserMessages(session, INSTRUCTION_KINDS).map((v) => v.message);
}

/**
 * WC-30: the latest change per scope over the visible instruction messages, then `authority`
 * (claimed messages), then `composed` (a baseline being composed), in order. A `remove` stays as a
 * tombstone.
 */
export function effectiveChanges(session: Pick<Session, 'surface' | 'events'>, authority: readonly UserMessage[], composed: readonly Change[] = []): Map<string, Change> {
  const effective = new Map<string, Change>();
  for (const message of [...visibleInstructions(session), ...authority]) {
    if (!isInstructionMessage(message)) continue;
    for (const change of sourceChanges(message.source)) effective.set(change.scope, change);
  }
  for (const change of composed) effective.set(change.scope, change);
  return effective;
}

/** Whether a change leaves its scope loaded. */
export const isActive = (change: Change | undefined): change is Change => change !== undefined && change.action !== 'remove';

/** A visible (or claimed) complete baseline. */
export interface VisibleBaseline {
  readonly identity: string | undefined;
  readonly changes: readonly Change[];
}

/** The newest `baseline: true` source among `claimed`, else on the visible surface (contract §10.2 step 4). */
export function visibleBaseline(session: Pick<Session, 'surface' | 'events'>, claimed: readonly UserMessage[]): VisibleBaseline | undefined {
  for (const list of [claimed, visibleInstructions(session)]) {
    for (let i = list.length - 1; i >= 0; i--) {
      const message = list[i]!;
      const source = message.source as { baseline?: unknown; baselineIdentity?: unknown };
      if (!isInstructionMessage(message) || source.baseline !== true) continue;
      return { identity: typeof source.baselineIdentity === 'string' ? source.baselineIdentity : undefined, changes: sourceChanges(source) };
    }
  }
  return undefined;
}

/**
 * WC-47: a legacy baseline without an identity still counts as current when what the model has for
 * the baseline scopes (the latest visible change of each, so later updates count) is exactly what
 * discovery renders now: the same scopes, paths and digests.
 */
export function legacyBaselineMatches(effective: ReadonlyMap<string, Change>, baselineScopes: ReadonlySet<string>, now: readonly Change[]): boolean {
  const loaded = [...effective.values()].filter((c) => isActive(c) && baselineScopes.has(c.scope));
  if (loaded.length !== now.length) return false;
  return now.every((c) => {
    const old = effective.get(c.scope);
    return isActive(old) && old.path === c.path && old.digest === c.digest;
  });
}

/** Whether two messages carry the same payload (content and source), whatever their ids. */
export function samePayload(a: UserMessage, b: UserMessage): boolean {
  return isDeepStrictEqual(a.content, b.content) && isDeepStrictEqual(a.source, b.source);
}
