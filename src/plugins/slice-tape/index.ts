// dsh-context-engine/slice-tape: append-only history sealing with recall tools (spec ST-01..ST-37).
// At the first step of each turn, completed turns beyond `history.keepRecentTurns` are sealed in
// place into frozen `[slice tape v1 …]` entries; recall_turn, recall_step, expand_result and
// recall_search bring anything sealed back from the durable log.

import type { PreStepDecision, PreStepEvent } from '../../host/agent.js';
import type { Context } from '../../host/cordis.js';
import { createUserMessage } from '../../host/message.js';
import { HostEvent, HostService, SourceKind } from '../../host/names.js';
import { hostRuntime } from '../../host/runtime.js';
import type { Session } from '../../host/session.js';
import type { SliceTapeConfig } from './config.js';
import { applyEffortDefault } from './effort.js';
import { applyFolds, planFolds } from './fold.js';
import type { FingerprintCache } from './reads.js';
import { applySeal, HISTORY_PLUGIN, planSeal } from './seal.js';
import { engineText, type TextOps } from './text.js';
import { expandResultTool, recallSearchTool, recallStepTool, recallTurnTool } from './tools.js';

export { Config, resolveConfig } from './config.js';
export type { FoldConfig, HistoryConfig, SliceTapeConfig } from './config.js';
export { planSeal, applySeal, HISTORY_PLUGIN } from './seal.js';
export type { PlannedEntry, SealOptions } from './seal.js';
export { engineText } from './text.js';
export type { TextOps } from './text.js';
export type { FingerprintCache } from './reads.js';

/** Our plugin name (ST-02a); the seed's row id `slice-agent-loop` is informative only. */
export const name = 'slice-tape';
/** The recall tools are registered through `ctx.tools`. */
export const inject = [HostService.tools];

/** Mounts the tape: the four recall tools, the effort default, and the pre-step policy (step cap, sealing at step 1, folding). */
export function apply(ctx: Context, config: SliceTapeConfig): void {
  const ops: TextOps = engineText;
  // Per Session instance: warned segments (ST-18: a resumed session is a new instance, so it warns
  // again) and read fingerprints, so a seal hashes only records it has not seen.
  const sessions = new WeakMap<Session, { warned: Set<number>; fingerprints: FingerprintCache }>();
  const tools = ctx.tools!;
  // A duplicate name (e.g. a standalone fold plugin's expand_result) fails here, at load (ST-02).
  // Each registration is an effect, so unloading the plugin takes its tools with it.
  for (const def of [recallTurnTool(ops), recallSearchTool(ops), recallStepTool(ctx), expandResultTool(ctx)]) ctx.effect(() => tools.register(def));
  applyEffortDefault(ctx, config.defaultReasoningEffort);
  ctx.on(HostEvent.agentPreStep, async (event: PreStepEvent, next: () => Promise<PreStepDecision>): Promise<PreStepDecision> => {
    const decision = await next();
    if (decision.kind !== 'enter') return decision;
    if (event.step > config.maxStepsPerTurn) {
      ctx.logger.warn('slice tape: maxStepsPerTurn=%d reached in turn %d; no further model step is dispatched', config.maxStepsPerTurn, event.turn);
      return { kind: 'reject' };
    }
    const session = event.agent.session;
    if (event.step === 1) {
      let state = sessions.get(session);
      if (state === undefined) sessions.set(session, (state = { warned: new Set(), fingerprints: new Map() }));
      const plan = planSeal(session, decision.messages, { history: config.history, ops, ...state, warn: (message) => ctx.logger.warn('%s', message) });
      applySeal(session, plan, (text) => createUserMessage(ctx, text, { kind: SourceKind.plugin, plugin: HISTORY_PLUGIN }));
    }
    // Every step: results the coming request would carry for the first time may be folded (ST-11).
    applyFolds(session, planFolds(session, config.fold, ops));
    return decision;
  });
}
