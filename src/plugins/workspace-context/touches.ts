// Touch-driven discovery (spec WC-38, WC-40..WC-42, WC-46; contract §10.1): collect the files that
// successful first-party read/write/edit calls touched, hold them while their step is open, and
// project them per agent, one at a time, into at most one pending instruction message.

import {
  fileTouchPath, isStepOpen, SessionEventType, type Agent, type Context, type Session, type SessionEvent, type ToolExecution,
  type ToolExecutionResult, type ToolExecutionToken,
} from '../../host/index.js';
import { KeyedQueue } from '../../io/index.js';
import { syncInbox, type Composer } from './compose.js';
import { isInstructionMessage } from './state.js';

/** The warning DSH's loader logs when a refresh fails (contract §1.2). */
export const REFRESH_FAILED = 'workspace instruction refresh failed: %o';

interface Batch {
  readonly agent: Agent;
  readonly paths: string[];
}

/** Collects touches and runs projections for one plugin instance. */
export class Touches {
  /** Touches of nested calls, under the token of the call that dispatched them (WC-41). */
  readonly #stash = new Map<ToolExecutionToken, Batch>();
  /** Touches waiting for their step to end, per session. */
  readonly #staged = new WeakMap<Session, Batch>();
  /** Each agent's projections, one at a time (an idle agent is forgotten). */
  readonly #queue = new KeyedQueue<Agent>();

  constructor(
    private readonly ctx: Context,
    private readonly composer: Composer,
    /** Aborts when the plugin unloads. */
    private readonly lifetime: AbortSignal,
    /** Agents whose own preset mounts DSH's loader (presets.ts): their touches are not ours. */
    private readonly asideFor: (agent: Agent) => boolean = () => false,
  ) {}

  /** `tools/result`: records a touch, stashing nested ones until the outermost result. */
  onResult(exec: ToolExecution, result: ToolExecutionResult): void {
    const own = fileTouchPath(exec, result);
    const inner = this.#stash.get(exec.token);
    this.#stash.delete(exec.token);
    const paths = [...(inner?.paths ?? []), ...(own !== undefined ? [own] : [])];
    const agent = exec.agent ?? inner?.agent;
    if (exec.parent !== undefined) {
      // A failed nested composite contributes nothing, not even what its own children touched.
      if (result.isError || agent === undefined || paths.length === 0) return;
      const outer = this.#stash.get(exec.parent) ?? { agent, paths: [] };
      outer.paths.push(...paths);
      this.#stash.set(exec.parent, outer);
      return;
    }
    // The outermost result releases its stash even when it is an error (contract §7.4).
    if (agent === undefined || paths.length === 0 || exec.signal.aborted || this.asideFor(agent)) return;
    const batch: Batch = { agent, paths };
    if (isStepOpen(agent.session)) this.#stage(batch);
    else this.#project(batch);
  }

  /** `session/event`: a step's end (or its turn's) releases the touches held for it. */
  onSessionEvent(session: Session, event: SessionEvent): void {
    if (event.type !== SessionEventType.stepEnd && event.type !== SessionEventType.turnEnd) return;
    const batch = this.#staged.get(session);
    if (batch === undefined) return;
    this.#staged.delete(session);
    this.#project(batch);
  }

  /** Resolves once every projection queued for `agent` (including ones queued meanwhile) settled. */
  settled(agent: Agent): Promise<void> {
    return this.#queue.settled(agent);
  }

  #stage(batch: Batch): void {
    const staged = this.#staged.get(batch.agent.session);
    if (staged === undefined) this.#staged.set(batch.agent.session, { agent: batch.agent, paths: [...batch.paths] });
    else staged.paths.push(...batch.paths);
  }

  /**
   * Runs one projection on the agent's chain, cancelled only by the plugin's unload: the touching
   * calls' signals are not ours to follow (DSH aborts a nested Code Mode call's signal as soon as
   * `run_code` settles, before the outer result releases its touches; DSH's loader, too, stops
   * only when it unloads — WC-15, WC-46).
   */
  #project(batch: Batch): void {
    const { agent } = batch;
    const signal = this.lifetime;
    const run = async (): Promise<void> => {
      const pending = agent.inbox.nextStep.filter(isInstructionMessage);
      const desired = await this.composer.compose({ agent, signal, claimed: [], pending, touched: [...new Set(batch.paths)] });
      signal.throwIfAborted();
      syncInbox(agent, [], desired);
    };
    void this.#queue.run(agent, run).catch((error: unknown) => {
      // Cancellation (unload) commits nothing and is not a failure.
      if (!signal.aborted) this.ctx.logger.warn(REFRESH_FAILED, error);
    });
  }
}
