// Composing the workspace context one agent should have next (contract §10.2): a baseline block when
// no current baseline is visible, then one dynamic block for whatever changed, as one message whose
// typed source carries every committed change. Also keeps the inbox at one pending copy (WC-34).

import {
  createUserMessage, findProjectRoot, hostRuntime, serviceIdentity, type Agent, type Context, type FileSystem, type Session, type UserMessage,
} from '../../host/index.js';
import { loadBaseline, renderBaseline, supersededRemovals } from './baseline.js';
import { baselineIdentity, type ResolvedConfig } from './config.js';
import { baselineDirectories, directoryCandidates, parseScope, touchedDirectories, type Candidate, type Layout } from './files.js';
import { LinkFence, warnOnce, type RefusalWarning } from './fence.js';
import { CandidateProbes } from './probes.js';
import { reconcile } from './reconcile.js';
import { renderBlock } from './render.js';
import {
  effectiveChanges, INSTRUCTIONS_KIND, isInstructionMessage, legacyBaselineMatches, samePayload, sourceChanges, visibleBaseline, visibleInstructions,
  type Change, type InstructionSource, type VersionCache, type VersionState,
} from './state.js';

/** What one plugin instance remembers per session; it only chooses probes, never suppresses context. */
interface Preparation {
  readonly identity: string;
  /** WC-47: the visible baseline has no identity but was found to match; it stays authoritative. */
  readonly legacy: boolean;
  /** Baseline scopes read but not represented (budget): not re-probed while that baseline is visible. */
  readonly excluded: ReadonlySet<string>;
}

/** What one plugin instance keeps per session besides the version cache; it only saves work. */
interface SessionMemory {
  /** `serviceIdentity` of the provider `probes` asks. */
  readonly provider: object;
  readonly probes: CandidateProbes;
  readonly cwd: string;
  readonly root: string;
  readonly candidates: Map<string, readonly Candidate[]>;
  /** Absolute paths of the display directories walked for this cwd and root (Layout.directories). */
  readonly directories: Map<string, string>;
  /** The baseline's scopes for this cwd and root, once found: every step needs them. */
  baselineScopes?: ReadonlySet<string>;
  /** Refuses links out of this root (fence.ts). */
  readonly fence: LinkFence;
}

/** What `compose` is asked to do. */
export interface ComposeRequest {
  readonly agent: Agent;
  readonly signal: AbortSignal | undefined;
  /** The claimed batch of the current pre-step (empty for touch projections). */
  readonly claimed: readonly UserMessage[];
  /** Instruction messages pending in `nextStep`. */
  readonly pending: readonly UserMessage[];
  /** Paths of the file touches being projected (none at a pre-step). */
  readonly touched: readonly string[];
}

/** The composer of one plugin instance: its caches live as long as the mount. */
export class Composer {
  readonly #versions: VersionCache = new WeakMap();
  readonly #prepared = new WeakMap<Session, Preparation>();
  /** Per session: what its probes remember (for one provider) and its candidates (for one root). */
  readonly #memory = new WeakMap<Session, SessionMemory>();
  /** Says each refused link once per plugin instance. */
  readonly #refused: RefusalWarning;

  constructor(
    private readonly ctx: Context,
    private readonly config: ResolvedConfig,
  ) {
    this.#refused = warnOnce((format, ...args) => ctx.logger.warn(format, ...args));
  }

  /** The message the agent should receive next, or `undefined` when nothing is due. */
  async compose(request: ComposeRequest): Promise<UserMessage | undefined> {
    const { agent, signal, claimed, pending, touched } = request;
    signal?.throwIfAborted();
    const fs = this.ctx.get('fs') as FileSystem | undefined;
    if (!this.config.enabled || fs === undefined) return undefined;
    // A pending copy is still current unless a new touch asks for more (contract §10.2 step 2).
    if (touched.length === 0 && pending.length > 0) return pending[0];
    const session = agent.session;
    const cwd = session.header.cwd ?? hostRuntime(this.ctx).processCwd;
    const root = await findProjectRoot(cwd, this.config.projectRootMarkers, fs, signal);
    const memory = this.#memoryFor(session, fs, cwd, root);
    const layout: Layout = { cwd, root, config: this.config, candidates: memory.candidates, directories: memory.directories };
    const identity = baselineIdentity(this.config, cwd, root);
    const visible = visibleBaseline(session, claimed);
    const prepared = this.#prepared.get(session);
    const current = prepared?.identity === identity ? prepared : undefined;
    let keep = visible !== undefined && (visible.identity === identity || (visible.identity === undefined && current?.legacy === true));
    let excluded = keep ? current?.excluded : undefined;
    const baselineScopes = (memory.baselineScopes ??= new Set(baselineDirectories(layout).flatMap((d) => directoryCandidates(layout, d).map((c) => c.scope))));
    const versions = this.#cache(session);
    const blocks: string[] = [];
    const changes: Change[] = [];
    let emittedBaseline = false;
    let preparation: Preparation | undefined;
    if (!keep || excluded === undefined) {
      const files = await loadBaseline(fs, layout, signal, undefined, memory.probes, memory.fence);
      const replacing = visible !== undefined && !keep;
      const baseline = renderBaseline(files, this.config.maxBytes, replacing);
      // WC-47: a legacy baseline without an identity is current when the model has exactly this.
      const legacy = visible !== undefined && visible.identity === undefined && legacyBaselineMatches(effectiveChanges(session, claimed), baselineScopes, baseline.changes);
      if (legacy) keep = true;
      const included = new Set(baseline.included);
      excluded = new Set(files.filter((f) => !included.has(f)).map((f) => f.candidate.scope));
      preparation = { identity, legacy, excluded };
      for (const file of baseline.included) versions.set(file.candidate.scope, file.state);
      if (!keep && baseline.text !== undefined) {
        blocks.push(baseline.text);
        changes.push(...(replacing ? supersededRemovals(visible!, baseline.changes) : []), ...baseline.changes);
        emittedBaseline = true;
      }
    }
    const effective = effectiveChanges(session, claimed, changes);
    const scopes = this.#scopesToProbe(layout, baselineScopes, keep, effective, pending, touched);
    const transitions = await reconcile({ fs, probes: memory.probes, fence: memory.fence, layout, signal, effective, scopes, excluded, versions });
    if (transitions.length > 0) {
      const block = renderBlock(transitions.map((t) => t.item), '', this.config.maxBytes);
      // WC-27: only what the budget let through is committed; the rest stays eligible.
      const committed = transitions.filter((_, i) => block.represented[i]);
      if (committed.length > 0) {
        blocks.push(block.text);
        changes.push(...committed.map((t) => t.change));
        for (const t of committed) setVersion(versions, t.change.scope, t.state);
      }
    }
    if (preparation !== undefined) this.#prepared.set(session, preparation);
    if (blocks.length === 0) return undefined;
    const source: InstructionSource = {
      kind: INSTRUCTIONS_KIND,
      form: 'instructions',
      ...(emittedBaseline ? { baseline: true as const, baselineIdentity: identity } : {}),
      changes,
    };
    return createUserMessage(this.ctx, blocks.map((text) => ({ type: 'text' as const, text })), source);
  }

  /**
   * The scopes one reconciliation probes (contract §10.5): the baseline scopes while a compatible
   * baseline is visible; scopes named by pending contexts; every candidate of each directory with a
   * visible change; every candidate of each directory a touch newly reaches. A baseline composed in
   * this very message already covers the baseline scopes.
   */
  #scopesToProbe(
    layout: Layout, baselineScopes: ReadonlySet<string>, keep: boolean, effective: ReadonlyMap<string, Change>, pending: readonly UserMessage[], touched: readonly string[],
  ): Set<string> {
    const scopes = new Set<string>(keep ? baselineScopes : []);
    const addDirectory = (directory: string): void => {
      for (const c of directoryCandidates(layout, directory)) if (keep || !baselineScopes.has(c.scope)) scopes.add(c.scope);
    };
    for (const message of pending) {
      for (const change of sourceChanges(message.source)) if (keep || !baselineScopes.has(change.scope)) scopes.add(change.scope);
    }
    for (const scope of effective.keys()) {
      const directory = parseScope(scope)?.directory;
      if (directory !== undefined) addDirectory(directory);
    }
    for (const path of touched) for (const directory of touchedDirectories(layout, path)) addDirectory(directory);
    return scopes;
  }

  #memoryFor(session: Session, fs: FileSystem, cwd: string, root: string): SessionMemory {
    const provider = serviceIdentity(fs);
    let memory = this.#memory.get(session);
    if (memory === undefined || memory.provider !== provider) {
      const runtime = hostRuntime(this.ctx);
      memory = { provider, probes: new CandidateProbes(fs, () => runtime.now()), cwd, root, candidates: new Map(), directories: new Map(), fence: this.#fence(fs, root) };
      this.#memory.set(session, memory);
    } else if (memory.cwd !== cwd || memory.root !== root) {
      memory = { provider: memory.provider, probes: memory.probes, cwd, root, candidates: new Map(), directories: new Map(), fence: this.#fence(fs, root) };
      this.#memory.set(session, memory);
    }
    return memory;
  }

  #fence(fs: FileSystem, root: string): LinkFence {
    return new LinkFence(fs, { root, config: this.config }, this.#refused);
  }

  #cache(session: Session): Map<string, VersionState> {
    let cache = this.#versions.get(session);
    if (cache === undefined) this.#versions.set(session, (cache = new Map()));
    return cache;
  }
}

function setVersion(versions: Map<string, VersionState>, scope: string, state: VersionState | undefined): void {
  if (state === undefined) versions.delete(scope);
  else versions.set(scope, state);
}

/**
 * WC-34 / contract §10.2 sync: leaves at most one pending instruction message in `nextStep`. Nothing
 * due, or the same payload already claimed or visible: every pending copy goes. A pending copy with
 * the same payload stays (others go). Otherwise the first pending copy is replaced in place (or the
 * message is prepended) and any other copy goes.
 */
export function syncInbox(agent: Agent, claimed: readonly UserMessage[], desired: UserMessage | undefined): void {
  const pending = agent.inbox.nextStep.filter(isInstructionMessage);
  const supplied = desired !== undefined && (claimed.some((m) => samePayload(m, desired)) || visibleInstructions(agent.session).some((m) => samePayload(m, desired)));
  if (desired === undefined || supplied) {
    for (const message of pending) agent.inbox.remove(message.id);
    return;
  }
  const same = pending.find((m) => samePayload(m, desired));
  if (same !== undefined) {
    for (const message of pending) if (message !== same) agent.inbox.remove(message.id);
    return;
  }
  const [first, ...rest] = pending;
  if (first === undefined) agent.inbox.prepend('next-step', desired);
  else agent.inbox.replace(first.id, desired);
  for (const message of rest) agent.inbox.remove(message.id);
}
