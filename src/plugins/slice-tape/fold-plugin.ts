// dsh-context-engine/slice-tape/fold: the tape's tool-result folding on its own (spec ST-02, ST-11),
// for a stock loop without the slice policy. It registers expand_result, so it must not be mounted
// beside slice-tape, which registers it too: the second registration fails at load, by design.

import type { PreStepDecision, PreStepEvent } from '../../host/agent.js';
import type { Context } from '../../host/cordis.js';
import { HostEvent, HostService } from '../../host/names.js';
import { ConfigIssue, resolveFold, section, standardSchema, type FoldConfig } from './config.js';
import { applyFolds, planFolds } from './fold.js';
import { engineText } from './text.js';
import { expandResultTool } from './tools.js';

/** The standalone fold's configuration: the fold options flat, plus `digest`. */
export interface FoldPluginConfig extends FoldConfig {
  readonly digest: Readonly<Record<string, unknown>>;
}

export const name = 'slice-tape-fold';
export const inject = [HostService.tools];

/** Validates the flat fold options (ST-11 defaults and ranges); `digest` must be an object. */
export const Config = standardSchema((raw: unknown): FoldPluginConfig => {
  const config = raw === undefined || raw === null ? {} : raw;
  if (typeof config !== 'object' || Array.isArray(config)) throw new ConfigIssue(`fold configuration must be an object, got ${JSON.stringify(config)}`, []);
  const flat = config as Record<string, unknown>;
  return { ...resolveFold(flat, '', ['digest']), digest: structuredClone(section(flat.digest, 'digest')) };
});

/** Registers expand_result and folds unsent large results before each model request. */
export function apply(ctx: Context, config: FoldPluginConfig): void {
  const tools = ctx.tools!;
  ctx.effect(() => tools.register(expandResultTool(ctx)));
  ctx.on(HostEvent.agentPreStep, async (event: PreStepEvent, next: () => Promise<PreStepDecision>): Promise<PreStepDecision> => {
    const decision = await next();
    if (decision.kind === 'enter') applyFolds(event.agent.session, planFolds(event.agent.session, config, engineText));
    return decision;
  });
}
