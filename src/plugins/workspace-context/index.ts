// workspace-context: AGENTS.md / CLAUDE.md instruction loading for DSH, a drop-in for its built-in
// `agent-instructions` loader (same model-visible text, same typed source, same lifecycle). See
// README.md "workspace-context" and /work/shared/spec/workspace-context.md.

import { hostRuntime, HostEvent, type Context, type PreStepDecision, type PreStepEvent, type Session, type SessionEvent, type ToolExecution, type ToolExecutionResult } from '../../host/index.js';
import { Composer, syncInbox } from './compose.js';
import { Config, resolveConfig } from './config.js';
import { isInstructionMessage, samePayload } from './state.js';
import { PresetLoaders } from './presets.js';
import { REFRESH_FAILED, Touches } from './touches.js';

export { Config };
export type { Config as WorkspaceContextConfig } from './config.js';
export type { Change, InstructionSource } from './state.js';

/** The plugin name (a DSH row's `id` is independent: use `workspace-context`). */
export const name = 'workspace-context';

/**
 * Mounts the loader. Reads go through the optional `fs` service (looked up on every use, never
 * injected: WC-03), so a host without a filesystem boots and stays silent.
 */
export function apply(ctx: Context, config: Config): void {
  const resolved = resolveConfig(config, hostRuntime(ctx));
  const composer = new Composer(ctx, resolved);
  const lifetime = new AbortController();
  const presets = new PresetLoaders(ctx);
  const touches = new Touches(ctx, composer, lifetime.signal, (agent) => presets.knownAside(agent));
  ctx.effect(() => () => lifetime.abort(new Error(`${name} unloaded`)), `${name}: abort projections`);

  ctx.on(HostEvent.toolsResult, (exec: ToolExecution, result: ToolExecutionResult) => touches.onResult(exec, result));
  ctx.on(HostEvent.sessionEvent, (session: Session, event: SessionEvent) => touches.onSessionEvent(session, event));

  ctx.on(HostEvent.agentPreStep, async (event: PreStepEvent, next: () => Promise<PreStepDecision>): Promise<PreStepDecision> => {
    // Compose against the surface as it is after everything inside us ran (contract §1.3).
    const decision = await next();
    const { agent, messages, step, signal } = event;
    if (await presets.standsAside(agent)) return decision;
    // A rejected or empty first step drops the claimed batch (contract §6): what it carried is gone,
    // so it must not count as supplied, and the context is composed again to stay queued (WC-33).
    const queued = decision.kind === 'reject' || (step === 1 && decision.messages.length === 0);
    await touches.settled(agent);
    const pending = agent.inbox.nextStep.filter(isInstructionMessage);
    let desired;
    try {
      desired = await composer.compose({ agent, signal, claimed: queued ? [] : messages, pending, touched: [] });
    } catch (error) {
      if (signal.aborted) throw error; // WC-15: a cancelled step commits nothing
      ctx.logger.warn(REFRESH_FAILED, error);
      return decision;
    }
    signal.throwIfAborted();
    if (queued) {
      syncInbox(agent, [], desired);
      return decision;
    }
    // WC-34: an entering step settles every pending copy; the context enters right here instead.
    for (const message of pending) agent.inbox.remove(message.id);
    if (desired === undefined || decision.messages.some((m) => samePayload(m, desired))) return decision;
    let lastClaimed = -1;
    decision.messages.forEach((m, i) => {
      if (messages.includes(m)) lastClaimed = i;
    });
    const entered = [...decision.messages.slice(0, lastClaimed + 1), desired, ...decision.messages.slice(lastClaimed + 1)];
    return { kind: 'enter', messages: entered };
  });
}
